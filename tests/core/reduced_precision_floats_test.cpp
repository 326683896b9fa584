// Half, BFloat16 and the Float8 types against a reference of the test's own: each bit pattern's
// value computed from its fields in double, and rounding checked at every representable value,
// every midpoint between neighbours (ties go to the even pattern) and one float step either side of
// each midpoint. Every one of the 65536 (or 256) patterns is visited, both signs. A second reference,
// rounding in double by scaling to the format's quantum, checks a million floats spread over every
// exponent.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "switchyard/core/bfloat16.h"
#include "switchyard/core/float8.h"
#include "switchyard/core/half.h"

namespace sy {
namespace {

// The value of a binary floating format's pattern from its fields, in double. Returns NaN for NaN
// patterns and +-infinity for infinities, as told by the caller's `special`.
double referenceValue(uint32_t bits, int exponent_bits, int mantissa_bits, int bias) {
  const bool negative = (bits >> (exponent_bits + mantissa_bits)) & 1u;
  const uint32_t exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
  const double magnitude = exponent == 0 ? std::ldexp(double(mantissa), 1 - bias - mantissa_bits)
                                         : std::ldexp(double((1u << mantissa_bits) | mantissa),
                                                      int(exponent) - bias - mantissa_bits);
  return negative ? -magnitude : magnitude;
}

float floatJustBelow(double x) { return std::nextafter(float(x), -std::numeric_limits<float>::infinity()); }
float floatJustAbove(double x) { return std::nextafter(float(x), std::numeric_limits<float>::infinity()); }

// Checks encode/decode of one format over every finite pattern of one sign. `code_of(value)` encodes,
// `value_of(code)` decodes; codes 0..max_finite are the finite non-negative ones, in order. In the
// "fnuz" formats the negative-zero pattern is the NaN, checked by their own test.
template <class Encode, class Decode>
void checkEveryFinitePattern(uint32_t max_finite, int exponent_bits, int mantissa_bits, int bias, uint32_t sign_bit,
                             Encode code_of, Decode value_of, bool negative_zero_is_nan = false) {
  for (uint32_t code = 0; code <= max_finite; ++code) {
    for (uint32_t sign : {0u, sign_bit}) {
      const uint32_t pattern = code | sign;
      if (negative_zero_is_nan && pattern == sign_bit) continue;
      const double expected = referenceValue(pattern, exponent_bits, mantissa_bits, bias);
      ASSERT_EQ(double(value_of(pattern)), expected) << "decoding pattern 0x" << std::hex << pattern;
      if (expected == 0 && sign) continue;  // -0 is checked by the callers (fnuz formats have none)
      ASSERT_EQ(code_of(float(expected)), pattern) << "encoding the value of pattern 0x" << std::hex << pattern;
      if (code == max_finite) continue;
      // The midpoint with the next pattern (exact in float: one more bit than the format has).
      const double next = referenceValue((code + 1) | sign, exponent_bits, mantissa_bits, bias);
      const double mid = (expected + next) / 2;
      ASSERT_EQ(double(float(mid)), mid);
      const uint32_t even = (code % 2 == 0 ? code : code + 1) | sign;
      ASSERT_EQ(code_of(float(mid)), even) << "a tie after pattern 0x" << std::hex << pattern << " goes to even";
      const float toward_pattern = sign ? floatJustAbove(mid) : floatJustBelow(mid);
      const float toward_next = sign ? floatJustBelow(mid) : floatJustAbove(mid);
      ASSERT_EQ(code_of(toward_pattern), pattern) << "just inside the midpoint after 0x" << std::hex << pattern;
      ASSERT_EQ(code_of(toward_next), (code + 1) | sign) << "just past the midpoint after 0x" << std::hex << pattern;
    }
  }
}

TEST(Half, EveryPatternDecodesExactlyAndEveryValueAndMidpointRoundsToNearestEven) {
  checkEveryFinitePattern(
      0x7BFF, 5, 10, 15, 0x8000, [](float v) { return uint32_t(Half(v).bits()); },
      [](uint32_t bits) { return float(Half::fromBits(uint16_t(bits))); });
  EXPECT_EQ(Half(-0.0f).bits(), 0x8000);
}

TEST(Half, OverflowsToInfinityFrom65520AndKeepsInfinitiesAndNaNs) {
  EXPECT_EQ(Half(65504.0f).bits(), 0x7BFF);
  EXPECT_EQ(Half(floatJustBelow(65520.0)).bits(), 0x7BFF);
  EXPECT_EQ(Half(65520.0f).bits(), 0x7C00);
  EXPECT_EQ(Half(-1e30f).bits(), 0xFC00);
  EXPECT_EQ(Half(std::numeric_limits<float>::infinity()).bits(), 0x7C00);
  EXPECT_EQ(Half(-std::numeric_limits<float>::infinity()).bits(), 0xFC00);
  for (uint32_t bits = 0x7C01; bits <= 0x7FFF; ++bits) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const float f = Half::fromBits(uint16_t(bits | sign));
      ASSERT_TRUE(std::isnan(f)) << std::hex << bits;
      ASSERT_EQ(std::signbit(f), sign != 0);
      const Half back(f);
      ASSERT_TRUE(std::isnan(float(back)));
      ASSERT_EQ(back.bits() & 0x8000, sign) << "NaN keeps its sign";
    }
  }
  EXPECT_TRUE(std::isinf(float(Half::fromBits(0x7C00))));
}

