// Single-precision matrix products through OpenBLAS for the optimized kernels (blas_ops.cpp,
// convolution_ops.cpp): how BLAS reads a matrix operand, and C = alpha * A @ B + beta * C.
//
//   std::optional<BlasMatrix> a = blasMatrixOf(self), b = blasMatrixOf(mat2);  // last two dims
//   if (!a || !b || !fitsBlasInt({M, N, K, a->ld, b->ld})) return /* hand the call on */;
//   sgemm(M, N, K, 1.0f, *a, *b, 0.0f, out.data_ptr<float>(), N);
//
// Note [BLAS sizes are checked, never narrowed]
// Tensors count in int64_t; OpenBLAS as Debian builds it takes `int` (blasint) for every size and
// leading dimension. A kernel asks fitsBlasInt about every value it will pass before it writes
// anything, and hands the call on to the portable kernel (which counts in int64_t) when one does
// not fit; sgemm() itself refuses such a value with an error rather than letting it wrap.
//
// Note [OpenBLAS runs on one thread; sgemm splits large products itself]
// OpenBLAS 0.3.21 (Debian 12's) gives a product one of its threads per 4 * 65536 multiply-adds,
// however thin the product, and its only control is a process-wide count that one caller cannot
// lower around its own call without racing the others. Its idle threads also keep polling
// for work after a call, on the cores the pool's threads want: the issue-16 CNN, whose convolutions
// are products of 16 x 4096 x 27 and 32 x 1024 x 144, ran slower at two threads than at one
// (bench/README.md). So the first sgemm sets OpenBLAS's count to one for the process, and sgemm
// splits a product on the pool like every other kernel (threads.h): the longer side of c in blocks
// of kGemmSplitBlock rows or columns, each chunk one cblas_sgemm call. A product below
// kGemmParallelGrain multiply-adds per thread (about 25 microseconds of one core, the time scale of
// kParallelGrain) is one call on the calling thread, identical at any thread count. A split
// product agrees with its one-thread value within Float rounding only: OpenBLAS rounds a column
// differently depending on where in a call it falls (as its own threads did). The count is
// process-wide: a program that raises it again gets OpenBLAS's threads inside each chunk.
//
// Note [A tiny product is a loop, not a BLAS call]
// A cblas_sgemm call costs about 700 instructions before its first multiply-add (argument checks,
// OpenBLAS's buffer pool and its lock, packing both operands), more than the whole product of the
// [1, 2] x [2, 10] matrices a small model's layers multiply: the xor training step's five products
// took 12,400 of its 53,400 instructions. A product of at most kTinyProduct multiply-adds is three
// loops on the calling thread instead, each element a dot product in Float, added in order of k
// (OpenBLAS adds in blocks, so the two agree within Float rounding, as two BLAS builds do).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>

#include "switchyard/ivalue/tensor.h"

namespace sy::optimized {

// A rows x cols Float matrix as row-major BLAS reads it: element (i, j) is data[i * ld + j], or,
// when `transposed`, data[j * ld + i].
struct BlasMatrix {
  const float* data = nullptr;
  bool transposed = false;
  int64_t ld = 1;
};

// The matrix at `data` whose element (i, j) is data[i * row_stride + j * col_stride], when one of
// its dimensions is dense (stride 1, or size 1) and the other steps over whole rows or columns;
// nullopt otherwise (an expanded or doubly strided operand, which the caller copies or hands on).
std::optional<BlasMatrix> blasMatrix(const float* data, int64_t rows, int64_t cols, int64_t row_stride,
                                     int64_t col_stride);

// blasMatrix over the last two dimensions of a Float tensor of rank >= 2 (its first matrix, for a batch).
std::optional<BlasMatrix> blasMatrixOf(const Tensor& t);

// Whether every value fits BLAS's integer type. See Note [BLAS sizes are checked, never narrowed].
bool fitsBlasInt(std::initializer_list<int64_t> values);

// Multiply-adds per thread below which a product is not split, and the rows or columns of c each
// chunk but the last has a multiple of (see Note [OpenBLAS runs on one thread; sgemm splits large
// products itself]).
inline constexpr int64_t kGemmParallelGrain = int64_t{1} << 20;
inline constexpr int64_t kGemmSplitBlock = 64;
// Multiply-adds up to which a product is a loop (See Note [A tiny product is a loop, not a BLAS call]).
inline constexpr int64_t kTinyProduct = 512;

// c (M x N, row-major, leading dimension ldc) = alpha * a @ b + beta * c, with a M x K and b K x N.
// beta == 0 overwrites c without reading it. Raises when a size does not fit BLAS's integer type.
// A large product runs on the thread pool (see Note [OpenBLAS runs on one thread; sgemm splits
// large products itself]).
void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const BlasMatrix& a, const BlasMatrix& b, float beta, float* c,
           int64_t ldc);

}  // namespace sy::optimized
