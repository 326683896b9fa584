// fill on the CPU: fill.Scalar_out and fill.Tensor_out, each serving its functional (fill.Scalar,
// fill.Tensor) and in-place (fill_.Scalar, fill_.Tensor) forms.
//
// Semantics (PyTorch's): every element of a tensor of self's shape and dtype becomes `value`,
// converted to self's dtype (an error when the dtype cannot hold it: "value 3000000000 cannot be
// converted to type Int without overflow"); fill.Tensor takes the value from a 0-dim tensor of any
// dtype. An out= tensor must have self's dtype and is resized to self's shape (rearrange.h).
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"

namespace sy::cpu {
namespace native {

Tensor& fill_Scalar_out_cpu(const Tensor& self, const Scalar& value, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  rearrangedOutput(ctx, self, self.sizes(), out);
  fillTensorWith(op, out, value, "self");
  return out;
}

Tensor& fill_Tensor_out_cpu(const Tensor& self, const Tensor& value, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "value", value);
  SY_CHECK(value.dim() == 0, op, ": fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
           " dimensions.");
  const ScalarType dtype = value.scalar_type();
  const Scalar scalar = dtype == ScalarType::Bool  ? Scalar(value.item<bool>())
                        : isFloatingType(dtype) ? Scalar(value.item<double>())
                                                : Scalar(value.item<int64_t>());
  rearrangedOutput(ctx, self, self.sizes(), out);
  fillTensorWith(op, out, scalar, "self");
  return out;
}

}  // namespace native
}  // namespace sy::cpu
