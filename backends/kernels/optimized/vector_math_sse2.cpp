// The SSE2 loops (4 floats per register), for x86-64 CPUs without AVX2 and FMA: built with the
// baseline flags, which always include SSE2. See Note [Instruction sets are chosen at run time].
#include "switchyard/backends/kernels/optimized/vector_math.h"

#if defined(__x86_64__) && defined(__SSE2__)

#include <emmintrin.h>
#include <sleef.h>

#include "switchyard/backends/kernels/optimized/vector_loop.h"

namespace sy::optimized::detail {
namespace {

struct Sse2 {
  using Reg = __m128;
  static constexpr int64_t kWidth = 4;
  static Reg load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm_storeu_ps(p, v); }
  static Reg splat(float v) { return _mm_set1_ps(v); }
  static Reg add(Reg a, Reg b) { return _mm_add_ps(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm_sub_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm_mul_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm_div_ps(a, b); }
  static Reg max(Reg a, Reg b) { return _mm_max_ps(a, b); }
  static Reg negate(Reg v) { return _mm_xor_ps(v, _mm_set1_ps(-0.0f)); }
  static Reg sigmoid(Reg v) { return sigmoidFromExp<Sse2>(v); }
  static Reg acos(Reg v) { return Sleef_acosf4_u10sse2(v); }
  SY_SLEEF_U10_FUNCTIONS(Reg, 4_u10sse2)
};

}  // namespace

LoopTables sse2Loops() { return loopTablesOf<Sse2>(); }

}  // namespace sy::optimized::detail

#else

namespace sy::optimized::detail {
LoopTables sse2Loops() { return {nullptr, nullptr, nullptr}; }
}  // namespace sy::optimized::detail

#endif
