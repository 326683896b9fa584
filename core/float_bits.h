// The bits of a float and back, without undefined behaviour: what the reduced-precision float types
// (half.h, bfloat16.h, float8.h) convert through.
//
//   uint32_t bits = sy::detail::floatBits(1.0f);        // 0x3F800000
//   float one = sy::detail::floatFromBits(0x3F800000);
#pragma once

#include <cstdint>
#include <cstring>

namespace sy::detail {

inline uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float floatFromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace sy::detail
