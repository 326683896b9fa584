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

// c (M x N, row-major, leading dimension ldc) = alpha * a @ b + beta * c, with a M x K and b K x N.
// beta == 0 overwrites c without reading it. Raises when a size does not fit BLAS's integer type.
void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const BlasMatrix& a, const BlasMatrix& b, float beta, float* c,
           int64_t ldc);

}  // namespace sy::optimized
