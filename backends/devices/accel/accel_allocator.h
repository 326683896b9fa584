// The Accel device's memory: an allocator whose data pointers are opaque handles, and the only
// routines that turn a handle back into bytes.
//
// Accel is the XLA-like subset backend. Its buffers live in a table owned by this file; a tensor's
// storage holds a *handle* (a non-canonical address encoding the buffer id), never a host address,
// so a CPU kernel that is handed Accel memory by mistake faults instead of silently reading it.
// The allocator registers itself for DeviceType::Accel at load time, so
//
//   sy::Tensor t = sy::empty({2, 3}, sy::TensorOptions().device(sy::kAccel));   // key: Accel
//
// just works. Backend code moves bytes with copyToAccel / copyFromAccel / copyWithinAccel, or maps
// a handle with mapHandle for the duration of a kernel (see accel_tensor.h for tensor-level views).
#pragma once

#include <cstddef>

namespace sy::accel {

// True when `ptr` is (a byte offset into) an Accel buffer handle.
bool isAccelHandle(const void* ptr);

// The host memory behind `handle` (which may carry a byte offset into its buffer). Raises sy::Error
// for anything that is not a live Accel handle. Only backend kernels and copy routines use this.
void* mapHandle(const void* handle);

// Size in bytes of the whole buffer `handle` points into.
size_t bufferSize(const void* handle);

// Explicit transfers: `nbytes` bytes between host memory and an Accel handle (offsets included in
// the handle). Bounds are checked against the buffer.
void copyToAccel(void* dst_handle, const void* src_host, size_t nbytes);
void copyFromAccel(void* dst_host, const void* src_handle, size_t nbytes);
void copyWithinAccel(void* dst_handle, const void* src_handle, size_t nbytes);

// Number of Accel buffers currently alive (tests check tensors free their memory).
size_t liveBufferCount();

}  // namespace sy::accel
