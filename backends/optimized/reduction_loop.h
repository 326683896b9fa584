// The summation loop every instruction set shares, for the per-instruction-set units only (included
// by vector_loop.h; the same rules apply: no inline functions of the standard library here). It sums
// one block of at most kSumBlock floats; reduction_math.cpp combines blocks into longer sums (see
// Note [Float sums add blocks pairwise]).
//
//   float s = blockSum<Avx2>(x, 1000);   // x[0] + ... + x[999], in 32 lanes then a lane tree
#pragma once

#include <cstdint>
#include <cstring>

namespace sy::optimized::detail {

// The longest run blockSum adds: its lanes (4 registers' worth) each add at most kSumBlock / lanes
// elements one after another.
inline constexpr int64_t kSumBlock = 1024;

// The sum of x[0..n) for n <= kSumBlock: four independent registers of lanes (so the adds do not
// wait on each other), a zero-padded partial register for the tail (adding 0 changes nothing; see
// Note [Vector tails go through the vector function]), then the registers and the lanes of the
// result are added pairwise. The order depends only on n and the register width.
template <class V>
float blockSum(const float* x, int64_t n) {
  constexpr int64_t kWidth = V::kWidth;
  using Reg = typename V::Reg;
  Reg a0 = V::splat(0.0f), a1 = V::splat(0.0f), a2 = V::splat(0.0f), a3 = V::splat(0.0f);
  int64_t i = 0;
  for (; i + 4 * kWidth <= n; i += 4 * kWidth) {
    a0 = V::add(a0, V::load(x + i));
    a1 = V::add(a1, V::load(x + i + kWidth));
    a2 = V::add(a2, V::load(x + i + 2 * kWidth));
    a3 = V::add(a3, V::load(x + i + 3 * kWidth));
  }
  if (i + kWidth <= n) a0 = V::add(a0, V::load(x + i)), i += kWidth;
  if (i + kWidth <= n) a1 = V::add(a1, V::load(x + i)), i += kWidth;
  if (i + kWidth <= n) a2 = V::add(a2, V::load(x + i)), i += kWidth;
  if (i < n) {
    float buffer[kWidth] = {};
    std::memcpy(buffer, x + i, static_cast<size_t>(n - i) * sizeof(float));
    a3 = V::add(a3, V::load(buffer));
  }
  float lanes[kWidth];
  V::store(lanes, V::add(V::add(a0, a1), V::add(a2, a3)));
  for (int64_t half = kWidth / 2; half >= 1; half /= 2) {
    for (int64_t l = 0; l < half; ++l) lanes[l] += lanes[l + half];
  }
  return lanes[0];
}

}  // namespace sy::optimized::detail
