// The AVX-512 loops (16 floats per register). This unit alone is compiled with -mavx512f
// -mavx512dq, and its loops run only on CPUs with both. See Note [Instruction sets are chosen at run
// time]. Its sigmoid and acos are the AVX2 unit's computations lane for lane, with AVX-512's masks
// where AVX2 blends, so each value's result is the same bits in both units: see Note [The AVX2
// sigmoid computes its own exp] and see Note [The AVX2 acos is computed in line].
#include "switchyard/backends/kernels/optimized/vector_math.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512DQ__)

#include <immintrin.h>
#include <sleef.h>

#include "switchyard/backends/kernels/optimized/vector_loop.h"

namespace sy::optimized::detail {
namespace {

__m512 fusedSigmoid(__m512 x) {
  __m512 t = _mm512_xor_ps(x, _mm512_set1_ps(-0.0f));
  t = _mm512_max_ps(_mm512_set1_ps(-86.0f), _mm512_min_ps(_mm512_set1_ps(89.0f), t));
  const __m512 q = _mm512_roundscale_ps(_mm512_mul_ps(t, _mm512_set1_ps(1.44269504f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(q, _mm512_set1_ps(0.693145752f), t);
  r = _mm512_fnmadd_ps(q, _mm512_set1_ps(1.42860677e-06f), r);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(1.0f / 5040), r, _mm512_set1_ps(1.0f / 720));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  const __m512i half_scale = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(q), _mm512_set1_epi32(126)), 23);
  const __m512 e = _mm512_mul_ps(_mm512_add_ps(p, p), _mm512_castsi512_ps(half_scale));
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_div_ps(one, _mm512_add_ps(one, e));
}

__m512 fusedAcos(__m512 x) {
  const __m512 sign_bit = _mm512_set1_ps(-0.0f);
  const __m512 half = _mm512_set1_ps(0.5f);
  const __m512 a = _mm512_andnot_ps(sign_bit, x);
  const __mmask16 small = _mm512_cmp_ps_mask(a, half, _CMP_LE_OQ);
  const __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512 z_large = _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(1.0f), a), half);
  const __m512 z = _mm512_mask_blend_ps(small, z_large, _mm512_mul_ps(a, a));
  const __m512 s = _mm512_mask_blend_ps(small, _mm512_sqrt_ps(z_large), a);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(3.380574330e-02f), z, _mm512_set1_ps(1.707786284e-02f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(3.111615555e-02f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(4.459803233e-02f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(7.500098762e-02f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(1.666666632e-01f));
  const __m512 asin_s = _mm512_fmadd_ps(_mm512_mul_ps(s, z), p, s);
  const __m512 x_sign = _mm512_and_ps(x, sign_bit);
  const __m512 t_small = _mm512_or_ps(asin_s, x_sign);
  const __m512 t_large = _mm512_xor_ps(_mm512_add_ps(asin_s, asin_s), _mm512_xor_ps(x_sign, sign_bit));
  const __m512 t = _mm512_mask_blend_ps(small, t_large, t_small);
  const __m512 pi_hi = _mm512_maskz_mov_ps(negative, _mm512_set1_ps(3.14159274f));
  const __m512 pi_lo = _mm512_maskz_mov_ps(negative, _mm512_set1_ps(-8.74227766e-08f));
  const __m512 hi = _mm512_mask_blend_ps(small, pi_hi, _mm512_set1_ps(1.57079637f));
  const __m512 lo = _mm512_mask_blend_ps(small, pi_lo, _mm512_set1_ps(-4.37113883e-08f));
  return _mm512_sub_ps(hi, _mm512_sub_ps(t, lo));
}

struct Avx512 {
  using Reg = __m512;
  static constexpr int64_t kWidth = 16;
  static Reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg splat(float v) { return _mm512_set1_ps(v); }
  static Reg add(Reg a, Reg b) { return _mm512_add_ps(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
  static Reg div(Reg a, Reg b) { return _mm512_div_ps(a, b); }
  static Reg max(Reg a, Reg b) { return _mm512_max_ps(a, b); }
  static Reg negate(Reg v) { return _mm512_xor_ps(v, _mm512_set1_ps(-0.0f)); }
  static Reg sigmoid(Reg v) { return fusedSigmoid(v); }
  static Reg acos(Reg v) { return fusedAcos(v); }
  SY_SLEEF_U10_FUNCTIONS(Reg, 16_u10avx512f)
};

}  // namespace

LoopTables avx512Loops() { return loopTablesOf<Avx512>(); }

}  // namespace sy::optimized::detail

#else

namespace sy::optimized::detail {
LoopTables avx512Loops() { return {nullptr, nullptr, nullptr}; }
}  // namespace sy::optimized::detail

#endif
