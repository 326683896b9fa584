// The Tensor methods that compute and are not one generated operator call (resize_, to; declared in
// ivalue/tensor.h). They live here, above the dispatcher, so the ivalue layer does not depend on
// the operators; the generated ones are in the families' Functions.cpp.
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/operator_handle.h"
#include "switchyard/ops/ops.h"

namespace sy {

namespace ops {
namespace {
const auto resize_op = handle<const Tensor&(const Tensor&, IntArrayRef, std::optional<MemoryFormat>)>("aten::resize_", "");
}  // namespace

const Tensor& resize_(const Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format) {
  return resize_op.call(self, size, memory_format);
}
}  // namespace ops

const Tensor& Tensor::resize_(IntArrayRef sizes, std::optional<MemoryFormat> memory_format) const {
  if (SY_LIKELY(is_cpu() && !memory_format.has_value())) {
    unsafeGetTensorImpl()->resize(sizes);
    return *this;
  }
  return ops::resize_(*this, sizes, memory_format);
}

Tensor Tensor::to(Device device) const {
  if (this->device() == device) return *this;
  // Allocate on the target and let copy_ move the bytes: whichever backend owns either side
  // (the highest key of the pair) gets to implement the transfer.
  Tensor result = ops::empty(sizes(), TensorOptions(scalar_type()).device(device));
  ops::copy_(result, *this);
  return result;
}

Tensor Tensor::to(ScalarType dtype) const {
  if (scalar_type() == dtype) return *this;
  return ops::_to_copy(*this, TensorOptions(dtype).device(device()));
}

}  // namespace sy

namespace sy {

Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return to(options.device(), options.has_dtype() ? options.dtype() : scalar_type(), non_blocking, copy);
}

Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy) const {
  if (!copy && this->device() == device && scalar_type() == dtype) return *this;
  if (this->device() == device) return ops::_to_copy(*this, TensorOptions(dtype).device(device), non_blocking);
  // Across devices, the converted copy is made where this tensor is, then moved, so each backend
  // only converts its own tensors and only copies bytes of one dtype across (its _copy_from).
  Tensor converted = scalar_type() == dtype ? *this : to(dtype);
  Tensor result = ops::empty(sizes(), TensorOptions(dtype).device(device));
  ops::copy_(result, converted, non_blocking);
  return result;
}

}  // namespace sy
