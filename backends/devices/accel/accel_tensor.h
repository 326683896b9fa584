// Tensor-level helpers of the Accel backend: host views for kernels, transfers, resizing, and
// the same-device check. Shared by the native kernels (accel_kernels.cpp) and the CPU fallback
// (backends/devices/accel/accel_cpu_fallback.cpp).
//
//   sy::Tensor h = sy::accel::hostView(accel_t);     // CPU tensor on the same bytes; kernel-scoped
//   sy::Tensor c = sy::accel::toCpu(accel_t);        // an independent CPU copy
//   sy::Tensor a = sy::accel::toAccel(cpu_t);        // an independent Accel copy
//   sy::accel::copyInto(accel_out, cpu_result);      // resize accel_out like a CPU out=, then copy
//
// A host view does not own the buffer: it must not outlive the Accel tensor it came from, and it
// is never handed back to callers (only kernels and the fallback use it while the call runs).
#pragma once

#include <string_view>

#include "switchyard/ivalue/tensor.h"

namespace sy::accel {

bool isAccel(const Tensor& t);

// A CPU tensor with `accel`'s sizes, strides and offset over the host memory of its buffer.
Tensor hostView(const Tensor& accel);
// `t` itself unless it is an Accel tensor, then its host view: for passing operands to CPU loops.
Tensor hostOperand(const Tensor& t);

// Independent copies across the device boundary (same sizes and dtype; the result is contiguous).
Tensor toCpu(const Tensor& accel);
Tensor toAccel(const Tensor& cpu);

// Resizes an Accel tensor in place with contiguous strides (as TensorImpl::resize does on the CPU),
// moving the impl to a larger buffer when its storage is too small; old contents are kept.
void resizeAccel(const Tensor& accel, IntArrayRef sizes);

// Writes `cpu_value` into the caller's Accel tensor `dst`: resizes `dst` to cpu_value's shape when
// they differ (what a CPU out= kernel did to its own copy), then copies through dst's strides.
void copyInto(const Tensor& dst, const Tensor& cpu_value);

// Raises PyTorch's message when `tensors` mix Accel and CPU memory. A 0-dim CPU tensor is allowed
// next to Accel tensors as an input, as PyTorch allows CPU scalars next to CUDA tensors, but never
// as one of the `written` tensors (an out= or in-place self): the result is computed on Accel.
// Undefined tensors are skipped.
void checkSameDevice(std::string_view op, std::initializer_list<const Tensor*> tensors,
                     std::initializer_list<const Tensor*> written = {});
// The message itself, for callers that collect devices on their own (the boxed fallback).
[[noreturn]] void throwMixedDevices(std::string_view op, Device other);
// True for a CPU tensor that may accompany Accel tensors (see checkSameDevice).
bool isCpuScalar(const Tensor& t);

}  // namespace sy::accel
