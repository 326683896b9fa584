// The four 8-bit float types of PyTorch and ExecuTorch, as storage types:
//
//   type               layout  bias  infinity  NaN                 largest finite
//   Float8_e5m2        1-5-2   15    0x7C      0x7D..0x7F, signed  57344
//   Float8_e4m3fn      1-4-3   7     none      0x7F, 0xFF          448
//   Float8_e5m2fnuz    1-5-2   16    none      0x80 only           57344
//   Float8_e4m3fnuz    1-4-3   8     none      0x80 only           240
//
//   sy::Float8_e4m3fn v = 3.3f;          // rounds to nearest, ties to even: 3.25
//   float f = v;                         // exact
//
// Conversion from float rounds to nearest, ties to even; a value that rounds past the largest finite
// one becomes infinity where the format has one and NaN where it has none (PyTorch's conversions do
// not saturate either). The "fnuz" formats have no negative zero: -0.0 becomes +0. They hold values
// for loading, copying, converting and printing; kernels do not compute in them (See Note
// [Reduced-precision floats compute in float] in core/half.h).
#pragma once

#include <cmath>
#include <cstdint>

namespace sy {

namespace detail {

template <int ExponentBits, int MantissaBits, int Bias, bool IeeeSpecials>
struct Float8Format {
  static constexpr int kExponentBits = ExponentBits;
  static constexpr int kMantissaBits = MantissaBits;
  static constexpr int kBias = Bias;
  // IEEE specials: e5m2 keeps binary16's infinities and NaNs; e4m3fn keeps only the NaN with every
  // bit set; fnuz formats ("finite, no negative zero") spend the negative-zero pattern on NaN.
  static constexpr bool kIeeeSpecials = IeeeSpecials;
};

// The largest finite code of `Format`, without its sign.
template <class Format, bool Fnuz>
constexpr unsigned float8MaxFiniteCode() {
  constexpr unsigned kMaxExponentField = (1u << Format::kExponentBits) - 1;
  return Fnuz ? 0x7Fu : Format::kIeeeSpecials ? ((kMaxExponentField << Format::kMantissaBits) - 1) : 0x7Eu;
}

// Decodes `bits` of `Format` exactly.
template <class Format, bool Fnuz>
float floatFromFloat8Bits(uint8_t bits) {
  constexpr int M = Format::kMantissaBits;
  const bool negative = (bits & 0x80u) != 0;
  const int exponent = (bits >> M) & ((1 << Format::kExponentBits) - 1);
  const int mantissa = bits & ((1 << M) - 1);
  if constexpr (Fnuz) {
    if (bits == 0x80u) return std::nanf("");
  } else if constexpr (Format::kIeeeSpecials) {
    if (exponent == (1 << Format::kExponentBits) - 1) {
      const float special = mantissa == 0 ? HUGE_VALF : std::nanf("");
      return negative ? -special : special;
    }
  } else {
    if ((bits & 0x7Fu) == 0x7Fu) return negative ? -std::nanf("") : std::nanf("");
  }
  const float magnitude = exponent == 0
                              ? std::ldexp(static_cast<float>(mantissa), 1 - Format::kBias - M)
                              : std::ldexp(static_cast<float>((1 << M) | mantissa), exponent - Format::kBias - M);
  return negative ? -magnitude : magnitude;
}

// Encodes `value` in `Format`, rounding to nearest, ties to even (in double, where scaling by a power
// of two is exact and nearbyint rounds ties to even).
template <class Format, bool Fnuz>
uint8_t float8BitsFromFloat(float value) {
  constexpr int M = Format::kMantissaBits;
  constexpr int kMaxExponentField = (1 << Format::kExponentBits) - 1;
  constexpr unsigned kMaxFinite = float8MaxFiniteCode<Format, Fnuz>();
  const uint8_t nan = Fnuz ? 0x80u : 0x7Fu;
  const uint8_t sign = std::signbit(value) ? 0x80u : 0x00u;
  if (std::isnan(value)) return Fnuz ? nan : static_cast<uint8_t>(sign | nan);
  const double magnitude = std::fabs(static_cast<double>(value));
  unsigned code;
  if (std::isinf(value)) {
    code = kMaxFinite + 1;  // past the largest finite value
  } else if (magnitude == 0) {
    code = 0;
  } else {
    int exponent = std::ilogb(magnitude);
    if (exponent < 1 - Format::kBias) {
      // Subnormal: a count of the smallest subnormal, 2^(1 - bias - M); rounding up to 2^M is the
      // smallest normal's code.
      code = static_cast<unsigned>(std::nearbyint(std::ldexp(magnitude, Format::kBias + M - 1)));
    } else {
      double scaled = std::nearbyint(std::ldexp(magnitude, M - exponent));  // in [2^M, 2^(M+1)]
      if (scaled >= (1 << (M + 1))) {
        scaled /= 2;
        exponent += 1;
      }
      const int field = exponent + Format::kBias;
      code = field > kMaxExponentField ? kMaxFinite + 1
                                       : (static_cast<unsigned>(field) << M) | (static_cast<unsigned>(scaled) - (1u << M));
    }
  }
  if (code > kMaxFinite) {
    if constexpr (Format::kIeeeSpecials && !Fnuz) return static_cast<uint8_t>(sign | (kMaxExponentField << M));
    return Fnuz ? nan : static_cast<uint8_t>(sign | nan);
  }
  if (Fnuz && code == 0) return 0;  // no negative zero
  return static_cast<uint8_t>(sign | code);
}

}  // namespace detail

// One 8-bit float type; `Tag` makes each of the four a distinct C++ type.
template <class Format, bool Fnuz, class Tag>
struct alignas(1) Float8 {
  uint8_t x = 0;

  Float8() = default;
  Float8(float value) : x(detail::float8BitsFromFloat<Format, Fnuz>(value)) {}  // NOLINT: implicit, as c10's
  operator float() const { return detail::floatFromFloat8Bits<Format, Fnuz>(x); }  // NOLINT

  static constexpr Float8 fromBits(uint8_t bits) {
    Float8 f;
    f.x = bits;
    return f;
  }
  constexpr uint8_t bits() const { return x; }
  // 57344, 448, 57344 or 240.
  static constexpr Float8 largestFinite() {
    return fromBits(static_cast<uint8_t>(detail::float8MaxFiniteCode<Format, Fnuz>()));
  }
};

namespace detail {
struct E5M2Tag {};
struct E4M3FnTag {};
struct E5M2FnuzTag {};
struct E4M3FnuzTag {};
}  // namespace detail

using Float8_e5m2 = Float8<detail::Float8Format<5, 2, 15, true>, false, detail::E5M2Tag>;
using Float8_e4m3fn = Float8<detail::Float8Format<4, 3, 7, false>, false, detail::E4M3FnTag>;
using Float8_e5m2fnuz = Float8<detail::Float8Format<5, 2, 16, false>, true, detail::E5M2FnuzTag>;
using Float8_e4m3fnuz = Float8<detail::Float8Format<4, 3, 8, false>, true, detail::E4M3FnuzTag>;

}  // namespace sy
