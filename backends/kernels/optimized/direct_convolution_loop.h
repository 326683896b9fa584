// The direct convolution's loop, for its per-instruction-set units only
// (direct_convolution_avx512.cpp, direct_convolution_avx2.cpp). Each unit describes its registers
// in one struct of its anonymous namespace and takes the loop:
//
//   struct Avx2 {
//     using Reg = __m256;
//     static constexpr int kLanes = 8;          // Floats per register
//     static constexpr int kAccumulators = 12;  // registers the loop may keep sums in
//     static constexpr int kFilterGroup = 4;    // filters whose sums it keeps at once
//     static Reg load(const float* p);  static void store(float* p, Reg v);
//     static Reg splat(float v);  static Reg fma(Reg a, Reg b, Reg c);  // a * b + c
//   };
//   DirectBlocks directBlocksAvx2() { return &directBlocksOf<Avx2>; }
//
// As vector_loop.h: everything here is in an anonymous namespace, so each unit compiles its own
// copy with its own flags, and nothing here calls an inline function of the standard library, so
// the linker can never take one unit's body for another's (See Note [Instruction sets are chosen at run time] in vector_math.h).
// See Note [The direct convolution runs on the padded image's flat positions] in
// direct_convolution.h for what the loop computes.
#pragma once

#include <cstdint>
#include <cstring>

#include "switchyard/backends/kernels/optimized/direct_convolution.h"

