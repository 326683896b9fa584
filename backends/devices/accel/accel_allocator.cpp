// Handle layout (64 bits): | 0xACC tag (12) | buffer id (20) | byte offset (32) |.
// The tag makes the address non-canonical on x86-64 and AArch64 (the top bits are not a sign
// extension), so dereferencing a handle faults at once. The offset field lets TensorImpl::data()
// add storage_offset * element_size to a handle and still have something this file can map.
#include "switchyard/backends/devices/accel/accel_allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/storage.h"

namespace sy::accel {
namespace {

constexpr uint64_t kTag = 0xACCull << 52;
constexpr uint64_t kTagMask = 0xFFFull << 52;
constexpr uint64_t kIdBits = 20;
constexpr uint64_t kMaxId = (1ull << kIdBits) - 1;
constexpr uint64_t kOffsetMask = 0xFFFFFFFFull;

struct Buffer {
  char* data = nullptr;
  size_t size = 0;
  bool live = false;
};

// Ids are recycled so the 20-bit field never runs out over a long run; id 0 is never handed out,
// so a zero handle is never valid.
class BufferTable {
 public:
  uint64_t add(size_t nbytes) {
    // 64-byte aligned like the CPU allocator, so reused CPU loops see the same alignment.
    char* data = static_cast<char*>(std::aligned_alloc(64, (std::max<size_t>(nbytes, 1) + 63) / 64 * 64));
    SY_CHECK(data != nullptr, "Accel allocator: out of memory allocating ", nbytes, " bytes");
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t id;
    if (!free_ids_.empty()) {
      id = free_ids_.back();
      free_ids_.pop_back();
    } else {
      if (buffers_.empty()) buffers_.emplace_back();  // slot 0 stays unused
      SY_CHECK(buffers_.size() <= kMaxId, "Accel allocator: more than ", kMaxId, " live buffers");
      id = buffers_.size();
      buffers_.emplace_back();
    }
    buffers_[id] = Buffer{data, nbytes, true};
    live_ += 1;
    return id;
  }

  void remove(uint64_t id) {
    char* data = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (id >= buffers_.size() || !buffers_[id].live) return;
      data = buffers_[id].data;
      buffers_[id] = Buffer{};
      free_ids_.push_back(id);
      live_ -= 1;
    }
    std::free(data);
  }

  // Buffer memory and size for a live id; raises otherwise.
  Buffer lookup(uint64_t id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    SY_CHECK(id < buffers_.size() && buffers_[id].live, "Accel: handle refers to buffer ", id,
             ", which is not allocated (freed or never allocated)");
    return buffers_[id];
  }

  size_t live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Buffer> buffers_;
  std::vector<uint64_t> free_ids_;
  size_t live_ = 0;
};

BufferTable& table() {
  static BufferTable* t = new BufferTable();  // never destroyed: tensors may outlive static teardown
  return *t;
}

uint64_t bitsOf(const void* p) { return reinterpret_cast<uint64_t>(p); }
uint64_t idOf(const void* handle) { return (bitsOf(handle) >> 32) & kMaxId; }
uint64_t offsetOf(const void* handle) { return bitsOf(handle) & kOffsetMask; }

// The buffer behind `handle` and the byte offset into it, after checking that `nbytes` from there
// stay inside the buffer.
char* checkedAddress(const void* handle, size_t nbytes, const char* what) {
  SY_CHECK(isAccelHandle(handle), "Accel ", what, ": ", handle, " is not an Accel handle");
  const Buffer buffer = table().lookup(idOf(handle));
  const uint64_t offset = offsetOf(handle);
  // Compared without adding, so no nbytes can wrap the end around to inside the buffer.
  SY_CHECK(offset <= buffer.size && nbytes <= buffer.size - offset, "Accel ", what, ": ", nbytes, " bytes at offset ", offset,
           " overrun a buffer of ", buffer.size, " bytes");
  return buffer.data + offset;
}

class AccelAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    SY_CHECK(nbytes <= kOffsetMask, "Accel allocator: buffers are limited to 4 GiB, asked for ", nbytes, " bytes");
    const uint64_t id = table().add(nbytes);
    void* handle = reinterpret_cast<void*>(kTag | (id << 32));
    return DataPtr(handle, handle, [](void* h) { table().remove(idOf(h)); }, kAccel);
  }
};

AccelAllocator accel_allocator;

// Registered at load time so sy::empty(..., device(kAccel)) finds it without any setup call.
const bool registered = [] {
  setAllocator(DeviceType::Accel, &accel_allocator);
  return true;
}();

}  // namespace

bool isAccelHandle(const void* ptr) { return (bitsOf(ptr) & kTagMask) == kTag; }

void* mapHandle(const void* handle) { return checkedAddress(handle, 0, "mapHandle"); }

size_t bufferSize(const void* handle) {
  SY_CHECK(isAccelHandle(handle), "Accel bufferSize: ", handle, " is not an Accel handle");
  return table().lookup(idOf(handle)).size;
}

void copyToAccel(void* dst_handle, const void* src_host, size_t nbytes) {
  if (nbytes == 0) return;
  std::memcpy(checkedAddress(dst_handle, nbytes, "copyToAccel"), src_host, nbytes);
}

void copyFromAccel(void* dst_host, const void* src_handle, size_t nbytes) {
  if (nbytes == 0) return;
  std::memcpy(dst_host, checkedAddress(src_handle, nbytes, "copyFromAccel"), nbytes);
}

void copyWithinAccel(void* dst_handle, const void* src_handle, size_t nbytes) {
  if (nbytes == 0) return;
  char* dst = checkedAddress(dst_handle, nbytes, "copyWithinAccel");
  std::memmove(dst, checkedAddress(src_handle, nbytes, "copyWithinAccel"), nbytes);
}

size_t liveBufferCount() { return table().live(); }

}  // namespace sy::accel
