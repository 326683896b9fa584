// The direct convolution's plan: the padded image, the packed filters and the tap offsets it
// reads, built here in portable code, and the AVX-512 or AVX2 unit's loop run over them on the
// optimized kernels' threads. See direct_convolution.h.
#include "switchyard/backends/kernels/optimized/direct_convolution.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "switchyard/backends/kernels/optimized/scratch.h"
#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"
#include "switchyard/core/error.h"

namespace sy::optimized {
namespace {

using direct_unit::kDirectBlock;
constexpr int64_t kFiltersPerBlock = direct_unit::kDirectFilters;

constexpr int64_t kImageBudget = int64_t{32} << 20;   // bytes of one padded image at most
constexpr int64_t kFlopsPerChunk = int64_t{3} << 20;  // about 30 microseconds of one thread

// The padded image's extents, flat sizes and the number of position blocks; `fits` is false when
// a tap's offset would not fit in int32_t or the padded image exceeds kImageBudget.
struct Extents {
  bool fits = false;
  int64_t padded_h = 0, padded_w = 0, plane = 0, out_h = 0, out_w = 0, positions = 0, blocks = 0, reach = 0;
  int64_t image_floats = 0;  // channels * plane plus the slack the last block reads
};

Extents extentsOf(const DirectGeometry& g) {
  Extents e;
  e.padded_h = g.height + 2 * g.pad_h;  // each term below 2^31: no overflow
  e.padded_w = g.width + 2 * g.pad_w;
  e.out_h = e.padded_h - g.dilation_h * (g.kernel_h - 1);
  e.out_w = e.padded_w - g.dilation_w * (g.kernel_w - 1);
  if (e.out_h < 1 || e.out_w < 1) return e;
  constexpr int64_t kOffsetLimit = std::numeric_limits<int32_t>::max() - kDirectBlock;
  if (e.padded_h > kOffsetLimit / e.padded_w) return e;
  e.plane = e.padded_h * e.padded_w;
  e.positions = e.out_h * e.padded_w;
  e.blocks = (e.positions + kDirectBlock - 1) / kDirectBlock;
  // The farthest tap; the last block reads up to its last position plus this.
  e.reach = (g.kernel_h - 1) * g.dilation_h * e.padded_w + (g.kernel_w - 1) * g.dilation_w;
  if (g.channels > kImageBudget / int64_t(sizeof(float)) / e.plane) return e;
  // blocks * kDirectBlock < plane + kDirectBlock and reach < plane: at most channels + 2 planes.
  e.image_floats = std::max(g.channels * e.plane, (g.channels - 1) * e.plane + e.blocks * kDirectBlock + e.reach);
  e.fits = true;
  return e;
}

struct PaddedImage {};
struct PackedFilters {};
struct TapOffsets {};

// The image with pad_h rows and pad_w columns of zeros around each channel, then zeros to
// image_floats; each Float is written once.
float* padImage(const DirectGeometry& g, const Extents& e, const float* input) {
  float* image = scratchFloats<PaddedImage>(size_t(e.image_floats));
  const int64_t border = g.pad_h * e.padded_w + g.pad_w;  // zeros before a channel's first Float
  float* dst = image;
  for (int64_t c = 0; c < g.channels; ++c) {
    // The top rows and the left border of the first row, then each row followed by its right
    // border and the next row's left border (the last row's: the bottom rows).
    std::fill(dst, dst + border, 0.0f);
    dst += border;
    for (int64_t h = 0; h < g.height; ++h, input += g.width) {
      std::memcpy(dst, input, size_t(g.width) * sizeof(float));
      dst += g.width;
      const int64_t gap = h + 1 < g.height ? 2 * g.pad_w : g.pad_w + g.pad_h * e.padded_w;
      std::fill(dst, dst + gap, 0.0f);
      dst += gap;
    }
  }
  std::fill(dst, image + e.image_floats, 0.0f);
  return image;
}

// weight (filters, channels, taps) as blocks of kFiltersPerBlock filters, each [channel][tap][filter]
// (the last block's filter count is what is left).
float* packFilters(const DirectGeometry& g, const float* weight) {
  const int64_t taps = g.kernel_h * g.kernel_w, depth = g.channels * taps;
  float* packed = scratchFloats<PackedFilters>(size_t(g.filters * depth));
  for (int64_t f0 = 0; f0 < g.filters; f0 += kFiltersPerBlock) {
    const int64_t n = std::min(kFiltersPerBlock, g.filters - f0);
    float* block = packed + f0 * depth;
    for (int64_t f = 0; f < n; ++f) {
      const float* src = weight + (f0 + f) * depth;
      for (int64_t k = 0; k < depth; ++k) block[k * n + f] = src[k];
    }
  }
  return packed;
}

direct_unit::DirectBlocks blocksOf(InstructionSet set) {
  switch (set) {
    case InstructionSet::Avx512:
      return direct_unit::directBlocksAvx512();
    case InstructionSet::Avx2:
      return direct_unit::directBlocksAvx2();
    default:
      return nullptr;
  }
}

}  // namespace

bool directAvailable(InstructionSet set) {
  // A set the CPU lacks has no loops in unaryLoop (vector_math.h); the build's units answer the rest.
  return unaryLoop(UnaryFunction::Exp, set) != nullptr && blocksOf(set) != nullptr;
}

bool directAvailable() {
  static const bool available = directAvailable(activeInstructionSet());
  return available;
}

bool directFits(const DirectGeometry& g) { return extentsOf(g).fits; }

bool directPays(const DirectGeometry& g) {
  const Extents e = extentsOf(g);
  // At most a quarter of the computed positions dropped: outputs >= 3/4 of blocks * kDirectBlock.
  return e.fits && e.out_h * e.out_w * 4 >= e.blocks * kDirectBlock * 3;
}

void directConvolution(const DirectGeometry& g, const float* input, const float* weight, const float* bias,
                       float* out) {
  directConvolution(g, input, weight, bias, out, activeInstructionSet());
}

void directConvolution(const DirectGeometry& g, const float* input, const float* weight, const float* bias, float* out,
                       InstructionSet set) {
  const direct_unit::DirectBlocks blocks = directAvailable(set) ? blocksOf(set) : nullptr;
  SY_CHECK(blocks != nullptr, "sy::optimized::directConvolution: this build or CPU has no ", instructionSetName(set),
           " loop; ask directAvailable(set) first");
  const Extents e = extentsOf(g);
  SY_CHECK(e.fits, "sy::optimized::directConvolution: the padded image does not fit its limits; ask directFits first");
  const int64_t taps = g.kernel_h * g.kernel_w;
  int32_t* offsets = scratchOf<TapOffsets, int32_t>(size_t(taps));
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
      offsets[kh * g.kernel_w + kw] = int32_t(kh * g.dilation_h * e.padded_w + kw * g.dilation_w);
    }
  }
  const direct_unit::DirectPlan plan{g.channels, g.filters, taps, e.plane, e.padded_w, e.out_h, e.out_w,
                                     e.positions, offsets, padImage(g, e, input), packFilters(g, weight), bias,
                                     out};
  const int64_t flops_per_block = 2 * kDirectBlock * g.filters * g.channels * taps;
  const int64_t grain = std::max<int64_t>(1, kFlopsPerChunk / std::max<int64_t>(1, flops_per_block));
  parallelFor(e.blocks, grain, [&](int64_t first, int64_t last) { blocks(plan, first, last); });
}

}  // namespace sy::optimized
