#include "switchyard/ivalue/storage.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "switchyard/core/error.h"

namespace sy {
namespace {

// Large buffers are 64-byte aligned so vectorised loops start on a cache line. Small ones come
// from plain malloc (16-byte aligned): glibc serves those from its per-thread cache, which is both
// faster than aligned_alloc and deterministic in cost, so the instruction counts of allocating
// operators do not depend on the heap's history (bench/README.md).
class CPUAllocator final : public Allocator {
 public:
  static constexpr size_t kAlignedThreshold = 4096;

  DataPtr allocate(size_t nbytes) override {
    void* p = nullptr;
    if (nbytes > 0) {
      // Sizes reach here through checkedStorageBytes; this guards the rounding below for any caller.
      SY_CHECK(nbytes <= static_cast<size_t>(PTRDIFF_MAX), "CPU allocator: ", nbytes,
               " bytes is more than can be addressed");
      p = nbytes < kAlignedThreshold ? std::malloc(nbytes) : std::aligned_alloc(64, (nbytes + 63) / 64 * 64);
      SY_CHECK(p != nullptr, "CPU allocator: out of memory allocating ", nbytes, " bytes");
    }
    return DataPtr{p, [](void* ptr, void*) { std::free(ptr); }, nullptr, kCPU};
  }
};

CPUAllocator cpu_allocator;

struct AllocatorTable {
  AllocatorTable() { slots[static_cast<int>(DeviceType::CPU)].store(&cpu_allocator); }
  std::array<std::atomic<Allocator*>, kNumDeviceTypes> slots{};
};

std::array<std::atomic<Allocator*>, kNumDeviceTypes>& allocators() {
  static AllocatorTable table;
  return table.slots;
}

}  // namespace

Allocator* getAllocator(DeviceType type) {
  checkHasBackend(type, "allocating memory");
  Allocator* a = allocators()[static_cast<int>(type)].load(std::memory_order_acquire);
  SY_CHECK(a != nullptr, "no allocator is registered for device type '", toString(type),
           "'; a backend registers one with sy::setAllocator(DeviceType::", toString(type), ", ...)");
  return a;
}

void setAllocator(DeviceType type, Allocator* allocator) {
  checkHasBackend(type, "setAllocator");
  allocators()[static_cast<int>(type)].store(allocator, std::memory_order_release);
}

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator, Device device)
    : nbytes_(nbytes), allocator_(allocator) {
  data_ = allocator_->allocate(nbytes);
  data_.device = device;
}

StorageImpl::StorageImpl(DataPtr data, size_t nbytes) : data_(data), nbytes_(nbytes) {}

StorageImpl::~StorageImpl() { freeData(); }

void StorageImpl::freeData() {
  if (data_.deleter) data_.deleter(data_.ptr, data_.context);
  data_.ptr = nullptr;
}

void StorageImpl::reserve(size_t nbytes) {
  if (nbytes <= nbytes_) return;
  SY_CHECK(resizable(), "cannot resize a storage that wraps external memory (", nbytes_,
           " bytes) to ", nbytes, " bytes");
  SY_CHECK(data_.device.is_cpu() || nbytes_ == 0,
           "cannot grow a non-empty storage on device ", data_.device.str(),
           " in place; the backend must resize it");
  DataPtr fresh = allocator_->allocate(nbytes);
  fresh.device = data_.device;
  if (nbytes_ > 0) std::memcpy(fresh.ptr, data_.ptr, nbytes_);
  freeData();
  data_ = fresh;
  nbytes_ = nbytes;
}

}  // namespace sy
