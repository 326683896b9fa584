// The kernel of new_operator.yaml: the out variant's, which also runs the functional and in-place
// forms (the unary driver allocates or writes in place as its context says).
#include <cmath>

#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "sytest_new/NativeFunctions.h"

namespace sytest_new::native {

// README: begin
sy::Tensor& expm1_out(const sy::Tensor& self, sy::Tensor& out, const sy::KernelContext& ctx) {
  return sy::cpu::floatingUnary<expm1_out_dtypes>(ctx, self, out, [](auto x) { return std::expm1(x); });
}
// README: end

}  // namespace sytest_new::native
