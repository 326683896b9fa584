// advanceOdometer: one step of a row-major walk over a strided index space, for loops that visit
// every element (or every row) of several tensors at once and move their offsets incrementally
// instead of recomputing them from the index.
//
//   SizesVector index(ndim, 0);
//   std::array<int64_t, 2> offsets{};
//   for (int64_t n = 0; n < numel; ++n) {
//     visit(offsets);
//     advanceOdometer(index.data(), sizes.data(), ndim - 1, offsets,
//                     [&](int64_t d, size_t k) { return strides[k][d]; });
//   }
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace sy {

// Moves `index` (over dimensions 0..last_dim of `sizes`, the last one fastest) to the next
// position and each offsets[k] by stride(d, k) to match: a dimension that rolls over goes back to
// 0 and carries into the one before it. Offsets are element counts or pointers, whichever the
// caller keeps. After the last position, index is all zeros and the offsets are back at the start.
template <size_t N, class Offset, class StrideFn>
inline void advanceOdometer(int64_t* index, const int64_t* sizes, int64_t last_dim, std::array<Offset, N>& offsets,
                            StrideFn&& stride) {
  for (int64_t d = last_dim; d >= 0; --d) {
    if (++index[d] < sizes[d]) {
      for (size_t k = 0; k < N; ++k) offsets[k] += stride(d, k);
      return;
    }
    index[d] = 0;
    for (size_t k = 0; k < N; ++k) offsets[k] -= stride(d, k) * (sizes[d] - 1);
  }
}

}  // namespace sy
