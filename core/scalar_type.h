// ScalarType: every element type a tensor can hold, with PyTorch's enumerator values, names, sizes
// and predicates, and PyTorch's promotion rules. One table (SY_FORALL_SCALAR_TYPES) holds them all.
//
//   sy::ScalarType t = sy::ScalarType::Half;
//   sy::elementSize(t);                  // 2
//   sy::toString(t);                     // "Half"
//   sy::isFloatingType(t);               // true (Half, BFloat16 and the Float8 types are floating)
//   sy::promoteTypes(sy::ScalarType::Half, sy::ScalarType::BFloat16);   // Float
//
// Note [Scalar types are PyTorch's, numbered as PyTorch numbers them]
// The enumerators are c10::ScalarType's, in its order, so `static_cast<int>(t)` is the number
// PyTorch, ExecuTorch's program format (schema/scalar_type.fbs) and ExecuTorch's kernel keys use:
// Float is 6 everywhere and no table translates between numberings. The types fall in two classes:
//   - real types, whose values convert to and from double: Bool, the integers (Byte, Char, Short,
//     Int, Long, UInt16, UInt32, UInt64) and the floating types (Half, BFloat16, the four Float8
//     types, Float, Double). visitScalarType visits these; Half and BFloat16 compute in float (See
//     Note [Reduced-precision floats compute in float] in core/half.h);
//   - storage types, which tensors hold, load and copy byte for byte, and which every kernel refuses
//     by name: the complex types, the quantized integers and the bit containers (core/complex.h,
//     core/opaque_types.h). visitEveryScalarType visits these too.
// Kernels take the dtypes their DtypeSet names (backends/devices/cpu/dtype_dispatch.h), a bit per
// enumerator: the enumerators stay below 32 (PyTorch's UInt1..7, Int1..7 and the later 8- and 4-bit
// float types, numbered from 30, are not here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string_view>

#include "switchyard/core/bfloat16.h"
#include "switchyard/core/complex.h"
#include "switchyard/core/float8.h"
#include "switchyard/core/half.h"
#include "switchyard/core/opaque_types.h"

// The real types, in enumerator order: `_(C++ type, name)`. See Note [Scalar types are PyTorch's,
// numbered as PyTorch numbers them].
#define SY_FORALL_REAL_SCALAR_TYPES(_)      \
  _(uint8_t, Byte)                          \
  _(int8_t, Char)                           \
  _(int16_t, Short)                         \
  _(int32_t, Int)                           \
  _(int64_t, Long)                          \
  _(::sy::Half, Half)                       \
  _(float, Float)                           \
  _(double, Double)                         \
  _(bool, Bool)                             \
  _(::sy::BFloat16, BFloat16)               \
  _(::sy::Float8_e5m2, Float8_e5m2)         \
  _(::sy::Float8_e4m3fn, Float8_e4m3fn)     \
  _(::sy::Float8_e5m2fnuz, Float8_e5m2fnuz) \
  _(::sy::Float8_e4m3fnuz, Float8_e4m3fnuz) \
  _(uint16_t, UInt16)                       \
  _(uint32_t, UInt32)                       \
  _(uint64_t, UInt64)

