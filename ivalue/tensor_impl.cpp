#include "switchyard/ivalue/tensor_impl.h"

#include <algorithm>

#include "switchyard/ivalue/checked_size.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/wrap_dim.h"

namespace sy {

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : key_set_(tensorKeySetFor(device.type())), dtype_(dtype), device_(device), storage_(std::move(storage)) {
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

int64_t TensorImpl::size(int64_t d) const { return sizes_[wrapDim(d, dim(), {}, {}, /*wrap_scalar=*/false)]; }
int64_t TensorImpl::stride(int64_t d) const {
  return strides_[wrapDim(d, dim(), {}, {}, /*wrap_scalar=*/false)];
}

SizesVector contiguousStrides(IntArrayRef sizes) { return checkedContiguousStrides("contiguousStrides", sizes); }

void TensorImpl::resize(IntArrayRef sizes) {
  // Everything is checked before anything changes, so a refused size leaves the tensor as it was.
  const int64_t numel = checkedNumel("resize_", sizes);
  SizesVector strides = checkedContiguousStrides("resize_", sizes);
  const size_t needed = checkedStorageBytes("resize_", storage_offset_, numel, dtype_, sizes);
  if (numel > 0) {
    SY_CHECK(storage_ != nullptr, "resize_: tensor has no storage");
    storage_->reserve(needed);
  }
  sizes_.assign(sizes.begin(), sizes.end());
  strides_ = std::move(strides);
  refreshNumelAndContiguity();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  SY_CHECK(sizes.size() == strides.size(), "set_sizes_and_strides: ", sizes.size(), " sizes but ",
           strides.size(), " strides");
  checkedNumel("set_sizes_and_strides", sizes);
  SY_CHECK(storage_offset >= 0, "set_sizes_and_strides: storage offset ", storage_offset, " is negative");
  // data() adds the offset in bytes, so that product must fit.
  checkedStorageBytes("set_sizes_and_strides", storage_offset, 0, dtype_, sizes);
  sizes_.assign(sizes.begin(), sizes.end());
  strides_.assign(strides.begin(), strides.end());
  storage_offset_ = storage_offset;
  refreshNumelAndContiguity();
}

void TensorImpl::refreshNumelAndContiguity() {
  // Sizes were checked (checkedNumel) before they were stored, so the product fits once sizes
  // with a 0 (whose other dimensions may multiply past 64 bits) are set aside.
  numel_ = std::find(sizes_.begin(), sizes_.end(), 0) == sizes_.end() ? 1 : 0;
  for (int64_t s : sizes_) numel_ *= s;
  // Contiguous = row-major dense; size-1 dimensions may have any stride (as in PyTorch). A tensor
  // without elements is contiguous whatever its strides (and their product need not fit).
  is_contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) {
      is_contiguous_ = false;
      break;
    }
    expected *= sizes_[i];
  }
}

}  // namespace sy
