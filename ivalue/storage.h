// Storage and Allocator: the memory a tensor's elements live in, and who provides it per device.
//
// A `Storage` owns one allocation made by the `Allocator` registered for its device. Backends with
// memory of their own register an allocator with `setAllocator(DeviceType::X, &mine)`; the data
// pointer it returns may be an opaque handle that only that backend knows how to map.
#pragma once

#include <cstddef>
#include <memory>

#include "switchyard/core/device.h"
#include "switchyard/ivalue/intrusive_ptr.h"

namespace sy {

// An allocation plus the function that frees it.
struct DataPtr {
  void* ptr = nullptr;
  void (*deleter)(void* ptr, void* context) = nullptr;
  void* context = nullptr;
  Device device;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) = 0;
};

// The allocator for a device type; raises sy::Error when none is registered.
Allocator* getAllocator(DeviceType type);
// Installs `allocator` for `type` (not owned; must outlive every tensor it allocates).
void setAllocator(DeviceType type, Allocator* allocator);

class StorageImpl final : public IntrusiveTarget {
 public:
  StorageImpl(size_t nbytes, Allocator* allocator, Device device);
  // Wraps memory the caller owns (from_blob style); `deleter` may be null.
  StorageImpl(DataPtr data, size_t nbytes);
  ~StorageImpl() override;

  void* data() const { return data_.ptr; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device; }
  Allocator* allocator() const { return allocator_; }
  bool resizable() const { return allocator_ != nullptr; }

  // Grows (never shrinks) to at least `nbytes`, keeping the old contents.
  void reserve(size_t nbytes);

  // Note [Version counters live on the Storage]
  // Autograd counts the in-place writes it sees into a tensor's memory here, so a tensor saved for
  // a backward formula can tell, when backward reads it, that something wrote into it since: a
  // view, its base and every alias share the Storage and so the count. Only the autograd fallback
  // bumps it (autograd/autograd_fallback.cpp); kernels and the dispatcher never touch it.
  uint64_t version() const { return version_; }
  void bumpVersion() { ++version_; }

 private:
  void freeData();

  DataPtr data_;
  size_t nbytes_ = 0;
  Allocator* allocator_ = nullptr;
  uint64_t version_ = 0;
};

using Storage = intrusive_ptr<StorageImpl>;

}  // namespace sy
