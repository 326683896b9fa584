// aten::equal(Tensor self, Tensor other) -> bool: whether two tensors have the same sizes and equal
// elements, PyTorch's torch.equal. Elements compare in the operands' promoted dtype, as eq does
// (so an Int 1 equals a Float 1.0, and NaN equals nothing); tensors of different sizes are unequal,
// not an error. It returns a bool rather than a tensor, so it is registered by hand (the kernel
// YAML generates tensor-returning forms) on the CPU key.
#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {
namespace {

bool equal_cpu(const Tensor& self, const Tensor& other, const KernelContext& ctx) {
  checkOnCPU(ctx.op, "self", self);
  checkOnCPU(ctx.op, "other", other);
  if (!sameSizes(self.sizes(), other.sizes())) return false;
  if (self.numel() == 0) return true;
  // The comparison kernel does the promotion and the dtype checks, naming this operator.
  Tensor same = sy::empty(self.sizes(), ScalarType::Bool);
  const KernelContext into_same{ctx.op, OutputForm::Out};
  native::eq_tensor_out_cpu(self, other, same, into_same);
  const bool* flags = same.data_ptr<bool>();
  for (int64_t i = 0; i < same.numel(); ++i) {
    if (!flags[i]) return false;
  }
  return true;
}

extern const KernelContext kEqual{"aten::equal", OutputForm::Functional};

}  // namespace
}  // namespace sy::cpu

SY_LIBRARY_FRAGMENT(aten, m) { m.def("equal(Tensor self, Tensor other) -> bool"); }

SY_LIBRARY_IMPL(aten, CPU, m) {
  m.impl(sy::cpu::kEqual.op, sy::withContext<&sy::cpu::equal_cpu, &sy::cpu::kEqual>());
}
