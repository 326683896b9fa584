// The kernel bodies of owned_ops.yaml: the generator declared them (NativeFunctions.h), registers
// them on the CPU key and writes the sytest_owned::ops helpers.
#include "sytest_owned/NativeFunctions.h"

#include "switchyard/ops/binary_ops.h"

namespace sytest_owned::native {

sy::Tensor square(const sy::Tensor& self, const sy::KernelContext&) { return sy::ops::mul(self, self); }
sy::Tensor& square_out(const sy::Tensor& self, sy::Tensor& out, const sy::KernelContext&) {
  return sy::ops::mul_out(out, self, self);
}

}  // namespace sytest_owned::native
