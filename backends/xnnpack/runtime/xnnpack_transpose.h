// The one transpose helper of the XNNPACK delegate: moves data between NCHW and NHWC (at
// preprocess for constants, at execute for the delegate's inputs and outputs).
//
//   sy::xnnpack::transposeBatched(src, dst, /*batches=*/n, /*rows=*/c, /*cols=*/h * w);  // NCHW -> NHWC
#pragma once

#include <cstddef>

namespace sy::xnnpack {

// dst[b][c][r] = src[b][r][c] for `batches` row-major rows x cols matrices: NCHW -> NHWC with
// rows = C and cols = H * W, NHWC -> NCHW with rows = H * W and cols = C, OIHW -> OHWI likewise.
template <class T>
void transposeBatched(const T* src, T* dst, size_t batches, size_t rows, size_t cols) {
  for (size_t b = 0; b < batches; ++b) {
    const T* s = src + b * rows * cols;
    T* d = dst + b * rows * cols;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < cols; ++c) d[c * rows + r] = s[r * cols + c];
    }
  }
}

}  // namespace sy::xnnpack
