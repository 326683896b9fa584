// The AVX2 loops (8 floats per register). This unit alone is compiled with -mavx2 -mfma, and its
// loops run only on CPUs with both. See Note [Instruction sets are chosen at run time].
#include "switchyard/backends/kernels/optimized/vector_math.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)

#include <immintrin.h>
#include <sleef.h>

#include "switchyard/backends/kernels/optimized/vector_loop.h"

namespace sy::optimized::detail {
namespace {

// Note [The AVX2 sigmoid computes its own exp]
// 1 / (1 + exp(-x)) through Sleef_expf8_u10avx2 was 1.13x libtorch 1.13's sigmoid (bench/README.md,
// "Side by side with libtorch"). Here exp(t), t = -x, is computed in line, so the compiler
// interleaves the two vectors of each loop step, and with only what sigmoid needs:
//  - t is clamped to [-86, 89] first (min, then max, each of which returns its second operand on
//    NaN, so NaN goes through). Below -86, exp(t) < 2^-124 and 1 + exp(t) rounds to 1 as it does
//    unclamped; above 88.73 exp(t) overflows to inf either way, and sigmoid is 0 as in the portable
//    kernel.
//  - t = q ln2 + r with q = round(t / ln2), ln2 split in two for the reduction (|r| <= ln2 / 2);
//    exp(r) is its Taylor polynomial to degree 7, whose truncation error (r^8 / 8! < 5.5e-9) is under
//    0.1 ULP.
//  - 2^q is built in the exponent bits as 2^(q-1) times exp(r) + exp(r), which is exact, so that
//    q = 128 (t near 88.7, exp(t) near FLT_MAX) needs no exponent of 128; q >= -125 is never
//    subnormal.
// Checked against 1 / (1 + expf(-x)) over all 2^32 floats: at most 4 ULP apart (at x = -16.64,
// as SLEEF's was), within 2 ULP of the correctly rounded sigmoid, and NaN, infinities, zeros and
// the underflow to 0 exactly as the portable kernel (tests/backends/kernels/optimized/optimized_unary_test.cpp).
__m256 fusedSigmoid(__m256 x) {
  __m256 t = _mm256_xor_ps(x, _mm256_set1_ps(-0.0f));
  t = _mm256_max_ps(_mm256_set1_ps(-86.0f), _mm256_min_ps(_mm256_set1_ps(89.0f), t));
  const __m256 q =
      _mm256_round_ps(_mm256_mul_ps(t, _mm256_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(q, _mm256_set1_ps(0.693145752f), t);  // ln2's leading 16 bits, exact times q
  r = _mm256_fnmadd_ps(q, _mm256_set1_ps(1.42860677e-06f), r);      // the rest of ln2
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(1.0f / 5040), r, _mm256_set1_ps(1.0f / 720));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));  // exp(r)
  const __m256i half_scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(q), _mm256_set1_epi32(126)), 23);
  const __m256 e = _mm256_mul_ps(_mm256_add_ps(p, p), _mm256_castsi256_ps(half_scale));
  const __m256 one = _mm256_set1_ps(1.0f);
  return _mm256_div_ps(one, _mm256_add_ps(one, e));
}

// Note [The AVX2 acos is computed in line]
// Sleef_acosf8_u10avx2 carries pi/2 - asin(x) in two floats per value and was level with libtorch
// 1.13 (which calls it too). Here acos is computed from one asin polynomial, in Float:
//  - |x| <= 1/2: acos(x) = pi/2 - asin(x), asin(s) = s + s z P(z) with s = |x|, z = x^2;
//  - |x| > 1/2: acos(|x|) = 2 asin(s) with z = (1 - |x|) / 2 (exact), s = sqrt(z); for x < 0,
//    acos(x) = pi - 2 asin(s). |x| > 1 and NaN take this branch, where sqrt makes them NaN.
// P is a degree-5 least-squares fit of (asin(sqrt(z)) - sqrt(z)) / z^1.5 over z in [0, 1/4] (within
// 4e-9 of it, 0.01 ULP of asin), and pi/2 and pi are subtracted as a leading float and its
// remainder, so the result is rounded about once. Checked against glibc's acosf over every float
// in [-1, 1]: at most 1 ULP apart, +0 at 1 and NaN outside [-1, 1] as there
// (tests/backends/kernels/optimized/optimized_unary_test.cpp), where the contract allows 2.
__m256 fusedAcos(__m256 x) {
  const __m256 sign_bit = _mm256_set1_ps(-0.0f);
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256 a = _mm256_andnot_ps(sign_bit, x);
  const __m256 small = _mm256_cmp_ps(a, half, _CMP_LE_OQ);
  const __m256 negative = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
  const __m256 z_large = _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), a), half);
  const __m256 z = _mm256_blendv_ps(z_large, _mm256_mul_ps(a, a), small);
  const __m256 s = _mm256_blendv_ps(_mm256_sqrt_ps(z_large), a, small);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(3.380574330e-02f), z, _mm256_set1_ps(1.707786284e-02f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(3.111615555e-02f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(4.459803233e-02f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(7.500098762e-02f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.666666632e-01f));
  const __m256 asin_s = _mm256_fmadd_ps(_mm256_mul_ps(s, z), p, s);
  // acos(x) = hi - (t - lo): small: hi + lo = pi/2, t = asin(x) (asin(s) with x's sign); large:
  // hi + lo = pi for x < 0 and 0 for x > 0, t = 2 asin(s) with the sign opposite to x's.
  const __m256 x_sign = _mm256_and_ps(x, sign_bit);
  const __m256 t_small = _mm256_or_ps(asin_s, x_sign);
  const __m256 t_large = _mm256_xor_ps(_mm256_add_ps(asin_s, asin_s), _mm256_xor_ps(x_sign, sign_bit));
  const __m256 t = _mm256_blendv_ps(t_large, t_small, small);
  const __m256 pi_hi = _mm256_and_ps(negative, _mm256_set1_ps(3.14159274f));
  const __m256 pi_lo = _mm256_and_ps(negative, _mm256_set1_ps(-8.74227766e-08f));
  const __m256 hi = _mm256_blendv_ps(pi_hi, _mm256_set1_ps(1.57079637f), small);
  const __m256 lo = _mm256_blendv_ps(pi_lo, _mm256_set1_ps(-4.37113883e-08f), small);
  return _mm256_sub_ps(hi, _mm256_sub_ps(t, lo));
}

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
  static Reg sigmoid(Reg v) { return fusedSigmoid(v); }
  static Reg acos(Reg v) { return fusedAcos(v); }
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
