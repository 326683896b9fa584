// The Tensor methods that are operator calls (declared in ivalue/tensor.h). They live here, above
// the dispatcher, so the ivalue layer does not depend on the operators.
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

Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) { return ops::copy_(*this, src, non_blocking); }

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

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const { return ops::add(*this, other, alpha); }
Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return ops::add(*this, other, alpha); }
Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const { return ops::sub(*this, other, alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return ops::sub(*this, other, alpha); }
Tensor Tensor::mul(const Tensor& other) const { return ops::mul(*this, other); }
Tensor Tensor::mul(const Scalar& other) const { return ops::mul(*this, other); }
Tensor Tensor::div(const Tensor& other) const { return ops::div(*this, other); }
Tensor Tensor::div(const Scalar& other) const { return ops::div(*this, other); }

// The in-place methods are const, as PyTorch's are (only the TensorImpl changes); the sy::ops
// in-place helpers take the caller's Tensor& and return it, so a copy of the handle is passed and
// this tensor returned.
namespace {
template <class F>
const Tensor& inPlaceOnHandle(const Tensor& self, F&& op) {
  Tensor handle = self;
  op(handle);
  return self;
}
}  // namespace

const Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::add_(h, other, alpha); });
}
const Tensor& Tensor::add_(const Scalar& other, const Scalar& alpha) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::add_(h, other, alpha); });
}
const Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::sub_(h, other, alpha); });
}
const Tensor& Tensor::sub_(const Scalar& other, const Scalar& alpha) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::sub_(h, other, alpha); });
}
const Tensor& Tensor::mul_(const Tensor& other) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::mul_(h, other); });
}
const Tensor& Tensor::mul_(const Scalar& other) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::mul_(h, other); });
}
const Tensor& Tensor::div_(const Tensor& other) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::div_(h, other); });
}
const Tensor& Tensor::div_(const Scalar& other) const {
  return inPlaceOnHandle(*this, [&](Tensor& h) { ops::div_(h, other); });
}

Tensor Tensor::pow(const Tensor& exponent) const { return ops::pow(*this, exponent); }
Tensor Tensor::pow(const Scalar& exponent) const { return ops::pow(*this, exponent); }
Tensor Tensor::neg() const { return ops::neg(*this); }
Tensor Tensor::abs() const { return ops::abs(*this); }
Tensor Tensor::exp() const { return ops::exp(*this); }
Tensor Tensor::log() const { return ops::log(*this); }
Tensor Tensor::sqrt() const { return ops::sqrt(*this); }
Tensor Tensor::sin() const { return ops::sin(*this); }
Tensor Tensor::cos() const { return ops::cos(*this); }
Tensor Tensor::tanh() const { return ops::tanh(*this); }
Tensor Tensor::sigmoid() const { return ops::sigmoid(*this); }
Tensor Tensor::relu() const { return ops::relu(*this); }
Tensor Tensor::mm(const Tensor& mat2) const { return ops::mm(*this, mat2); }
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) const {
  return ops::addmm(*this, mat1, mat2, beta, alpha);
}
Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return ops::sum(*this, dtype); }
Tensor Tensor::sum(OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ops::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(std::optional<ScalarType> dtype) const { return ops::mean(*this, dtype); }
Tensor Tensor::mean(OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ops::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::view(IntArrayRef size) const { return ops::view(*this, size); }
Tensor Tensor::reshape(IntArrayRef shape) const { return ops::reshape(*this, shape); }
Tensor Tensor::permute(IntArrayRef dims) const { return ops::permute(*this, dims); }
Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const { return ops::transpose(*this, dim0, dim1); }
Tensor Tensor::unsqueeze(int64_t dim) const { return ops::unsqueeze(*this, dim); }
Tensor Tensor::squeeze() const { return ops::squeeze(*this); }
Tensor Tensor::squeeze(int64_t dim) const { return ops::squeeze(*this, dim); }
Tensor Tensor::expand(IntArrayRef size, bool implicit) const { return ops::expand(*this, size, implicit); }
Tensor Tensor::contiguous(MemoryFormat memory_format) const { return ops::contiguous(*this, memory_format); }
Tensor Tensor::clone(std::optional<MemoryFormat> memory_format) const { return ops::clone(*this, memory_format); }

}  // namespace sy
