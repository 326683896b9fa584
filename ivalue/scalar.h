// Scalar: a number that is an integer, a floating value or a bool (the schema type `Scalar`), plus
// the small enums that travel as schema types: Layout and MemoryFormat.
#pragma once

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "switchyard/ivalue/scalar_type.h"

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

  template <class T>
  T to() const {
    switch (kind_) {
      case Kind::Int: return static_cast<T>(v_.i);
      case Kind::Double: return static_cast<T>(v_.d);
      case Kind::Bool: return static_cast<T>(v_.b);
    }
    return T{};
  }
  int64_t toLong() const { return to<int64_t>(); }
  double toDouble() const { return to<double>(); }
  bool toBool() const { return to<bool>(); }

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

// Schema type `Layout`; boxed as an int, as in PyTorch.
enum class Layout : int8_t { Strided = 0 };
// Schema type `MemoryFormat`; boxed as an int, as in PyTorch.
enum class MemoryFormat : int8_t { Contiguous = 0, Preserve = 1, ChannelsLast = 2 };

}  // namespace sy