// Every element type, once, in enumerator order (PyTorch's numbers in the comments). Whatever maps a
// dtype to its C++ type (the enum, sizes, names, the visitors) expands this list.
#define SY_FORALL_SCALAR_TYPES(_)                            \
  _(uint8_t, Byte)                           /* 0 */         \
  _(int8_t, Char)                            /* 1 */         \
  _(int16_t, Short)                          /* 2 */         \
  _(int32_t, Int)                            /* 3 */         \
  _(int64_t, Long)                           /* 4 */         \
  _(::sy::Half, Half)                        /* 5 */         \
  _(float, Float)                            /* 6 */         \
  _(double, Double)                          /* 7 */         \
  _(::sy::Complex<::sy::Half>, ComplexHalf)  /* 8 */         \
  _(::sy::Complex<float>, ComplexFloat)      /* 9 */         \
  _(::sy::Complex<double>, ComplexDouble)    /* 10 */        \
  _(bool, Bool)                              /* 11 */        \
  _(::sy::qint8, QInt8)                      /* 12 */        \
  _(::sy::quint8, QUInt8)                    /* 13 */        \
  _(::sy::qint32, QInt32)                    /* 14 */        \
  _(::sy::BFloat16, BFloat16)                /* 15 */        \
  _(::sy::quint4x2, QUInt4x2)                /* 16 */        \
  _(::sy::quint2x4, QUInt2x4)                /* 17 */        \
  _(::sy::bits1x8, Bits1x8)                  /* 18 */        \
  _(::sy::bits2x4, Bits2x4)                  /* 19 */        \
  _(::sy::bits4x2, Bits4x2)                  /* 20 */        \
  _(::sy::bits8, Bits8)                      /* 21 */        \
  _(::sy::bits16, Bits16)                    /* 22 */        \
  _(::sy::Float8_e5m2, Float8_e5m2)          /* 23 */        \
  _(::sy::Float8_e4m3fn, Float8_e4m3fn)      /* 24 */        \
  _(::sy::Float8_e5m2fnuz, Float8_e5m2fnuz)  /* 25 */        \
  _(::sy::Float8_e4m3fnuz, Float8_e4m3fnuz)  /* 26 */        \
  _(uint16_t, UInt16)                        /* 27 */        \
  _(uint32_t, UInt32)                        /* 28 */        \
  _(uint64_t, UInt64)                        /* 29 */

namespace sy {

enum class ScalarType : int8_t {
#define SY_SCALAR_TYPE_ENUMERATOR(cpp, name) name,
  SY_FORALL_SCALAR_TYPES(SY_SCALAR_TYPE_ENUMERATOR)
#undef SY_SCALAR_TYPE_ENUMERATOR
  Undefined,
};
inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);
// See Note [Scalar types are PyTorch's, numbered as PyTorch numbers them].
static_assert(static_cast<int>(ScalarType::Float) == 6 && static_cast<int>(ScalarType::Bool) == 11 &&
                  static_cast<int>(ScalarType::BFloat16) == 15 && static_cast<int>(ScalarType::Bits16) == 22 &&
                  static_cast<int>(ScalarType::UInt64) == 29,
              "ScalarType follows c10::ScalarType's numbering");
static_assert(kNumScalarTypes <= 32, "DtypeSets are 32-bit masks indexed by ScalarType");

// Names a C++ element type as a value, for visitors: fn(TypeTag<float>{}).
template <class T>
struct TypeTag {
  using type = T;
};

// "Float", "Half", "QUInt4x2": PyTorch's spelling ("Undefined"; "Unknown" for a number no type has).
std::string_view toString(ScalarType t);
inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << toString(t); }
// The type numbered `code` (PyTorch's and ExecuTorch's numbering), or nullopt for a number no type has.
std::optional<ScalarType> scalarTypeFromCode(int code);

// Calls fn(TypeTag<T>{}) with T the C++ type of `dtype` and returns true when `dtype` is a real type
// (See Note [Scalar types are PyTorch's, numbered as PyTorch numbers them]); returns false, without
// calling fn, for the storage types and Undefined. The dtype switch of code that reads values:
// callers add their own error for `false`.
//
//   visitScalarType(t.scalar_type(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
template <class Fn>
constexpr bool visitScalarType(ScalarType dtype, Fn&& fn) {
  switch (dtype) {
#define SY_VISIT_SCALAR_TYPE_CASE(cpp, name) \
  case ScalarType::name:                     \
    fn(TypeTag<cpp>{});                      \
    return true;
    SY_FORALL_REAL_SCALAR_TYPES(SY_VISIT_SCALAR_TYPE_CASE)
#undef SY_VISIT_SCALAR_TYPE_CASE
    default: return false;
  }
}

// visitScalarType over every type, storage types included (false only for Undefined).
template <class Fn>
constexpr bool visitEveryScalarType(ScalarType dtype, Fn&& fn) {
  switch (dtype) {
#define SY_VISIT_EVERY_SCALAR_TYPE_CASE(cpp, name) \
  case ScalarType::name:                           \
    fn(TypeTag<cpp>{});                            \
    return true;
    SY_FORALL_SCALAR_TYPES(SY_VISIT_EVERY_SCALAR_TYPE_CASE)
#undef SY_VISIT_EVERY_SCALAR_TYPE_CASE
    default: return false;
  }
}

