// Storage and Allocator: the memory a tensor's elements live in, and who provides it per device.
//
// A `Storage` owns one allocation made by the `Allocator` registered for its device. Backends with
// memory of their own register an allocator with `setAllocator(DeviceType::X, &mine)`; the data
// pointer it returns may be an opaque handle that only that backend knows how to map.
//
//   struct MyAllocator final : sy::Allocator {
//     sy::DataPtr allocate(size_t n) override {
//       void* p = my_device_malloc(n);
//       return {p, p, &my_device_free, sy::Device(sy::DeviceType::PrivateUse1, 0)};  // data, context, deleter, device
//     }
//   };
//
// The names and shapes are PyTorch's (c10::DataPtr, c10::Allocator), so <switchyard/compat/torch.h>
// spells them c10::.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "switchyard/core/device.h"
#include "switchyard/ivalue/intrusive_ptr.h"

namespace sy {

// Frees an allocation, given its context.
using DeleterFnPtr = void (*)(void* context);

// An allocation: the data pointer, the context its deleter frees (usually the same pointer), and
// the device it is on. Owns the allocation when it has a deleter: destroying the DataPtr calls
// deleter(context). Move-only, like PyTorch's.
class DataPtr {
 public:
  DataPtr() = default;
  // Memory the DataPtr does not own.
  DataPtr(void* data, Device device) : data_(data), device_(device) {}
  DataPtr(void* data, void* context, DeleterFnPtr deleter, Device device)
      : data_(data), context_(context), deleter_(deleter), device_(device) {}
  DataPtr(DataPtr&& other) noexcept { *this = std::move(other); }
  DataPtr& operator=(DataPtr&& other) noexcept {
    if (this != &other) {
      clear();
      data_ = std::exchange(other.data_, nullptr);
      context_ = std::exchange(other.context_, nullptr);
      deleter_ = std::exchange(other.deleter_, nullptr);
      device_ = other.device_;
    }
    return *this;
  }
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  ~DataPtr() { clear(); }

  void* get() const { return data_; }
  void* mutable_get() const { return data_; }
  void* get_context() const { return context_; }
  // Gives up ownership: the caller frees the context now.
  void* release_context() {
    deleter_ = nullptr;
    data_ = nullptr;
    return std::exchange(context_, nullptr);
  }
  DeleterFnPtr get_deleter() const { return deleter_; }
  Device device() const { return device_; }
  void unsafe_set_device(Device device) { device_ = device; }
  // Frees the allocation now (when owned) and leaves the DataPtr empty.
  void clear() {
    if (deleter_ != nullptr) std::exchange(deleter_, nullptr)(context_);
    data_ = nullptr;
    context_ = nullptr;
  }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  void* data_ = nullptr;
  void* context_ = nullptr;
  DeleterFnPtr deleter_ = nullptr;
  Device device_;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) = 0;
  // The deleter of allocations whose context is their data pointer, for raw_allocate and
  // raw_deallocate; null when this allocator has none.
  virtual DeleterFnPtr raw_deleter() const { return nullptr; }
  // Copies `count` bytes between two allocations of this allocator. The default raises: only the
  // allocator knows how to move its device's bytes (default_copy_data is memcpy, for host memory).
  virtual void copy_data(void* dest, const void* src, std::size_t count) const;

  // An allocation whose context is its data pointer, as a plain pointer; freed by raw_deallocate.
  void* raw_allocate(size_t nbytes);
  void raw_deallocate(void* ptr);
  // A new allocation holding a copy of `count` bytes at `data` (which this allocator made).
  DataPtr clone(const void* data, std::size_t count);

 protected:
  static void default_copy_data(void* dest, const void* src, std::size_t count);
};

// The allocator for a device type; raises sy::Error when none is registered.
Allocator* getAllocator(DeviceType type);
// Installs `allocator` for `type` (not owned; must outlive every tensor it allocates), unless one
// of a higher priority is installed, as PyTorch's SetAllocator.
void setAllocator(DeviceType type, Allocator* allocator, uint8_t priority = 0);
// The CPU's allocator.
Allocator* cpuAllocator();
// Host memory as the CPU allocator makes it (64-byte aligned from 4 KiB on), freed with cpuFree;
// what PyTorch calls c10::alloc_cpu and c10::free_cpu.
void* cpuAlloc(size_t nbytes);
void cpuFree(void* ptr);

class StorageImpl final : public IntrusiveTarget {
 public:
  StorageImpl(size_t nbytes, Allocator* allocator, Device device);
  // On the device the allocation names (its DataPtr's).
  StorageImpl(size_t nbytes, Allocator* allocator);
  // Wraps memory the caller hands over (from_blob style): freed with the DataPtr's deleter, if any.
  StorageImpl(DataPtr data, size_t nbytes);
  ~StorageImpl() override;

  void* data() const { return data_.get(); }
  const DataPtr& data_ptr() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }
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
  DataPtr data_;
  size_t nbytes_ = 0;
  Allocator* allocator_ = nullptr;
  uint64_t version_ = 0;
};

using Storage = intrusive_ptr<StorageImpl>;

}  // namespace sy
