// Layouts inside the XNNPACK delegate: which values are channels-last, and the transpose helper
// preprocess stores constants with.
//
//   sy::xnnpack::transposeBatched(src, dst, /*batches=*/n, /*rows=*/c, /*cols=*/h * w);  // NCHW -> NHWC
//
// Note [Channels-last values inside an XNNPACK subgraph]
// XNNPACK's convolution and pooling read and write NHWC; our tensors, and so the delegate's
// arguments, are NCHW and contiguous. Every 4-D value a group makes has one layout inside the
// subgraph, chosen per group by LayoutPlan (xnnpack_layout_plan.h), the one pass the partitioner
// and preprocess both run: element-wise nodes (relu, add, ...) put their 4-D operands and result in
// one class; a class is channels-last when a convolution or pooling node reads or makes one of its
// values, or a relabelling permute (below) needs it so; logical (NCHW) otherwise. The 2022-02
// XNNPACK has no transpose node (a StaticTranspose runs on the host, between XNNPACK runtimes), so
// data changes layout only at the delegate's edge: a delegate input read channels-last goes
// through a StaticTranspose to NHWC first, a channels-last result through one back to NCHW, and
// constants are stored already transposed. Inside, a value is read in the other layout only where
// no byte moves:
// - a value whose bytes are the same in both layouts (one channel, or a 1x1 image, as after global
//   average pooling) is re-read through a static reshape;
// - permute(x, [0, 2, 3, 1]) of a channels-last x is x's own XNNPACK value, dims [N, H, W, C], read
//   as a logical tensor, and permute(y, [0, 3, 1, 2]) of a logical y is y's value read as
//   channels-last: the result aliases the value id, with no node. Of a delegate input, the first
//   is the edge transpose.
// A node that reads or makes a 4-D value in NCHW order (linear, addmm, softmax, view and reshape,
// an operand of lower rank broadcast against it, the logical side of those permutes) conflicts
// with a channels-last class. LayoutPlan names each such node and why; the partitioner leaves it
// out and groups again until no group has a conflict, so every group it tags is one preprocess
// serialises, and preprocess refuses a group with a conflict, naming the node. So a linear over a
// 4-D value no convolution touches is delegated, and a flatten of a convolution's output ends the
// group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sy::xnnpack {

enum class Layout : unsigned char { Logical, ChannelsLast };

// The dims of a 4-D NCHW shape's channels-last XNNPACK value: [N, H, W, C].
inline std::vector<int64_t> channelsLast(const std::vector<int64_t>& s) { return {s[0], s[2], s[3], s[1]}; }

// A shape of lower rank as the 4-D shape it broadcasts as (ones in front).
inline std::vector<int64_t> paddedTo4(std::vector<int64_t> s) {
  if (s.size() < 4) s.insert(s.begin(), 4 - s.size(), 1);
  return s;
}

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
