// Pairwise block sums over threads. See Note [Float sums add blocks pairwise].
#include "switchyard/backends/kernels/optimized/reduction_math.h"

#include <algorithm>

#include "switchyard/backends/kernels/optimized/reduction_loop.h"
#include "switchyard/backends/kernels/optimized/scratch.h"
#include "switchyard/backends/kernels/optimized/threads.h"

namespace sy::optimized {
namespace {

using detail::kSumBlock;

int64_t blockCount(int64_t n) { return (n + kSumBlock - 1) / kSumBlock; }

// The sum of blocks [lo, hi) of x (n elements in all), as a balanced tree over block indices.
float blockTree(BlockSumLoop loop, const float* x, int64_t n, int64_t lo, int64_t hi) {
  if (hi - lo == 1) return loop(x + lo * kSumBlock, std::min(kSumBlock, n - lo * kSumBlock));
  const int64_t mid = lo + (hi - lo) / 2;
  return blockTree(loop, x, n, lo, mid) + blockTree(loop, x, n, mid, hi);
}

struct BlockPartialSums {};  // scratchFloats' purpose

// The same tree over block sums already computed.
float partialTree(const float* partial, int64_t lo, int64_t hi) {
  if (hi - lo == 1) return partial[lo];
  const int64_t mid = lo + (hi - lo) / 2;
  return partialTree(partial, lo, mid) + partialTree(partial, mid, hi);
}

// One thread's sum: the tree walked directly.
float serialSum(BlockSumLoop loop, const float* x, int64_t n) {
  return n == 0 ? 0.0f : blockTree(loop, x, n, 0, blockCount(n));
}

BlockSumLoop activeBlockSum() {
  static const BlockSumLoop loop = blockSumLoop(activeInstructionSet());
  return loop;
}

}  // namespace

float sumFloatsWith(BlockSumLoop loop, const float* x, int64_t n) {
  if (n < 2 * kSumParallelGrain) return serialSum(loop, x, n);
  const int64_t blocks = blockCount(n);
  // See Note [A warm optimized kernel allocates nothing].
  float* partial = scratchFloats<BlockPartialSums>(static_cast<size_t>(blocks));
  parallelFor(blocks, kSumParallelGrain / kSumBlock, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) partial[b] = loop(x + b * kSumBlock, std::min(kSumBlock, n - b * kSumBlock));
  });
  return partialTree(partial, 0, blocks);
}

float sumFloats(const float* x, int64_t n) { return sumFloatsWith(activeBlockSum(), x, n); }

void sumRows(const float* in, float* out, int64_t rows, int64_t length, bool mean) {
  const float divisor = static_cast<float>(length);
  if (rows == 1) {
    const float sum = sumFloats(in, length);
    out[0] = mean ? sum / divisor : sum;
    return;
  }
  const BlockSumLoop loop = activeBlockSum();
  const int64_t grain = std::max<int64_t>(1, kSumParallelGrain / std::max<int64_t>(length, 1));  // rows
  parallelFor(rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float sum = serialSum(loop, in + r * length, length);
      out[r] = mean ? sum / divisor : sum;
    }
  });
}

}  // namespace sy::optimized
