#include "switchyard/ivalue/tensor_impl.h"

#include "switchyard/ivalue/error.h"

namespace sy {

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : key_set_(backendKeyFor(device.type)), dtype_(dtype), device_(device), storage_(std::move(storage)) {
  refreshNumelAndContiguity();
}

TensorImpl::TensorImpl(DispatchKeySet key_set, ScalarType dtype, Device device)
    : key_set_(key_set), dtype_(dtype), device_(device), sizes_{0}, strides_{1} {
  refreshNumelAndContiguity();
}

UndefinedTensorImpl UndefinedTensorImpl::instance_;

UndefinedTensorImpl::UndefinedTensorImpl() : TensorImpl(Storage(), ScalarType::Undefined, kCPU) {
  set_key_set(DispatchKeySet());
}

static int64_t wrapDim(int64_t dim, int64_t ndim) {
  int64_t wrapped = dim < 0 ? dim + ndim : dim;
  SY_CHECK(wrapped >= 0 && wrapped < ndim, "dimension out of range (expected to be in range of [",
           -ndim, ", ", ndim - 1, "], but got ", dim, ")");
  return wrapped;
}

int64_t TensorImpl::size(int64_t d) const { return sizes_[wrapDim(d, dim())]; }
int64_t TensorImpl::stride(int64_t d) const { return strides_[wrapDim(d, dim())]; }

void* TensorImpl::data() const {
  if (!storage_ || storage_->data() == nullptr) return nullptr;
  return static_cast<char*>(storage_->data()) + storage_offset_ * static_cast<int64_t>(elementSize(dtype_));
}

SizesVector contiguousStrides(IntArrayRef sizes) {
  SizesVector strides(sizes.size());
  int64_t running = 1;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = running;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

void TensorImpl::resize(IntArrayRef sizes) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    SY_CHECK(sizes[i] >= 0, "resize: negative dimension ", sizes[i], " at index ", i);
  }
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  size_t needed = static_cast<size_t>(storage_offset_ + numel) * elementSize(dtype_);
  if (numel > 0) {
    SY_CHECK(storage_ != nullptr, "resize: tensor has no storage");
    storage_->reserve(needed);
  }
  sizes_.assign(sizes.begin(), sizes.end());
  strides_ = contiguousStrides(sizes);
  refreshNumelAndContiguity();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  SY_CHECK(sizes.size() == strides.size(), "set_sizes_and_strides: ", sizes.size(), " sizes but ",
           strides.size(), " strides");
  sizes_.assign(sizes.begin(), sizes.end());
  strides_.assign(strides.begin(), strides.end());
  storage_offset_ = storage_offset;
  refreshNumelAndContiguity();
}

void TensorImpl::refreshNumelAndContiguity() {
  numel_ = 1;
  for (int64_t s : sizes_) numel_ *= s;
  // Contiguous = row-major dense; size-1 dimensions may have any stride (as in PyTorch).
  is_contiguous_ = true;
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) {
      is_contiguous_ = numel_ == 0;
      break;
    }
    expected *= sizes_[i];
  }
}

}  // namespace sy
