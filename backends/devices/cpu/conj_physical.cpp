// aten::_conj_physical (and its out= form) on the CPU. The complex conjugate of a real number is
// the number itself, and the dtypes Switchyard computes are all real, so the
// result is a copy of self in its dtype, values (NaN, infinities, signed zeros) unchanged.
#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {

// The kernel backends/devices/cpu/unary_ops.yaml binds.
namespace native {

Tensor& _conj_physical_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return sameDtypeUnary<_conj_physical_out_cpu_dtypes>(ctx, self, out, [](auto x) { return x; });
}

}  // namespace native
}  // namespace sy::cpu
