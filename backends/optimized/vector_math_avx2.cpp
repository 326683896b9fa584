// The AVX2 loops (8 floats per register). This unit alone is compiled with -mavx2 -mfma, and its
// loops run only on CPUs with both. See Note [Instruction sets are chosen at run time].
#include "switchyard/backends/optimized/vector_math.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)

#include <immintrin.h>
#include <sleef.h>

#include "switchyard/backends/optimized/vector_loop.h"

namespace sy::optimized::detail {
namespace {

struct Avx2 {
  using Reg = __m256;
  static constexpr int64_t kWidth = 8;
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg splat(float v) { return _mm256_set1_ps(v); }
  static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm256_div_ps(a, b); }
  static Reg max(Reg a, Reg b) { return _mm256_max_ps(a, b); }
  static Reg negate(Reg v) { return _mm256_xor_ps(v, _mm256_set1_ps(-0.0f)); }
  SY_SLEEF_U10_FUNCTIONS(Reg, 8_u10avx2)
};

}  // namespace

LoopTables avx2Loops() { return loopTablesOf<Avx2>(); }

}  // namespace sy::optimized::detail

#else

namespace sy::optimized::detail {
LoopTables avx2Loops() { return {nullptr, nullptr, nullptr}; }
}  // namespace sy::optimized::detail

#endif