// Bytes per element (1 for the packed sub-byte types, which hold two or four values per byte; 0
// for Undefined).
constexpr size_t elementSize(ScalarType t) {
  switch (t) {
#define SY_ELEMENT_SIZE_CASE(cpp, name) \
  case ScalarType::name: return sizeof(cpp);
    SY_FORALL_SCALAR_TYPES(SY_ELEMENT_SIZE_CASE)
#undef SY_ELEMENT_SIZE_CASE
    default: return 0;
  }
}

// ---- Classes (PyTorch's predicates) --------------------------------------------------------------

constexpr bool isFloat8Type(ScalarType t) {
  return t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn || t == ScalarType::Float8_e5m2fnuz ||
         t == ScalarType::Float8_e4m3fnuz;
}
constexpr bool isReducedFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || isFloat8Type(t);
}
constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || isReducedFloatingType(t);
}
constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
// The unsigned types PyTorch added after Byte: few kernels, and promotion only with floating types.
constexpr bool isBarebonesUnsignedType(ScalarType t) {
  return t == ScalarType::UInt16 || t == ScalarType::UInt32 || t == ScalarType::UInt64;
}
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short || t == ScalarType::Int ||
         t == ScalarType::Long || isBarebonesUnsignedType(t) || (include_bool && t == ScalarType::Bool);
}
constexpr bool isQIntType(ScalarType t) {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32 ||
         t == ScalarType::QUInt4x2 || t == ScalarType::QUInt2x4;
}
constexpr bool isBitsType(ScalarType t) {
  return t == ScalarType::Bits1x8 || t == ScalarType::Bits2x4 || t == ScalarType::Bits4x2 ||
         t == ScalarType::Bits8 || t == ScalarType::Bits16;
}
constexpr bool isSignedType(ScalarType t) {
  return t == ScalarType::Char || t == ScalarType::Short || t == ScalarType::Int || t == ScalarType::Long ||
         isFloatingType(t) || isComplexType(t) || t == ScalarType::QInt8 || t == ScalarType::QInt32;
}
// A real type: visitScalarType visits it (See Note [Scalar types are PyTorch's, numbered as PyTorch
// numbers them]).
constexpr bool isRealType(ScalarType t) { return t == ScalarType::Bool || isIntegralType(t, false) || isFloatingType(t); }

// ---- Promotion -----------------------------------------------------------------------------------

// PyTorch's promotion table (c10::promoteTypes): the smallest type both convert to without leaving
// the higher category (bool < integral < floating < complex), except that Byte with Char is Short
// and Half with BFloat16 is Float. Undefined with anything is Undefined, as is a bits type with
// another type. Quantized and Float8 types with another type, and UInt16/32/64 with a non-floating
// type, have no promotion: sy::Error naming both, as PyTorch's RuntimeError.
ScalarType promoteTypes(ScalarType a, ScalarType b);

// True when a value of type `from` may be written into a tensor of type `to` by an out= or in-place
// kernel (PyTorch's canCast: no complex -> non-complex, no floating -> integral, no non-bool -> bool).
constexpr bool canCast(ScalarType from, ScalarType to) {
  if (isComplexType(from) && !isComplexType(to)) return false;
  if (isFloatingType(from) && isIntegralType(to, /*include_bool=*/false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

// The largest finite value of a floating element type (float, double, Half, BFloat16, a Float8 type).
template <class T>
constexpr T largestFinite() {
  if constexpr (std::numeric_limits<T>::is_specialized) {
    return std::numeric_limits<T>::max();
  } else {
    return T::largestFinite();
  }
}

template <class T>
struct CppTypeToScalarType;
#define SY_CPP_TYPE_TO_SCALAR_TYPE(cpp, name)             \
  template <>                                             \
  struct CppTypeToScalarType<cpp> {                       \
    static constexpr ScalarType value = ScalarType::name; \
  };
SY_FORALL_SCALAR_TYPES(SY_CPP_TYPE_TO_SCALAR_TYPE)
#undef SY_CPP_TYPE_TO_SCALAR_TYPE

}  // namespace sy
