// The loops every instruction set shares, for the per-instruction-set units only
// (vector_math_scalar.cpp, vector_math_sse2.cpp, vector_math_avx2.cpp). Each unit describes its
// register type and SLEEF's functions for it in one struct and takes the table of loops:
//
//   struct Avx2 {
//     using Reg = __m256;
//     static constexpr int64_t kWidth = 8;
//     static Reg load(const float* p);  static void store(float* p, Reg v);
//     static Reg splat(float v);  static Reg add(Reg a, Reg b);  static Reg div(Reg a, Reg b);
//     static Reg sub(Reg a, Reg b);  static Reg mul(Reg a, Reg b);  static Reg max(Reg a, Reg b);
//     static Reg negate(Reg v);  static Reg sigmoid(Reg v);  // e.g. sigmoidFromExp<Avx2>(v)
//     static Reg acos(Reg v);  // e.g. Sleef_acosf4_u10sse2(v)
//     SY_SLEEF_U10_FUNCTIONS(Reg, 8_u10avx2)  // exp, log, ... as Sleef_expf8_u10avx2, ...
//   };
//   LoopTables avx2Loops() { return loopTablesOf<Avx2>(); }
//
// The struct must be a type of the unit's anonymous namespace, so that each unit's instantiations
// are its own symbols, compiled with its own flags, and the linker can never pick an AVX2 body for
// the SSE2 table. For the same reason nothing here calls an inline function of the standard
// library (std::max, std::log, ...), whose one out-of-line copy could come from the AVX2 unit.
// See Note [Instruction sets are chosen at run time].
#pragma once

#include <cstdint>
#include <cstring>

#include "switchyard/backends/kernels/optimized/reduction_loop.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"

