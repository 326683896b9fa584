// Scalar: a number that is an integer, a floating value or a bool (the schema type `Scalar`), plus
// the small enums that travel as schema types: Layout and MemoryFormat.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include "switchyard/core/macros.h"
#include "switchyard/core/scalar_type.h"

namespace sy {

class Scalar {
 public:
  enum class Kind : uint8_t { Int, Double, Bool };

  Scalar() : Scalar(int64_t{0}) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int) {  // NOLINT: implicit, like at::Scalar
    v_.i = static_cast<int64_t>(v);
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Double) {  // NOLINT
    v_.d = static_cast<double>(v);
  }
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Bool) {  // NOLINT
    v_.b = v;
  }

  Kind kind() const { return kind_; }
  bool isIntegral(bool include_bool) const { return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool); }
  bool isFloatingPoint() const { return kind_ == Kind::Double; }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  // The dtype a 0-dim tensor made from this scalar would have (Long, Double or Bool).
  ScalarType type() const {
    return kind_ == Kind::Int ? ScalarType::Long : kind_ == Kind::Double ? ScalarType::Double : ScalarType::Bool;
  }

  // The value as a T. See Note [Scalars convert only to types that can hold them].
  template <class T>
  T to() const {
    if (SY_UNLIKELY(!fits<T>())) throwDoesNotFit(CppTypeToScalarType<T>::value);
    switch (kind_) {
      case Kind::Int: return static_cast<T>(v_.i);
      case Kind::Double: return static_cast<T>(v_.d);
      case Kind::Bool: return static_cast<T>(v_.b);
    }
    return T{};
  }
  // True when to<T>() can convert the value (T the C++ type of a real ScalarType).
  template <class T>
  bool fits() const;
  int64_t toLong() const { return to<int64_t>(); }
  double toDouble() const { return to<double>(); }
  bool toBool() const { return to<bool>(); }

  // Raises "value 1e+30 cannot be converted to type Int without overflow".
  [[noreturn]] void throwDoesNotFit(ScalarType dtype) const;

  friend bool operator==(const Scalar& a, const Scalar& b) {
    if (a.kind_ != b.kind_) return false;
    return a.kind_ == Kind::Int ? a.v_.i == b.v_.i : a.kind_ == Kind::Double ? a.v_.d == b.v_.d : a.v_.b == b.v_.b;
  }

 private:
  Kind kind_;
  union {
    int64_t i;
    double d;
    bool b;
  } v_;
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

// Note [Scalars convert only to types that can hold them]
// Scalar::to<T> is the one place a Scalar becomes a value of a tensor's dtype (fill, full, a Scalar
// operand, alpha), so it is where PyTorch's "value cannot be converted to type int without
// overflow" is raised: a floating value converts to an integral type only when the value itself
// is in the type's range (then truncated; -0.7 does not fit Byte; never NaN or an infinity), an integer only to an integral type that holds it or, for
// an unsigned type, holds its magnitude (a negative integer then wraps modulo 2^bits, as c10's
// checked_convert allows: full({1}, -1, kByte) is 255, -256 is refused), and a
// finite value to a floating type only within that type's range (NaN and infinities convert as
// they are; Half's range ends at 65504, as PyTorch's check does). Anything converts to Bool
// (nonzero is true) and to Double. A C++ cast outside these ranges is undefined behaviour, not a
// wrapped value.
template <class T>
bool Scalar::fits() const {
  static_assert(isRealType(CppTypeToScalarType<T>::value), "Scalar::to<T>: T must be the C++ type of a real ScalarType");
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double>) {
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    if (kind_ == Kind::Double) {
      // The value itself, not its truncation, must lie in [lowest, max], as c10's overflows() checks:
      // -0.7 does not fit Byte, 255.5 does not fit it either. The 64-bit types' max rounds up to a
      // power of two as a double, so their high end is exclusive (the cast of 2^63 to int64_t would
      // be undefined). Every comparison is false for NaN.
      constexpr double kLow = static_cast<double>(std::numeric_limits<T>::lowest());
      constexpr double kHigh = static_cast<double>(std::numeric_limits<T>::max());
      const double v = v_.d;
      if constexpr (sizeof(T) == sizeof(int64_t)) return v >= kLow && v < kHigh;
      return v >= kLow && v <= kHigh;
    }
    if (kind_ == Kind::Int) {
      if constexpr (std::is_unsigned_v<T>) {
        // A negative integer down to -max wraps, as c10's checked conversion lets it.
        const uint64_t magnitude = v_.i >= 0 ? static_cast<uint64_t>(v_.i) : 0 - static_cast<uint64_t>(v_.i);
        return magnitude <= std::numeric_limits<T>::max();
      } else if constexpr (sizeof(T) < sizeof(int64_t)) {
        return v_.i >= std::numeric_limits<T>::min() && v_.i <= std::numeric_limits<T>::max();
      }
    }
    return true;
  } else {
    // float, Half, BFloat16 and the Float8 types.
    const double v = kind_ == Kind::Double ? v_.d : kind_ == Kind::Int ? static_cast<double>(v_.i) : 0.0;
    const double max = static_cast<double>(static_cast<float>(largestFinite<T>()));
    return !(v > max || v < -max) || v == std::numeric_limits<double>::infinity() ||
           v == -std::numeric_limits<double>::infinity();
  }
}

// Schema type `Layout`; boxed as an int, as in PyTorch.
enum class Layout : int8_t { Strided = 0 };
// Schema type `MemoryFormat`; boxed as an int, as in PyTorch.
enum class MemoryFormat : int8_t { Contiguous = 0, Preserve = 1, ChannelsLast = 2 };

}  // namespace sy
