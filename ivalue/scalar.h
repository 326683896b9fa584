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
  // True when to<T>() can convert the value (T one of bool, int32_t, int64_t, float, double).
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
// overflow" is raised: a floating value converts to an integral type only when its truncation is
// in range (never NaN or an infinity), an integer only to an integral type that holds it, and a
// finite floating value to Float only within Float's range (NaN and infinities convert as they
// are). Anything converts to Bool (nonzero is true) and to Double. A C++ cast outside these ranges
// is undefined behaviour, not a wrapped value.
template <class T>
bool Scalar::fits() const {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>,
                "Scalar::to<T>: T must be one of the tensor element types");
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr double kLow = static_cast<double>(std::numeric_limits<T>::min());  // -2^31 or -2^63, exact
    if (kind_ == Kind::Double) {
      // Truncation toward zero must land in range: (-2^31 - 1, 2^31) for Int; -2^63 - 1 is not a
      // double, so [-2^63, 2^63) for Long. Both comparisons are false for NaN.
      const double v = v_.d;
      return (sizeof(T) < sizeof(int64_t) ? v > kLow - 1.0 : v >= kLow) && v < -kLow;
    }
    if constexpr (sizeof(T) < sizeof(int64_t)) {
      if (kind_ == Kind::Int) return v_.i >= std::numeric_limits<T>::min() && v_.i <= std::numeric_limits<T>::max();
    }
    return true;
  } else if constexpr (std::is_same_v<T, float>) {
    if (kind_ != Kind::Double) return true;
    return !(v_.d > static_cast<double>(std::numeric_limits<float>::max()) ||
             v_.d < -static_cast<double>(std::numeric_limits<float>::max())) ||
           v_.d == std::numeric_limits<double>::infinity() || v_.d == -std::numeric_limits<double>::infinity();
  } else {
    return true;
  }
}

// Schema type `Layout`; boxed as an int, as in PyTorch.
enum class Layout : int8_t { Strided = 0 };
// Schema type `MemoryFormat`; boxed as an int, as in PyTorch.
enum class MemoryFormat : int8_t { Contiguous = 0, Preserve = 1, ChannelsLast = 2 };

}  // namespace sy
