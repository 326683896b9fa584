// ScalarType: the element types a tensor can hold, their sizes, names and promotion rules.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

namespace sy {

enum class ScalarType : int8_t {
  Bool = 0,
  Int = 1,     // int32_t
  Long = 2,    // int64_t
  Float = 3,   // float
  Double = 4,  // double
  Undefined = 5,
};
inline constexpr int kNumScalarTypes = 5;

// Calls `fn.template operator()<T>()`-style visitors: SY_DISPATCH_DTYPE(st, "aten::acos", [&](auto tag) {
// using T = typename decltype(tag)::type; ... }). Unsupported types raise a clear error.
template <class T>
struct TypeTag {
  using type = T;
};

std::string_view toString(ScalarType t);
inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << toString(t); }

constexpr size_t elementSize(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 1;
    case ScalarType::Int: return 4;
    case ScalarType::Long: return 8;
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 8;
    default: return 0;
  }
}

constexpr bool isFloatingType(ScalarType t) { return t == ScalarType::Float || t == ScalarType::Double; }
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == ScalarType::Int || t == ScalarType::Long || (include_bool && t == ScalarType::Bool);
}

// PyTorch's lattice on our five types: Bool < Int < Long < Float < Double, except that
// Long with Float gives Float (the floating category wins, at the floating operand's width).
ScalarType promoteTypes(ScalarType a, ScalarType b);

// True when a value of type `from` may be written into a tensor of type `to` by an out= kernel
// (PyTorch's canCast: no float -> integral, no non-bool -> bool).
bool canCast(ScalarType from, ScalarType to);

template <class T>
struct CppTypeToScalarType;
template <> struct CppTypeToScalarType<bool> { static constexpr ScalarType value = ScalarType::Bool; };
template <> struct CppTypeToScalarType<int32_t> { static constexpr ScalarType value = ScalarType::Int; };
template <> struct CppTypeToScalarType<int64_t> { static constexpr ScalarType value = ScalarType::Long; };
template <> struct CppTypeToScalarType<float> { static constexpr ScalarType value = ScalarType::Float; };
template <> struct CppTypeToScalarType<double> { static constexpr ScalarType value = ScalarType::Double; };

}  // namespace sy
