// The direct convolution's AVX-512 loop (See Note [The direct convolution runs on the padded
// image's flat positions] in direct_convolution.h). This unit alone is compiled with -mavx512f and
// runs only on CPUs that have it; it uses no standard library template, so no inline function of
// its can replace another unit's at link time (See Note [Instruction sets are chosen at run time]
// in vector_math.h).
#include <cstring>

#include "switchyard/backends/kernels/optimized/direct_convolution.h"

#if defined(__x86_64__) && defined(__AVX512F__)

#include <immintrin.h>

namespace sy::optimized::direct_unit {
namespace {

constexpr int kFiltersPerBlock = 8;
constexpr int kLanes = 16;

int64_t smaller(int64_t a, int64_t b) { return a < b ? a : b; }

// Filters [0, Filters) of one packed block at positions [p, p + Vectors * 16), into
// tile[filter * kDirectBlock + column + ...]: starts from the bias, then adds every channel's taps
// in order.
template <int Filters, int Vectors>
void registerBlock(const DirectPlan& plan, const float* packed, const float* bias, int64_t p, float* tile,
                   int64_t column) {
  __m512 acc[Filters][Vectors];
#pragma GCC unroll 8
  for (int f = 0; f < Filters; ++f) {
    const __m512 start = _mm512_set1_ps(bias != nullptr ? bias[f] : 0.0f);
#pragma GCC unroll 6
    for (int v = 0; v < Vectors; ++v) acc[f][v] = start;
  }
  const float* image = plan.image + p;
  for (int64_t c = 0; c < plan.channels; ++c, image += plan.padded_plane) {
    for (int64_t t = 0; t < plan.taps; ++t, packed += Filters) {
      const float* x = image + plan.offsets[t];
      __m512 in[Vectors];
#pragma GCC unroll 6
      for (int v = 0; v < Vectors; ++v) in[v] = _mm512_loadu_ps(x + v * kLanes);
#pragma GCC unroll 8
      for (int f = 0; f < Filters; ++f) {
        const __m512 w = _mm512_set1_ps(packed[f]);
#pragma GCC unroll 6
        for (int v = 0; v < Vectors; ++v) acc[f][v] = _mm512_fmadd_ps(w, in[v], acc[f][v]);
      }
    }
  }
#pragma GCC unroll 8
  for (int f = 0; f < Filters; ++f) {
#pragma GCC unroll 6
    for (int v = 0; v < Vectors; ++v) _mm512_storeu_ps(tile + f * kDirectBlock + column + v * kLanes, acc[f][v]);
  }
}

// One filter block of `filters` (1 to 8) at the kDirectBlock positions from p: eight to five
// filters in two passes of 48 positions, four or fewer in one of 96 (24 registers either way).
template <int Filters>
void filterBlock(const DirectPlan& plan, const float* packed, const float* bias, int64_t p, float* tile) {
  if constexpr (Filters > 4) {
    registerBlock<Filters, 3>(plan, packed, bias, p, tile, 0);
    registerBlock<Filters, 3>(plan, packed, bias, p + 48, tile, 48);
  } else {
    registerBlock<Filters, 6>(plan, packed, bias, p, tile, 0);
  }
}

using FilterBlock = void (*)(const DirectPlan&, const float*, const float*, int64_t, float*);
constexpr FilterBlock kFilterBlocks[kFiltersPerBlock + 1] = {
    nullptr,         filterBlock<1>, filterBlock<2>, filterBlock<3>, filterBlock<4>,
    filterBlock<5>, filterBlock<6>, filterBlock<7>, filterBlock<8>};

// Copies the positions [p, p + kDirectBlock) of `filters` tile rows that are outputs (below
// plan.positions, column below out_w) to their places in plan.out.
void storeOutputs(const DirectPlan& plan, const float* tile, int64_t first_filter, int64_t filters, int64_t p) {
  const int64_t end = smaller(plan.positions, p + kDirectBlock);
  const int64_t plane = plan.out_h * plan.out_w;
  for (int64_t q = p; q < end;) {
    const int64_t row = q / plan.padded_width, column = q - row * plan.padded_width;
    const int64_t row_end = smaller(end, (row + 1) * plan.padded_width);
    if (column < plan.out_w) {
      const int64_t n = smaller(row_end, row * plan.padded_width + plan.out_w) - q;
      float* dst = plan.out + first_filter * plane + row * plan.out_w + column;
      for (int64_t f = 0; f < filters; ++f) {
        std::memcpy(dst + f * plane, tile + f * kDirectBlock + (q - p), size_t(n) * sizeof(float));
      }
    }
    q = row_end;
  }
}

void directBlocks(const DirectPlan& plan, int64_t first, int64_t last) {
  alignas(64) float tile[kFiltersPerBlock * kDirectBlock];
  const int64_t block_stride = kFiltersPerBlock * plan.channels * plan.taps;
  for (int64_t b = first; b < last; ++b) {
    const int64_t p = b * kDirectBlock;
    for (int64_t f0 = 0; f0 < plan.filters; f0 += kFiltersPerBlock) {
      const int64_t filters = smaller(kFiltersPerBlock, plan.filters - f0);
      const float* bias = plan.bias != nullptr ? plan.bias + f0 : nullptr;
      kFilterBlocks[filters](plan, plan.filters_packed + (f0 / kFiltersPerBlock) * block_stride, bias, p, tile);
      storeOutputs(plan, tile, f0, filters, p);
    }
  }
}

}  // namespace

DirectBlocks directBlocksAvx512() { return &directBlocks; }

}  // namespace sy::optimized::direct_unit

#else

namespace sy::optimized::direct_unit {
DirectBlocks directBlocksAvx512() { return nullptr; }
}  // namespace sy::optimized::direct_unit

#endif
