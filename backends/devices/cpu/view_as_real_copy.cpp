// view_as_real_copy.out (+ its functional form) on the CPU: a complex tensor's elements as pairs of
// reals, a copy of what PyTorch's view_as_real views (kernel registered from view_copy_ops.yaml).
//
// Semantics (PyTorch's): self is ComplexHalf, ComplexFloat or ComplexDouble; the result has self's
// shape with a last dimension of 2 (real, imaginary) and the matching real dtype (Half, Float,
// Double), which an out= tensor must have. Any other self is an error.
#include <cstring>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/view_copy/NativeFunctions.h"

namespace sy::cpu {
namespace {

ScalarType realPartType(const char* op, ScalarType complex) {
  switch (complex) {
    case ScalarType::ComplexHalf: return ScalarType::Half;
    case ScalarType::ComplexFloat: return ScalarType::Float;
    case ScalarType::ComplexDouble: return ScalarType::Double;
    default:
      SY_CHECK(false, op, ": view_as_real is only supported for complex tensors, but 'self' is ", complex);
  }
  return ScalarType::Undefined;
}

}  // namespace

namespace native {

Tensor& view_as_real_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const ScalarType real = realPartType(op, self.scalar_type());
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  sizes.push_back(2);
  if (ctx.form == OutputForm::Functional) {
    out = sy::empty(sizes, real);
  } else {
    checkOnCPU(op, "out", out);
    SY_CHECK(out.scalar_type() == real, op, ": expected 'out' to have dtype ", real, " (the real type of 'self', ",
             self.scalar_type(), ") but got ", out.scalar_type());
  }
  // A complex element is its real and imaginary parts, in that order: the contiguous complex copy
  // has the bytes of the contiguous real result.
  const Tensor pairs = contiguousCopyIfNeeded(op, "self", self);
  resizeOutput(out, sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const size_t bytes = static_cast<size_t>(pairs.numel()) * pairs.element_size();
  if (out.is_contiguous()) {
    std::memmove(out.data_ptr(), pairs.data_ptr(), bytes);
  } else {
    const Tensor staged = scratchTensor(op, sizes, real);
    std::memcpy(staged.data_ptr(), pairs.data_ptr(), bytes);
    copyIntoCPU(op, out, staged, "out", "self");
  }
  return out;
}

}  // namespace native
}  // namespace sy::cpu
