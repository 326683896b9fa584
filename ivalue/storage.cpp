#include "switchyard/ivalue/storage.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "switchyard/core/error.h"

namespace sy {
namespace {

// Large buffers are 64-byte aligned so vectorised loops start on a cache line. Small ones come
// from plain malloc (16-byte aligned): glibc serves those from its per-thread cache, which is both
// faster than aligned_alloc and deterministic in cost, so the instruction counts of allocating
// operators do not depend on the heap's history (bench/README.md).
constexpr size_t kAlignedThreshold = 4096;

void freeCpuContext(void* context) { std::free(context); }

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    void* p = cpuAlloc(nbytes);
    return DataPtr(p, p, &freeCpuContext, kCPU);
  }
  DeleterFnPtr raw_deleter() const override { return &freeCpuContext; }
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
};

CPUAllocator cpu_allocator;

struct AllocatorTable {
  AllocatorTable() { slots[static_cast<int>(DeviceType::CPU)].store(&cpu_allocator); }
  std::array<std::atomic<Allocator*>, kNumDeviceTypes> slots{};
  std::mutex mutex;  // serialises setAllocator's priority check
  std::array<uint8_t, kNumDeviceTypes> priorities{};
};

AllocatorTable& allocators() {
  static AllocatorTable table;
  return table;
}

}  // namespace

void* cpuAlloc(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  // Sizes reach here through checkedStorageBytes; this guards the rounding below for any caller.
  SY_CHECK(nbytes <= static_cast<size_t>(PTRDIFF_MAX), "CPU allocator: ", nbytes, " bytes is more than can be addressed");
  void* p = nbytes < kAlignedThreshold ? std::malloc(nbytes) : std::aligned_alloc(64, (nbytes + 63) / 64 * 64);
  SY_CHECK(p != nullptr, "CPU allocator: out of memory allocating ", nbytes, " bytes");
  return p;
}

void cpuFree(void* ptr) { std::free(ptr); }

Allocator* cpuAllocator() { return &cpu_allocator; }

void Allocator::copy_data(void* dest, const void* src, std::size_t count) const {
  SY_ERROR("this allocator does not implement copy_data, so its allocations cannot be copied or cloned; override "
           "Allocator::copy_data (default_copy_data copies host memory)");
}

void Allocator::default_copy_data(void* dest, const void* src, std::size_t count) {
  if (count > 0) std::memcpy(dest, src, count);
}

void* Allocator::raw_allocate(size_t nbytes) {
  DataPtr data = allocate(nbytes);
  SY_CHECK(data.get() == data.get_context() && (!data || data.get_deleter() == raw_deleter()),
           "raw_allocate: this allocator's allocations are not their own context with raw_deleter() as deleter, so "
           "they cannot be handed out as plain pointers");
  return data.release_context();
}

void Allocator::raw_deallocate(void* ptr) {
  DeleterFnPtr deleter = raw_deleter();
  SY_CHECK(deleter != nullptr, "raw_deallocate: this allocator has no raw_deleter()");
  deleter(ptr);
}

DataPtr Allocator::clone(const void* data, std::size_t count) {
  DataPtr copy = allocate(count);
  copy_data(copy.get(), data, count);
  return copy;
}

Allocator* getAllocator(DeviceType type) {
  checkHasBackend(type, "allocating memory");
  Allocator* a = allocators().slots[static_cast<int>(type)].load(std::memory_order_acquire);
  SY_CHECK(a != nullptr, "no allocator is registered for device type '", toString(type),
           "'; a backend registers one with sy::setAllocator(DeviceType::", toString(type), ", ...)");
  return a;
}

void setAllocator(DeviceType type, Allocator* allocator, uint8_t priority) {
  checkHasBackend(type, "setAllocator");
  AllocatorTable& table = allocators();
  std::lock_guard<std::mutex> lock(table.mutex);
  const int slot = static_cast<int>(type);
  if (priority < table.priorities[slot]) return;
  table.priorities[slot] = priority;
  table.slots[slot].store(allocator, std::memory_order_release);
}

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator, Device device)
    : data_(allocator->allocate(nbytes)), nbytes_(nbytes), allocator_(allocator) {
  data_.unsafe_set_device(device);
}

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator)
    : data_(allocator->allocate(nbytes)), nbytes_(nbytes), allocator_(allocator) {}

StorageImpl::StorageImpl(DataPtr data, size_t nbytes) : data_(std::move(data)), nbytes_(nbytes) {}

StorageImpl::~StorageImpl() = default;

void StorageImpl::reserve(size_t nbytes) {
  if (nbytes <= nbytes_) return;
  SY_CHECK(resizable(), "cannot resize a storage that wraps external memory (", nbytes_,
           " bytes) to ", nbytes, " bytes");
  SY_CHECK(data_.device().is_cpu() || nbytes_ == 0,
           "cannot grow a non-empty storage on device ", data_.device().str(),
           " in place; the backend must resize it");
  DataPtr fresh = allocator_->allocate(nbytes);
  fresh.unsafe_set_device(data_.device());
  if (nbytes_ > 0) std::memcpy(fresh.get(), data_.get(), nbytes_);
  data_ = std::move(fresh);
  nbytes_ = nbytes;
}

}  // namespace sy