// SLEEF's 1.0-ULP functions for one register type, as static members exp, log, sin, cos and tanh
// (each unit adds its own acos and sigmoid): `suffix` completes SLEEF's names (Sleef_expf<suffix>),
// e.g. 8_u10avx2, 4_u10sse2, _u10.
#define SY_SLEEF_U10_FUNCTIONS(Reg, suffix)                         \
  static Reg exp(Reg v) { return Sleef_expf##suffix(v); }           \
  static Reg log(Reg v) { return Sleef_logf##suffix(v); }           \
  static Reg sin(Reg v) { return Sleef_sinf##suffix(v); }           \
  static Reg cos(Reg v) { return Sleef_cosf##suffix(v); }           \
  static Reg tanh(Reg v) { return Sleef_tanhf##suffix(v); }         \
  static float logOf(float v) { return Sleef_logf_u10(v); }

namespace sy::optimized::detail {

// Note [Vector tails go through the vector function]
// An array whose length is not a multiple of the vector width ends in a partial vector. Its
// elements are copied into a zero-padded register-sized buffer, computed by the same vector
// function and copied back, instead of going to a scalar function: SLEEF's scalar and vector
// functions may round differently, and a value's result should not depend on where in the array
// it sits. The padding lanes compute f(0), which is finite for every function here and never
// written out. Two vectors are loaded before either is stored, so out == in (in place) reads each
// element before overwriting it.
template <class V, class F>
void unaryVectorLoop(const float* in, float* out, int64_t n) {
  constexpr int64_t kWidth = V::kWidth;
  int64_t i = 0;
  for (; i + 2 * kWidth <= n; i += 2 * kWidth) {
    const typename V::Reg a = V::load(in + i);
    const typename V::Reg b = V::load(in + i + kWidth);
    V::store(out + i, F::apply(a));
    V::store(out + i + kWidth, F::apply(b));
  }
  for (; i + kWidth <= n; i += kWidth) V::store(out + i, F::apply(V::load(in + i)));
  if (i < n) {
    const size_t tail_bytes = static_cast<size_t>(n - i) * sizeof(float);
    float buffer[kWidth] = {};
    std::memcpy(buffer, in + i, tail_bytes);
    V::store(buffer, F::apply(V::load(buffer)));
    std::memcpy(out + i, buffer, tail_bytes);
  }
}

// 1 / (1 + exp(-x)) with the unit's exp, the portable kernel's formula: 0 at -inf, 1 at +inf, NaN
// stays NaN. The scalar and SSE2 units' sigmoid; the AVX2 unit has its own (see Note [The AVX2
// sigmoid computes its own exp]).
template <class V>
typename V::Reg sigmoidFromExp(typename V::Reg x) {
  const typename V::Reg one = V::splat(1.0f);
  return V::div(one, V::add(one, V::exp(V::negate(x))));
}

template <class V>
struct UnaryFunctionsOf {
  using Reg = typename V::Reg;
  struct Exp {
    static Reg apply(Reg x) { return V::exp(x); }
  };
  struct Log {
    static Reg apply(Reg x) { return V::log(x); }
  };
  struct Sin {
    static Reg apply(Reg x) { return V::sin(x); }
  };
  struct Cos {
    static Reg apply(Reg x) { return V::cos(x); }
  };
  struct Tanh {
    static Reg apply(Reg x) { return V::tanh(x); }
  };
  // Each unit's V::sigmoid: sigmoidFromExp below, or the AVX2 unit's fused one.
  struct Sigmoid {
    static Reg apply(Reg x) { return V::sigmoid(x); }
  };
  struct Acos {
    static Reg apply(Reg x) { return V::acos(x); }
  };
};

// ---- Rows: softmax and log_softmax ---------------------------------------------------------------

// The largest element of x[0..n), in vector lanes; a NaN may be skipped (the sum that follows
// turns NaN anyway, which is what makes the row NaN).
template <class V>
float rowMax(const float* x, int64_t n) {
  constexpr int64_t kWidth = V::kWidth;
  const float minus_inf = -__builtin_inff();
  typename V::Reg acc = V::splat(minus_inf);
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) acc = V::max(acc, V::load(x + i));
  float lanes[kWidth];
  V::store(lanes, acc);
  float result = minus_inf;
  for (int64_t l = 0; l < kWidth; ++l) result = lanes[l] > result ? lanes[l] : result;
  for (; i < n; ++i) result = x[i] > result || x[i] != x[i] ? x[i] : result;
  return result;
}

// The sum of exp(x[i] - shift) over x[0..n), also written to y when y is not null. The tail is
// padded with -inf, whose exp(-inf - shift) adds 0 (see Note [Vector tails go through the vector
// function]).
template <class V>
float expShiftedSum(const float* x, float* y, int64_t n, float shift) {
  constexpr int64_t kWidth = V::kWidth;
  const typename V::Reg shift_v = V::splat(shift);
  typename V::Reg acc = V::splat(0.0f);
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    const typename V::Reg e = V::exp(V::sub(V::load(x + i), shift_v));
    if (y != nullptr) V::store(y + i, e);
    acc = V::add(acc, e);
  }
  if (i < n) {
    const size_t tail_bytes = static_cast<size_t>(n - i) * sizeof(float);
    float buffer[kWidth];
    for (int64_t l = 0; l < kWidth; ++l) buffer[l] = -__builtin_inff();
    std::memcpy(buffer, x + i, tail_bytes);
    const typename V::Reg e = V::exp(V::sub(V::load(buffer), shift_v));
    V::store(buffer, e);
    if (y != nullptr) std::memcpy(y + i, buffer, tail_bytes);
    acc = V::add(acc, V::load(buffer));
  }
  float lanes[kWidth];
  V::store(lanes, acc);
  float sum = 0.0f;
  for (int64_t l = 0; l < kWidth; ++l) sum += lanes[l];
  return sum;
}

// y[i] = a(x[i]) for the affine a(v) = (v + add) * scale, vector by vector with the same tail rule.
template <class V>
void affine(const float* x, float* y, int64_t n, float add, float scale) {
  constexpr int64_t kWidth = V::kWidth;
  const typename V::Reg add_v = V::splat(add), scale_v = V::splat(scale);
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) V::store(y + i, V::mul(V::add(V::load(x + i), add_v), scale_v));
  if (i < n) {
    const size_t tail_bytes = static_cast<size_t>(n - i) * sizeof(float);
    float buffer[kWidth] = {};
    std::memcpy(buffer, x + i, tail_bytes);
    V::store(buffer, V::mul(V::add(V::load(buffer), add_v), scale_v));
    std::memcpy(y + i, buffer, tail_bytes);
  }
}

// softmax: exp(x - max) / sum; log_softmax: (x - max) - log(sum). Each row is read before it is
// written at the same positions, so in == out works.
template <class V>
void softmaxRows(const float* in, float* out, int64_t rows, int64_t length) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * length;
    float* y = out + r * length;
    const float sum = expShiftedSum<V>(x, y, length, rowMax<V>(x, length));
    affine<V>(y, y, length, 0.0f, 1.0f / sum);
  }
}
template <class V>
void logSoftmaxRows(const float* in, float* out, int64_t rows, int64_t length) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * length;
    const float max = rowMax<V>(x, length);
    const float log_sum = V::logOf(expShiftedSum<V>(x, nullptr, length, max));
    // (x - max) - log_sum, as the portable kernel rounds it: the shift first, then the log.
    affine<V>(x, out + r * length, length, -max, 1.0f);
    affine<V>(out + r * length, out + r * length, length, -log_sum, 1.0f);
  }
}

// ---- The tables --------------------------------------------------------------------------------

// The loops of one instruction set, indexed by UnaryFunction and RowFunction.
template <class V>
struct UnaryLoopTable {
  using F = UnaryFunctionsOf<V>;
  static constexpr UnaryLoop kLoops[kNumUnaryFunctions] = {
      &unaryVectorLoop<V, typename F::Exp>,     &unaryVectorLoop<V, typename F::Log>,
      &unaryVectorLoop<V, typename F::Sin>,     &unaryVectorLoop<V, typename F::Cos>,
      &unaryVectorLoop<V, typename F::Tanh>,    &unaryVectorLoop<V, typename F::Sigmoid>,
      &unaryVectorLoop<V, typename F::Acos>,
  };
  static constexpr RowLoop kRowLoops[kNumRowFunctions] = {&softmaxRows<V>, &logSoftmaxRows<V>};
};

template <class V>
LoopTables loopTablesOf() {
  return LoopTables{UnaryLoopTable<V>::kLoops, UnaryLoopTable<V>::kRowLoops, &blockSum<V>};
}

}  // namespace sy::optimized::detail
