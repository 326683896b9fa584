// Float sums for the optimized sum and mean (reduction_ops.cpp): whole arrays and runs of
// consecutive rows, vectorised with the active instruction set's block sum (vector_math.h) and
// split over the optimized kernels' threads when large.
//
//   float total = sy::optimized::sumFloats(x, n);                  // x[0] + ... + x[n-1]
//   sy::optimized::sumRows(x, out, rows, length, /*mean=*/true);    // out[r] = mean of row r
//
// Note [Float sums add blocks pairwise]
// The portable kernels add Float in Double, which makes a Float sum correctly rounded in practice
// but halves the vector width and converts every element. These sums stay in Float, as PyTorch's
// vectorised CPU sum does, and keep the error small by their order instead: an array is cut into
// blocks of kSumBlock (4096) floats; a block is added in 8 registers of lanes (64 lanes with AVX2,
// 32 with SSE2, 8 with the scalar loops), each lane adding at most kSumBlock / lanes elements in a
// row, then the registers and lanes pairwise (reduction_loop.h); the blocks are added pairwise as a
// balanced tree over block indices. The rounding error is then at most about
// (kSumBlock / lanes + log2(lanes) + log2(blocks)) * 2^-24 * sum(|x|): 4.2e-6 * sum(|x|) for a
// block with AVX2, 4.6e-6 * sum(|x|) for 1M floats, where one running Float total could be off by
// n * 2^-24 = 6% of it. Without cancellation that is within the conformance harness's relative
// Float tolerance (1e-5); sums that cancel are compared with an absolute tolerance scaled to the
// inputs (tests/backends/kernels/optimized/optimized_reduction_test.cpp).
// The order depends only on n and the instruction set, never on the thread count: threads compute
// whole blocks, and the tree over their results is the same tree a single thread walks, so one
// thread and many give bitwise identical sums. The instruction set is fixed for the process
// (see Note [Instruction sets are chosen at run time]); a machine without AVX2 rounds differently.
#pragma once

#include <cstdint>

#include "switchyard/backends/kernels/optimized/vector_math.h"

namespace sy::optimized {

// Elements of a sum below which it is not split over threads: about 30 microseconds of adding on
// one core (a sum is 20-50 times cheaper per element than acos; see Note [Only large operators use
// the thread pool]).
inline constexpr int64_t kSumParallelGrain = 1 << 18;

// x[0] + ... + x[n-1] (0 when n is 0) with the active instruction set's loop.
float sumFloats(const float* x, int64_t n);
// The same with a given block sum loop (tests use it to check each instruction set).
float sumFloatsWith(BlockSumLoop loop, const float* x, int64_t n);

// out[r] = the sum of in[r * length .. (r + 1) * length), divided by `length` when `mean` (0 / 0
// is NaN, as PyTorch's empty mean). Each row is summed as sumFloats sums it.
void sumRows(const float* in, float* out, int64_t rows, int64_t length, bool mean);

}  // namespace sy::optimized
