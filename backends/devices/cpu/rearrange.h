// The machinery of the CPU kernels that move elements without computing on them (flip, roll,
// repeat, tril, constant_pad_nd): each output element is either one element of `self`, found by
// its index, or a fill value. The kernels only say where an element comes from; the loop moves
// bytes by element size, so every dtype is served by one instantiation per width.
//
//   writeElementsFrom(out, self, &zero, [&](const int64_t* index, int64_t* offset) {
//     *offset = ...;       // self's element for out[index], in elements from self's data pointer
//     return true;         // false: out[index] gets the fill value's bytes instead
//   });
#pragma once

#include <cstdint>
#include <cstring>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {

namespace detail {
[[noreturn]] void throwUnsupportedElementWidth(size_t element_size);
}  // namespace detail

// The 16 bytes of a ComplexDouble element, moved as they are.
struct SixteenBytes {
  uint64_t words[2];
};

// Calls fn(W{}) with W a trivially copyable type of `element_size` bytes (an unsigned integer up to
// 8, SixteenBytes for 16): one instantiation per width moves the elements of every dtype.
template <class Fn>
void visitElementWidth(size_t element_size, Fn&& fn) {
  switch (element_size) {
    case 1: return fn(uint8_t{});
    case 2: return fn(uint16_t{});
    case 4: return fn(uint32_t{});
    case 8: return fn(uint64_t{});
    case 16: return fn(SixteenBytes{});
    default: detail::throwUnsupportedElementWidth(element_size);
  }
}

// Writes every element of `out` (any strides) in row-major order of its index: self's element at
// the offset `source_of(index, &offset)` gives when it returns true, else the `fill` bytes (one
// element of out's dtype). `self` has out's dtype and shares no memory with it.
template <class SourceOf>
void writeElementsFrom(const Tensor& out, const Tensor& self, const void* fill, SourceOf&& source_of) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  visitElementWidth(out.element_size(), [&](auto width) {
    using W = decltype(width);
    const int64_t ndim = out.dim();
    SizesVector index(static_cast<size_t>(ndim), 0);
    char* out_base = static_cast<char*>(out.data_ptr());
    const char* self_base = self.numel() != 0 ? static_cast<const char*>(self.data_ptr()) : nullptr;
    int64_t out_offset = 0;
    for (int64_t n = 0; n < numel; ++n) {
      int64_t source = 0;
      const void* from = source_of(index.data(), &source) ? self_base + source * static_cast<int64_t>(sizeof(W)) : fill;
      std::memcpy(out_base + out_offset * static_cast<int64_t>(sizeof(W)), from, sizeof(W));
      for (int64_t d = ndim - 1; d >= 0; --d) {
        out_offset += out.stride(d);
        if (++index[d] < out.size(d)) break;
        out_offset -= index[d] * out.stride(d);
        index[d] = 0;
      }
    }
  });
}

// `self`, or a contiguous copy of it when it shares memory with `out`: what a kernel that writes
// out element by element reads, so that an out that is (or overlaps) self gets self's values from
// before the call. Made before out is resized.
Tensor readableInputOf(const char* op, const Tensor& self, const Tensor& out);

// Prepares the result of a rearranging kernel of `self` with shape `sizes` and self's dtype, by
// the kernel's form: allocates it (functional), checks and resizes the caller's out (out=), or
// checks that self keeps its shape (in-place). Raises naming `ctx.op`.
Tensor& rearrangedOutput(const KernelContext& ctx, const Tensor& self, IntArrayRef sizes, Tensor& out);

}  // namespace sy::cpu
