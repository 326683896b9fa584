// ScalarType: the element types a tensor can hold, their sizes, names and promotion rules.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

// Every element type, once: `_(C++ type, ScalarType name)` in ScalarType order. Whatever maps a
// dtype to its C++ type (the enum, sizes, names, visitScalarType) expands this list, so a new dtype
// is one line here, as with c10's AT_FORALL_SCALAR_TYPES.
//
//   #define SY_SIZE_CASE(cpp, name) case ScalarType::name: return sizeof(cpp);
//   switch (t) { SY_FORALL_SCALAR_TYPES(SY_SIZE_CASE) default: return 0; }
#define SY_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool)                   \
  _(int32_t, Int)                 \
  _(int64_t, Long)                \
  _(float, Float)                 \
  _(double, Double)

namespace sy {

enum class ScalarType : int8_t {
#define SY_SCALAR_TYPE_ENUMERATOR(cpp, name) name,
  SY_FORALL_SCALAR_TYPES(SY_SCALAR_TYPE_ENUMERATOR)
#undef SY_SCALAR_TYPE_ENUMERATOR
  Undefined,
};
inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);

// Names a C++ element type as a value, for visitors: fn(TypeTag<float>{}).
template <class T>
struct TypeTag {
  using type = T;
};

std::string_view toString(ScalarType t);
inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << toString(t); }

// Calls fn(TypeTag<T>{}) with T the C++ type of `dtype` and returns true; returns false, without
// calling fn, for Undefined. The one dtype switch: callers add their own error for `false`.
//
//   visitScalarType(t.scalar_type(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
template <class Fn>
constexpr bool visitScalarType(ScalarType dtype, Fn&& fn) {
  switch (dtype) {
#define SY_VISIT_SCALAR_TYPE_CASE(cpp, name) \
  case ScalarType::name:                     \
    fn(TypeTag<cpp>{});                      \
    return true;
    SY_FORALL_SCALAR_TYPES(SY_VISIT_SCALAR_TYPE_CASE)
#undef SY_VISIT_SCALAR_TYPE_CASE
    default: return false;
  }
}

constexpr size_t elementSize(ScalarType t) {
  switch (t) {
#define SY_ELEMENT_SIZE_CASE(cpp, name) \
  case ScalarType::name: return sizeof(cpp);
    SY_FORALL_SCALAR_TYPES(SY_ELEMENT_SIZE_CASE)
#undef SY_ELEMENT_SIZE_CASE
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
#define SY_CPP_TYPE_TO_SCALAR_TYPE(cpp, name) \
  template <>                                 \
  struct CppTypeToScalarType<cpp> {           \
    static constexpr ScalarType value = ScalarType::name; \
  };
SY_FORALL_SCALAR_TYPES(SY_CPP_TYPE_TO_SCALAR_TYPE)
#undef SY_CPP_TYPE_TO_SCALAR_TYPE

}  // namespace sy
