// TensorImpl: the refcounted object behind a Tensor: storage, offset, sizes, strides, dtype,
// device, and the DispatchKeySet the dispatcher reads on every call.
//
// Subclass it for tensors that wrap other tensors (see the wrapper fallback test) or that carry no
// data; add functionality keys (ZeroTensor, TESTING_ONLY_GenericWrapper) with `set_key_set`.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/core/device.h"
#include "switchyard/ivalue/intrusive_ptr.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/ivalue/storage.h"

namespace sy {

using IntArrayRef = absl::Span<const int64_t>;
using SizesVector = absl::InlinedVector<int64_t, 5>;

// Note [Autograd state lives behind one pointer]
// Whether a tensor requires grad, its accumulated gradient and the recorded call that made it live
// in an object autograd/ defines (sy::autograd::AutogradMeta), reached through one pointer that
// stays null for every tensor autograd never touched. Nothing on the dispatch or kernel path
// reads it: the dispatcher learns that a tensor takes part in autograd from its key set alone
// (see Note [Only tensors that require grad carry an autograd key], autograd/autograd.h). So a
// TensorImpl pays 8 bytes and a null check when it is destroyed, and no call pays anything.
class AutogradMetaInterface {
 public:
  virtual ~AutogradMetaInterface() = default;
};

class TensorImpl : public IntrusiveTarget {
 public:
  // A tensor viewing `storage` (which may be null for tensors that own no memory).
  TensorImpl(Storage storage, ScalarType dtype, Device device);
  // A tensor without storage and with the dispatch keys given, for a backend's own tensors (as
  // PyTorch's TensorImpl(DispatchKeySet, dtype, device)); its sizes start as {0}.
  TensorImpl(DispatchKeySet key_set, ScalarType dtype, Device device);
  ~TensorImpl() override = default;

  // The dispatcher reads this on every call; it is the first field after the refcount.
  DispatchKeySet key_set() const { return key_set_; }
  void set_key_set(DispatchKeySet ks) { key_set_ = ks; }

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }
  bool is_contiguous() const { return is_contiguous_; }

  const Storage& storage() const { return storage_; }
  int64_t storage_offset() const { return storage_offset_; }
  // Address of element 0 (storage data plus offset); null for a tensor without storage. In line:
  // kernels take it on every call.
  void* data() const {
    if (!storage_ || storage_->data() == nullptr) return nullptr;
    return static_cast<char*>(storage_->data()) + storage_offset_ * static_cast<int64_t>(elementSize(dtype_));
  }

  // Sets sizes with contiguous strides, growing the storage when it is too small.
  void resize(IntArrayRef sizes);
  // Makes this a view with the given geometry on its current storage (no bounds growth).
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_storage(Storage storage) { storage_ = std::move(storage); }
  void set_dtype(ScalarType dtype) { dtype_ = dtype; }

  // See Note [Autograd state lives behind one pointer]; null unless autograd/ set it.
  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> meta) { autograd_meta_ = std::move(meta); }

 private:
  void refreshNumelAndContiguity();

  DispatchKeySet key_set_;
  ScalarType dtype_;
  Device device_;
  bool is_contiguous_ = true;
  int64_t numel_ = 1;
  int64_t storage_offset_ = 0;
  Storage storage_;
  SizesVector sizes_;
  SizesVector strides_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;  // last: no call reads it
};

// Element-wise equality of two size or stride lists. A plain loop on purpose: Span's operator==
// calls memcmp, whose instruction count depends on the buffers' alignment, which would make the
// cost of identical kernel calls vary with heap addresses (bench/README.md compares counts).
inline bool sameSizes(IntArrayRef a, IntArrayRef b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Note [Undefined tensors point at a sentinel]
// An undefined Tensor holds this one static impl instead of nullptr: its key set is empty, so the
// dispatcher reads every tensor argument's keys with one load and no null check. Its refcount is
// never touched (intrusive_ptr skips the sentinel), and Tensor::defined() compares against it.
class UndefinedTensorImpl final : public TensorImpl {
 public:
  static TensorImpl* singleton() noexcept { return &instance_; }

 private:
  UndefinedTensorImpl();
  static UndefinedTensorImpl instance_;
};

// Contiguous (row-major) strides for `sizes`.
SizesVector contiguousStrides(IntArrayRef sizes);

}  // namespace sy
