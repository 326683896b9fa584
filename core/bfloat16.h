// BFloat16: the upper 16 bits of a float (8 exponent bits, 7 mantissa bits), a storage type for
// bfloat16 tensors (PyTorch's c10::BFloat16). Kernels compute in float and round once per result
// (See Note [Reduced-precision floats compute in float] in core/half.h).
//
//   sy::BFloat16 b = 1.00390625f;       // rounds to nearest, ties to even: 1.0
//   float f = b;                        // exact
//   sy::BFloat16 one = sy::BFloat16::fromBits(0x3F80);
#pragma once

#include <cstdint>
#include <limits>

#include "switchyard/core/float_bits.h"

namespace sy {

namespace detail {

// float -> bfloat16, round to nearest, ties to even. NaN stays NaN (sign and top payload bits kept,
// made quiet); the rounding carries into the exponent, so the largest floats round to infinity.
inline uint16_t bfloat16BitsFromFloat(float value) {
  const uint32_t f = floatBits(value);
  if ((f & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((f >> 16) | 0x0040u);
  const uint32_t odd = (f >> 16) & 1u;
  return static_cast<uint16_t>((f + 0x7FFFu + odd) >> 16);
}

inline float floatFromBFloat16Bits(uint16_t b) { return floatFromBits(static_cast<uint32_t>(b) << 16); }

}  // namespace detail

struct alignas(2) BFloat16 {
  uint16_t x = 0;

  BFloat16() = default;
  BFloat16(float value) : x(detail::bfloat16BitsFromFloat(value)) {}  // NOLINT: implicit, as c10::BFloat16
  operator float() const { return detail::floatFromBFloat16Bits(x); }  // NOLINT

  static constexpr BFloat16 fromBits(uint16_t bits) {
    BFloat16 b;
    b.x = bits;
    return b;
  }
  constexpr uint16_t bits() const { return x; }
};

}  // namespace sy

namespace std {
template <>
class numeric_limits<sy::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 8;
  static constexpr sy::BFloat16 lowest() { return sy::BFloat16::fromBits(0xFF7F); }
  static constexpr sy::BFloat16 min() { return sy::BFloat16::fromBits(0x0080); }
  static constexpr sy::BFloat16 max() { return sy::BFloat16::fromBits(0x7F7F); }
  static constexpr sy::BFloat16 epsilon() { return sy::BFloat16::fromBits(0x3C00); }
  static constexpr sy::BFloat16 infinity() { return sy::BFloat16::fromBits(0x7F80); }
  static constexpr sy::BFloat16 quiet_NaN() { return sy::BFloat16::fromBits(0x7FC0); }
  static constexpr sy::BFloat16 denorm_min() { return sy::BFloat16::fromBits(0x0001); }
};
}  // namespace std
