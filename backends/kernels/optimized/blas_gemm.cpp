#include "switchyard/backends/kernels/optimized/blas_gemm.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/core/error.h"

namespace sy::optimized {
namespace {

// The address of element (row, col) of m.
const float* elementOf(const BlasMatrix& m, int64_t row, int64_t col) {
  return m.data + (m.transposed ? col * m.ld + row : row * m.ld + col);
}

// c (M x N) = alpha * a @ b + beta * c in one cblas_sgemm call on the calling thread.
void blasProduct(int64_t M, int64_t N, int64_t K, float alpha, const float* a, bool a_transposed, int64_t lda,
                 const float* b, bool b_transposed, int64_t ldb, float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, a_transposed ? CblasTrans : CblasNoTrans, b_transposed ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(M), static_cast<blasint>(N), static_cast<blasint>(K), alpha, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta, c, static_cast<blasint>(ldc));
}

// c = alpha * a @ b + beta * c by dot products, for a product of at most kTinyProduct multiply-adds.
void tinyProduct(int64_t M, int64_t N, int64_t K, float alpha, const BlasMatrix& a, const BlasMatrix& b, float beta,
                 float* c, int64_t ldc) {
  // Element (i, k) of a is a.data[i * a_row + k * a_col]; (k, j) of b is b.data[k * b_row + j * b_col].
  const int64_t a_row = a.transposed ? 1 : a.ld, a_col = a.transposed ? a.ld : 1;
  const int64_t b_row = b.transposed ? 1 : b.ld, b_col = b.transposed ? b.ld : 1;
  for (int64_t i = 0; i < M; ++i) {
    float* row = c + i * ldc;
    const float* a_i = a.data + i * a_row;
    for (int64_t j = 0; j < N; ++j) {
      const float* b_j = b.data + j * b_col;
      float dot = 0.0f;
      for (int64_t k = 0; k < K; ++k) dot += a_i[k * a_col] * b_j[k * b_row];
      // beta == 0 does not read c, which may hold anything (NaN included), as BLAS.
      row[j] = beta == 0.0f ? alpha * dot : alpha * dot + beta * row[j];
    }
  }
}

// Note [OpenBLAS runs the kernels of the CPU it runs on]
// OpenBLAS as Debian builds it (DYNAMIC_ARCH) carries kernels for every x86 core and picks them, at
// load, for the CPU model it recognises. 0.3.21 (Debian 12's) does not know the CPUs that came
// after it (Sapphire Rapids, for one) and falls back to Prescott's SSE3 kernels: on such a machine
// every product, linear layer and convolution ran about 3x slower than the CPU allows (bench/README.md,
// "OpenBLAS's core"). So, at load, unless the user chose a core (OPENBLAS_CORETYPE), Switchyard
// replaces a fallback without AVX2 kernels by the newest core the CPU's instruction sets run:
// SkylakeX with AVX-512 (F, DQ, BW, VL), Haswell with AVX2 and FMA. It goes through OpenBLAS's
// own selection: OPENBLAS_CORETYPE set for the moment of gotoblas_dynamic_init (exported by
// DYNAMIC_ARCH builds, and weak here, so that a build without it keeps its choice). A CPU that
// OpenBLAS recognises keeps OpenBLAS's choice. This runs while the library loads, before any
// product; a process that calls BLAS from another library's static initialiser at the same time is
// not supported.
extern "C" {
__attribute__((weak)) void gotoblas_dynamic_init(void);
__attribute__((weak)) void gotoblas_dynamic_quit(void);
}

bool isFallbackWithoutAvx2(const std::string& core) {
  for (const char* old : {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem", "Atom", "Sandybridge", "Banias",
                          "Katmai", "Coppermine", "Northwood", "Athlon", "Opteron", "Opteron(SSE3)", "Barcelona",
                          "Bobcat", "Bulldozer", "Piledriver", "Steamroller", "Excavator"}) {
    if (core == old) return true;
  }
  return false;
}

bool chooseOpenBlasCore() {
#if defined(__x86_64__)
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr || gotoblas_dynamic_init == nullptr || gotoblas_dynamic_quit == nullptr) {
    return false;
  }
  const char* current = openblas_get_corename();
  if (current == nullptr || !isFallbackWithoutAvx2(current)) return false;
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!avx512 && !avx2) return false;
  setenv("OPENBLAS_CORETYPE", avx512 ? "SkylakeX" : "Haswell", 1);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
  unsetenv("OPENBLAS_CORETYPE");
  return true;
#else
  return false;  // OpenBLAS's other architectures are not second-guessed
#endif
}
[[maybe_unused]] const bool kOpenBlasCoreChosen = chooseOpenBlasCore();

// Sets OpenBLAS's process-wide thread count to one, once, before the first product (see Note
// [OpenBLAS runs on one thread; sgemm splits large products itself]).
void holdOpenBlasToOneThread() {
  static const bool held = [] {
    openblas_set_num_threads(1);
    return true;
  }();
  (void)held;
}

}  // namespace

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
  const IntArrayRef sizes = t.sizes(), strides = t.strides();
  SY_CHECK(sizes.size() >= 2, "sy::optimized::blasMatrixOf: a tensor of rank ", sizes.size(), " is not a matrix");
  const size_t rows = sizes.size() - 2, cols = sizes.size() - 1;
  return blasMatrix(t.data_ptr<float>(), sizes[rows], sizes[cols], strides[rows], strides[cols]);
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
  // See Note [A tiny product is a loop, not a BLAS call].
  if (static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) <= kTinyProduct) {
    tinyProduct(M, N, K, alpha, a, b, beta, c, ldc);
    return;
  }
  holdOpenBlasToOneThread();
  // The longer side of c in blocks of kGemmSplitBlock rows or columns, at least kGemmParallelGrain
  // multiply-adds of them per thread: a small product is one call on the calling thread.
  const bool by_columns = N >= M;
  const int64_t extent = by_columns ? N : M, other = by_columns ? M : N;
  const int64_t blocks = (extent + kGemmSplitBlock - 1) / kGemmSplitBlock;
  const double block_work = static_cast<double>(other) * static_cast<double>(K) * kGemmSplitBlock;
  const auto grain = static_cast<int64_t>(
      std::clamp(std::ceil(static_cast<double>(kGemmParallelGrain) / block_work), 1.0, static_cast<double>(blocks)));
  parallelFor(blocks, grain, [&](int64_t first, int64_t last) {
    const int64_t begin = first * kGemmSplitBlock, end = std::min(extent, last * kGemmSplitBlock);
    if (by_columns) {
      blasProduct(M, end - begin, K, alpha, a.data, a.transposed, a.ld, elementOf(b, 0, begin), b.transposed, b.ld,
                  beta, c + begin, ldc);
    } else {
      blasProduct(end - begin, N, K, alpha, elementOf(a, begin, 0), a.transposed, a.ld, b.data, b.transposed, b.ld,
                  beta, c + begin * ldc, ldc);
    }
  });
}

}  // namespace sy::optimized