TEST(Half, ValuesBelowHalfTheSmallestSubnormalRoundToSignedZero) {
  const float smallest = 5.9604644775390625e-8f;  // 2^-24
  EXPECT_EQ(Half(smallest / 2).bits(), 0x0000);        // a tie with zero goes to even: zero
  EXPECT_EQ(Half(floatJustAbove(smallest / 2)).bits(), 0x0001);
  EXPECT_EQ(Half(-smallest / 4).bits(), 0x8000);
  EXPECT_EQ(Half(1e-30f).bits(), 0x0000);
}

TEST(BFloat16, EveryPatternDecodesExactlyAndEveryValueAndMidpointRoundsToNearestEven) {
  checkEveryFinitePattern(
      0x7F7F, 8, 7, 127, 0x8000, [](float v) { return uint32_t(BFloat16(v).bits()); },
      [](uint32_t bits) { return float(BFloat16::fromBits(uint16_t(bits))); });
}

TEST(BFloat16, RoundsTheLargestFloatsToInfinityAndKeepsNaNs) {
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::max()).bits(), 0x7F80);
  EXPECT_EQ(BFloat16(-std::numeric_limits<float>::infinity()).bits(), 0xFF80);
  for (uint32_t bits = 0x7F81; bits <= 0x7FFF; ++bits) {
    const float f = BFloat16::fromBits(uint16_t(bits));
    ASSERT_TRUE(std::isnan(f));
    ASSERT_TRUE(std::isnan(float(BFloat16(f))));
  }
  // A signalling float NaN whose payload lives only in the dropped bits stays NaN.
  EXPECT_TRUE(std::isnan(float(BFloat16(detail::floatFromBits(0x7F800001u)))));
}

// `x` rounded to nearest, ties to even, in a binary format with `mantissa_bits` stored mantissa bits
// and exponent bias `bias`, computed in double: dividing by the quantum (a power of two) is exact, and
// nearbyint rounds ties to even. Beyond `largest` the result is infinite, as IEEE overflow is.
double roundedToFormat(double x, int mantissa_bits, int bias, double largest) {
  if (x == 0 || std::isinf(x)) return x;
  const int exponent = std::max(std::ilogb(x), 1 - bias);
  const double quantum = std::ldexp(1.0, exponent - mantissa_bits);
  const double rounded = std::nearbyint(std::fabs(x) / quantum) * quantum;
  return std::copysign(rounded > largest ? std::numeric_limits<double>::infinity() : rounded, x);
}

template <class F>
void checkAgainstDoubleRounding(int mantissa_bits, int bias, double largest) {
  // Every 4093rd float pattern (a prime stride: every exponent, both signs, varied mantissas).
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 4093) {
    const float f = detail::floatFromBits(static_cast<uint32_t>(bits));
    if (std::isnan(f)) {
      ASSERT_TRUE(std::isnan(float(F(f)))) << std::hex << bits;
      continue;
    }
    const double expected = roundedToFormat(f, mantissa_bits, bias, largest);
    const float got = F(f);
    ASSERT_EQ(double(got), expected) << "rounding float pattern 0x" << std::hex << bits;
    ASSERT_EQ(std::signbit(got), std::signbit(expected)) << "the sign of float pattern 0x" << std::hex << bits;
  }
}

TEST(Half, RoundsAMillionFloatsAsDoubleArithmeticRoundsThem) {
  checkAgainstDoubleRounding<Half>(10, 15, 65504.0);
}