namespace sy::optimized::direct_unit {
namespace {  // each including unit compiles its own copy with its own instruction set

constexpr int kFiltersPerBlock = kDirectFilters;

// Filters [first, first + Filters) of a packed block of `block_filters` at positions
// [p, p + Vectors * lanes), into tile[filter * kDirectBlock + column + ...]: each sum starts from
// the bias, then adds every channel's taps in order.
template <class Isa, int Filters, int Vectors>
void registerBlock(const DirectPlan& plan, const float* packed, int64_t block_filters, int64_t first,
                   const float* bias, int64_t p, float* tile, int64_t column) {
  using Reg = typename Isa::Reg;
  Reg acc[Filters][Vectors];
#pragma GCC unroll 8
  for (int f = 0; f < Filters; ++f) {
    const Reg start = Isa::splat(bias != nullptr ? bias[first + f] : 0.0f);
#pragma GCC unroll 12
    for (int v = 0; v < Vectors; ++v) acc[f][v] = start;
  }
  const float* image = plan.image + p;
  const float* weights = packed + first;
  for (int64_t c = 0; c < plan.channels; ++c, image += plan.padded_plane) {
    for (int64_t t = 0; t < plan.taps; ++t, weights += block_filters) {
      const float* x = image + plan.offsets[t];
      Reg in[Vectors];
#pragma GCC unroll 12
      for (int v = 0; v < Vectors; ++v) in[v] = Isa::load(x + v * Isa::kLanes);
#pragma GCC unroll 8
      for (int f = 0; f < Filters; ++f) {
        const Reg w = Isa::splat(weights[f]);
#pragma GCC unroll 12
        for (int v = 0; v < Vectors; ++v) acc[f][v] = Isa::fma(w, in[v], acc[f][v]);
      }
    }
  }
#pragma GCC unroll 8
  for (int f = 0; f < Filters; ++f) {
#pragma GCC unroll 12
    for (int v = 0; v < Vectors; ++v) {
      Isa::store(tile + (first + f) * kDirectBlock + column + v * Isa::kLanes, acc[f][v]);
    }
  }
}

// The most registers of positions a group of `filters` keeps sums for: a divisor of the block's
// registers, within the unit's accumulators.
template <class Isa>
constexpr int vectorsFor(int filters) {
  constexpr int kBlockVectors = int(kDirectBlock) / Isa::kLanes;
  int best = 1;
  for (int v = 1; v <= kBlockVectors; ++v) {
    if (kBlockVectors % v == 0 && v * filters <= Isa::kAccumulators) best = v;
  }
  return best;
}

// The filters of a block in at most two groups of Isa::kFilterGroup (8 on AVX-512, 4 on AVX2),
// each over the block's positions in passes of as many registers as its sums may take.
template <class Isa, int Filters>
void filterBlock(const DirectPlan& plan, const float* packed, const float* bias, int64_t p, float* tile) {
  static_assert(kFiltersPerBlock <= 2 * Isa::kFilterGroup, "a block is at most two groups");
  constexpr int kGroup = Filters < Isa::kFilterGroup ? Filters : Isa::kFilterGroup;
  constexpr int kRest = Filters - kGroup;
  constexpr int64_t kPass = int64_t(vectorsFor<Isa>(kGroup)) * Isa::kLanes;
  for (int64_t column = 0; column < kDirectBlock; column += kPass) {
    registerBlock<Isa, kGroup, vectorsFor<Isa>(kGroup)>(plan, packed, Filters, 0, bias, p + column, tile, column);
  }
  if constexpr (kRest > 0) {
    constexpr int64_t kRestPass = int64_t(vectorsFor<Isa>(kRest)) * Isa::kLanes;
    for (int64_t column = 0; column < kDirectBlock; column += kRestPass) {
      registerBlock<Isa, kRest, vectorsFor<Isa>(kRest)>(plan, packed, Filters, kGroup, bias, p + column, tile,
                                                         column);
    }
  }
}

int64_t smallerOf(int64_t a, int64_t b) { return a < b ? a : b; }

// Copies the positions [p, p + kDirectBlock) of `filters` tile rows that are outputs (below
// plan.positions, column below out_w) to their places in plan.out.
void storeOutputs(const DirectPlan& plan, const float* tile, int64_t first_filter, int64_t filters, int64_t p) {
  const int64_t end = smallerOf(plan.positions, p + kDirectBlock);
  const int64_t plane = plan.out_h * plan.out_w;
  for (int64_t q = p; q < end;) {
    const int64_t row = q / plan.padded_width, column = q - row * plan.padded_width;
    const int64_t row_end = smallerOf(end, (row + 1) * plan.padded_width);
    if (column < plan.out_w) {
      const int64_t n = smallerOf(row_end, row * plan.padded_width + plan.out_w) - q;
      float* dst = plan.out + first_filter * plane + row * plan.out_w + column;
      for (int64_t f = 0; f < filters; ++f) {
        std::memcpy(dst + f * plane, tile + f * kDirectBlock + (q - p), size_t(n) * sizeof(float));
      }
    }
    q = row_end;
  }
}

// Position blocks [first, last) of every filter: each block's input stays in the L1 cache while
// every filter block passes over it.
template <class Isa>
void directBlocksOf(const DirectPlan& plan, int64_t first, int64_t last) {
  using FilterBlock = void (*)(const DirectPlan&, const float*, const float*, int64_t, float*);
  static constexpr FilterBlock kFilterBlocks[kFiltersPerBlock + 1] = {
      nullptr,
      filterBlock<Isa, 1>, filterBlock<Isa, 2>, filterBlock<Isa, 3>, filterBlock<Isa, 4>,
      filterBlock<Isa, 5>, filterBlock<Isa, 6>, filterBlock<Isa, 7>, filterBlock<Isa, 8>};
  alignas(64) float tile[kFiltersPerBlock * kDirectBlock];
  const int64_t block_stride = kFiltersPerBlock * plan.channels * plan.taps;
  for (int64_t b = first; b < last; ++b) {
    const int64_t p = b * kDirectBlock;
    for (int64_t f0 = 0; f0 < plan.filters; f0 += kFiltersPerBlock) {
      const int64_t filters = smallerOf(kFiltersPerBlock, plan.filters - f0);
      const float* bias = plan.bias != nullptr ? plan.bias + f0 : nullptr;
      kFilterBlocks[filters](plan, plan.filters_packed + (f0 / kFiltersPerBlock) * block_stride, bias, p, tile);
      storeOutputs(plan, tile, f0, filters, p);
    }
  }
}

}  // namespace
}  // namespace sy::optimized::direct_unit
