#include "switchyard/backends/optimized/blas_gemm.h"

#include <cblas.h>

#include <algorithm>
#include <limits>

#include "switchyard/ivalue/error.h"

namespace sy::optimized {

std::optional<BlasMatrix> blasMatrix(const float* data, int64_t rows, int64_t cols, int64_t row_stride,
                                     int64_t col_stride) {
  // A dimension of size 1 is never stepped over, so its stride says nothing.
  if (cols == 1) col_stride = 1;
  if (rows == 1) row_stride = std::max<int64_t>(cols, 1);
  if (col_stride == 1 && row_stride >= std::max<int64_t>(cols, 1)) return BlasMatrix{data, false, row_stride};
  if (rows == 1) row_stride = 1;
  if (cols == 1) col_stride = std::max<int64_t>(rows, 1);
  if (row_stride == 1 && col_stride >= std::max<int64_t>(rows, 1)) return BlasMatrix{data, true, col_stride};
  return std::nullopt;
}

std::optional<BlasMatrix> blasMatrixOf(const Tensor& t) {
  return blasMatrix(t.data_ptr<float>(), t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
}

bool fitsBlasInt(std::initializer_list<int64_t> values) {
  constexpr int64_t kMax = std::numeric_limits<blasint>::max();
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v >= 0 && v <= kMax; });
}

void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const BlasMatrix& a, const BlasMatrix& b, float beta, float* c,
           int64_t ldc) {
  SY_CHECK(fitsBlasInt({M, N, K, a.ld, b.ld, ldc}), "sy::optimized::sgemm: a size (M ", M, ", N ", N, ", K ", K,
           ", leading dimensions ", a.ld, ", ", b.ld, ", ", ldc, ") does not fit OpenBLAS's ",
           sizeof(blasint) * 8, "-bit integers; the kernel should have handed the call to the portable kernel");
  if (M == 0 || N == 0) return;
  if (K == 0) {  // nothing to multiply: c = beta * c, where beta == 0 does not read c
    for (int64_t i = 0; i < M; ++i) {
      float* row = c + i * ldc;
      for (int64_t j = 0; j < N; ++j) row[j] = beta == 0.0f ? 0.0f : beta * row[j];
    }
    return;
  }
  cblas_sgemm(CblasRowMajor, a.transposed ? CblasTrans : CblasNoTrans, b.transposed ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(M), static_cast<blasint>(N), static_cast<blasint>(K), alpha, a.data,
              static_cast<blasint>(a.ld), b.data, static_cast<blasint>(b.ld), beta, c, static_cast<blasint>(ldc));
}

}  // namespace sy::optimized
