// Layouts inside the XNNPACK delegate: which values are channels-last, and the one transpose
// helper that moves data between NCHW and NHWC (at preprocess for constants, at execute for the
// delegate's inputs and outputs).
//
//   sy::xnnpack::transposeBatched(src, dst, /*batches=*/n, /*rows=*/c, /*cols=*/h * w);  // NCHW -> NHWC
//
// Note [Channels-last values inside an XNNPACK subgraph]
// XNNPACK's convolution and pooling read and write NHWC; our tensors, and so the delegate's
// arguments, are NCHW and contiguous. preprocess gives every 4-D value of the subgraph a layout:
// channels-last when it is made or read by a convolution or pooling node, or joined to one through
// element-wise nodes (relu, add, ...); logical (NCHW, the graph's own order) otherwise. The
// 2022-02 XNNPACK has no transpose node, so a layout can only change where data crosses the
// subgraph's edge: the delegate's inputs are transposed into NHWC staging buffers before the
// runtime runs and its channels-last outputs transposed back after, and constants are stored
// already transposed. Inside, a value can be re-read in the other layout only when its bytes are
// the same in both (one channel, or a 1x1 image, as after global average pooling), by a static
// reshape; anything else is refused by planNode (xnnpack_node_plan.h), so the partitioner never
// tags a group that would need a transpose in the middle.
#pragma once

#include <cstddef>

namespace sy::xnnpack {

enum class Layout : unsigned char { Logical, ChannelsLast };

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