TEST(BFloat16, RoundsAMillionFloatsAsDoubleArithmeticRoundsThem) {
  checkAgainstDoubleRounding<BFloat16>(7, 127, double(float(BFloat16::fromBits(0x7F7F))));
}

TEST(Half, EveryPatternSurvivesARoundTripThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float f = Half::fromBits(uint16_t(bits));
    if (std::isnan(f)) {
      ASSERT_EQ(Half(f).bits(), bits | 0x0200) << "a NaN comes back quiet, payload and sign kept: 0x" << std::hex << bits;
    } else {
      ASSERT_EQ(Half(f).bits(), bits) << std::hex << bits;
    }
  }
}

TEST(BFloat16, EveryPatternSurvivesARoundTripThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float f = BFloat16::fromBits(uint16_t(bits));
    if (std::isnan(f)) {
      ASSERT_EQ(BFloat16(f).bits(), bits | 0x0040) << "a NaN comes back quiet, payload and sign kept: 0x" << std::hex << bits;
    } else {
      ASSERT_EQ(BFloat16(f).bits(), bits) << std::hex << bits;
    }
  }
}

template <class F>
uint32_t float8Code(float v) {
  return F(v).bits();
}
template <class F>
float float8Value(uint32_t bits) {
  return F::fromBits(uint8_t(bits));
}

TEST(Float8, E5M2IsBinary16CutToTwoMantissaBits) {
  checkEveryFinitePattern(0x7B, 5, 2, 15, 0x80, float8Code<Float8_e5m2>, float8Value<Float8_e5m2>);
  EXPECT_EQ(float(Float8_e5m2::fromBits(0x7B)), 57344.0f);
  EXPECT_EQ(Float8_e5m2(61440.0f).bits(), 0x7C);  // the tie past the largest value: infinity
  EXPECT_EQ(Float8_e5m2(-1e9f).bits(), 0xFC);
  EXPECT_TRUE(std::isinf(float(Float8_e5m2::fromBits(0x7C))));
  EXPECT_TRUE(std::isnan(float(Float8_e5m2::fromBits(0x7D))));
  EXPECT_EQ(Float8_e5m2(-0.0f).bits(), 0x80);
}

TEST(Float8, E4M3FnHasNoInfinityAndOneNaNPerSign) {
  checkEveryFinitePattern(0x7E, 4, 3, 7, 0x80, float8Code<Float8_e4m3fn>, float8Value<Float8_e4m3fn>);
  EXPECT_EQ(float(Float8_e4m3fn::fromBits(0x7E)), 448.0f);
  EXPECT_EQ(Float8_e4m3fn(464.0f).bits(), 0x7E);  // the tie between 448 and 480 goes to even: 448
  EXPECT_EQ(Float8_e4m3fn(500.0f).bits(), 0x7F);  // past the largest value: NaN, as PyTorch
  EXPECT_EQ(Float8_e4m3fn(std::numeric_limits<float>::infinity()).bits(), 0x7F);
  EXPECT_EQ(Float8_e4m3fn(-std::numeric_limits<float>::infinity()).bits(), 0xFF);
  EXPECT_TRUE(std::isnan(float(Float8_e4m3fn::fromBits(0xFF))));
}

TEST(Float8, FnuzFormatsSpendNegativeZeroOnTheirOnlyNaN) {
  checkEveryFinitePattern(0x7F, 5, 2, 16, 0x80, float8Code<Float8_e5m2fnuz>, float8Value<Float8_e5m2fnuz>, true);
  checkEveryFinitePattern(0x7F, 4, 3, 8, 0x80, float8Code<Float8_e4m3fnuz>, float8Value<Float8_e4m3fnuz>, true);
  EXPECT_EQ(float(Float8_e4m3fnuz::fromBits(0x7F)), 240.0f);
  EXPECT_EQ(float(Float8_e5m2fnuz::fromBits(0x7F)), 57344.0f);
  for (float zero : {0.0f, -0.0f, -1e-30f}) {
    EXPECT_EQ(Float8_e4m3fnuz(zero).bits(), 0x00);
    EXPECT_EQ(Float8_e5m2fnuz(zero).bits(), 0x00);
  }
  EXPECT_TRUE(std::isnan(float(Float8_e4m3fnuz::fromBits(0x80))));
  EXPECT_EQ(Float8_e4m3fnuz(std::nanf("")).bits(), 0x80);
  EXPECT_EQ(Float8_e5m2fnuz(-1e9f).bits(), 0x80);  // past the largest value: the NaN
}

}  // namespace
}  // namespace sy
