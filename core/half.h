// Half: IEEE 754 binary16, a storage type for 16-bit floating tensors (PyTorch's c10::Half).
//
//   sy::Half h = 1.5f;                  // rounds to nearest, ties to even
//   float f = h;                        // exact: every Half is a float
//   uint16_t bits = h.bits();           // 0x3E00
//   sy::Half max = sy::Half::fromBits(0x7BFF);   // 65504, the largest finite value
//
// Note [Reduced-precision floats compute in float]
// Half, BFloat16 and the Float8 types hold values; they do not do arithmetic. A kernel reads each
// element as a float, computes in float and rounds the result once, when it stores it, as PyTorch's
// CPU kernels do; so `a + b` on Half tensors is float(a) + float(b) rounded to Half. Arithmetic
// operators on the types themselves would round after every step (and differ from PyTorch's
// results), so they are left out on purpose: write `float(a) * float(b)`.
#pragma once

#include <cstdint>
#include <limits>

#include "switchyard/core/float_bits.h"

namespace sy {

namespace detail {

// float -> binary16, round to nearest, ties to even. NaN stays NaN (sign kept, quiet, top payload
// bits kept), infinities stay infinite, values from 65520 up round to infinity, values below the
// smallest subnormal's half round to (signed) zero.
inline uint16_t halfBitsFromFloat(float value) {
  const uint32_t f = floatBits(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t magnitude = f & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {  // infinity or NaN
    const uint16_t nan = magnitude > 0x7F800000u ? static_cast<uint16_t>(0x0200u | ((magnitude >> 13) & 0x03FFu)) : 0;
    return static_cast<uint16_t>(sign | 0x7C00u | nan);
  }
  if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520: infinity
  if (magnitude < 0x38800000u) {
    // Below 2^-14, binary16's subnormal range, whose unit is 2^-24: adding 0.5 makes the float's own
    // unit in its last place 2^-24 too, so the addition rounds to even exactly as binary16 must,
    // and the low bits are the subnormal's mantissa (0x400 when it rounds up to the smallest normal).
    const float shifted = floatFromBits(magnitude) + 0.5f;
    return static_cast<uint16_t>(sign | (floatBits(shifted) - 0x3F000000u));
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits to even; a carry
  // out of the mantissa moves into the exponent, which is the right result.
  const uint32_t odd = (magnitude >> 13) & 1u;
  return static_cast<uint16_t>(sign | ((magnitude + 0xC8000FFFu + odd) >> 13));
}

// binary16 -> float, exact.
inline float floatFromHalfBits(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mantissa = h & 0x03FFu;
  if (exponent == 0x1F) return floatFromBits(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  return floatFromBits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x = 0;

  Half() = default;
  Half(float value) : x(detail::halfBitsFromFloat(value)) {}  // NOLINT: implicit, as c10::Half
  operator float() const { return detail::floatFromHalfBits(x); }  // NOLINT

  static constexpr Half fromBits(uint16_t bits) {
    Half h;
    h.x = bits;
    return h;
  }
  constexpr uint16_t bits() const { return x; }
};

}  // namespace sy

namespace std {
template <>
class numeric_limits<sy::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 11;
  static constexpr sy::Half lowest() { return sy::Half::fromBits(0xFBFF); }
  static constexpr sy::Half min() { return sy::Half::fromBits(0x0400); }
  static constexpr sy::Half max() { return sy::Half::fromBits(0x7BFF); }
  static constexpr sy::Half epsilon() { return sy::Half::fromBits(0x1400); }
  static constexpr sy::Half infinity() { return sy::Half::fromBits(0x7C00); }
  static constexpr sy::Half quiet_NaN() { return sy::Half::fromBits(0x7E00); }
  static constexpr sy::Half denorm_min() { return sy::Half::fromBits(0x0001); }
};
}  // namespace std
