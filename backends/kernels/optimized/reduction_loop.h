// The summation loop every instruction set shares, for the per-instruction-set units only (included
// by vector_loop.h; the same rules apply: no inline functions of the standard library here). It sums
// one block of at most kSumBlock floats; reduction_math.cpp combines blocks into longer sums (see
// Note [Float sums add blocks pairwise]).
//
//   float s = blockSum<Avx2>(x, 1000);   // x[0] + ... + x[999], in 64 lanes then a lane tree
#pragma once

#include <cstdint>
#include <cstring>

namespace sy::optimized::detail {

// The longest run blockSum adds: its lanes (kSumRegisters registers' worth) each add at most
// kSumBlock / lanes elements one after another.
// 4096 rather than 1024: the block's setup and lane tree cost as much as 10% of a 1024-float block.
inline constexpr int64_t kSumBlock = 4096;
// Independent accumulators: a vector add takes 4 cycles and two can start per cycle, so eight
// chains keep the adder busy (four ran 25% slower than libtorch's sum on 1M floats).
inline constexpr int kSumRegisters = 8;

// The sum of x[0..n) for n <= kSumBlock: kSumRegisters independent registers of lanes (so the adds
// do not wait on each other), the tail's whole vectors and a zero-padded partial register in one
// more (adding 0 changes nothing; see Note [Vector tails go through the vector function]), then
// the registers pairwise and the lanes pairwise (lane l and l + width/2, then l and l + width/4,
// ...). The order depends only on n and the register width.
template <class V>
float blockSum(const float* x, int64_t n) {
  constexpr int64_t kWidth = V::kWidth;
  using Reg = typename V::Reg;
  Reg acc[kSumRegisters];
  for (int r = 0; r < kSumRegisters; ++r) acc[r] = V::splat(0.0f);
  int64_t i = 0;
  for (; i + kSumRegisters * kWidth <= n; i += kSumRegisters * kWidth) {
    // 4 KiB ahead: the adds outrun the hardware prefetcher from L3. The address is formed as an
    // integer, since near the end it lies past the array, where no pointer may point.
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(x + i) + 4096));
    for (int r = 0; r < kSumRegisters; ++r) acc[r] = V::add(acc[r], V::load(x + i + r * kWidth));
  }
  // The tail in a chain of its own (indexing the registers by a run-time count would put them in
  // memory).
  Reg tail = V::splat(0.0f);
  for (; i + kWidth <= n; i += kWidth) tail = V::add(tail, V::load(x + i));
  if (i < n) {
    float buffer[kWidth] = {};
    std::memcpy(buffer, x + i, static_cast<size_t>(n - i) * sizeof(float));
    tail = V::add(tail, V::load(buffer));
  }
  acc[kSumRegisters - 1] = V::add(acc[kSumRegisters - 1], tail);
  for (int half = kSumRegisters / 2; half >= 1; half /= 2) {
    for (int r = 0; r < half; ++r) acc[r] = V::add(acc[r], acc[r + half]);
  }
  float lanes[kWidth];
  V::store(lanes, acc[0]);
  for (int64_t half = kWidth / 2; half >= 1; half /= 2) {
    for (int64_t l = 0; l < half; ++l) lanes[l] += lanes[l + half];
  }
  return lanes[0];
}

}  // namespace sy::optimized::detail
