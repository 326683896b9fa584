#include "switchyard/core/scalar_type.h"

#include <array>

#include "switchyard/core/error.h"

namespace sy {

std::string_view toString(ScalarType t) {
  switch (t) {
#define SY_SCALAR_TYPE_NAME_CASE(cpp, name) \
  case ScalarType::name: return #name;
    SY_FORALL_SCALAR_TYPES(SY_SCALAR_TYPE_NAME_CASE)
#undef SY_SCALAR_TYPE_NAME_CASE
    case ScalarType::Undefined: return "Undefined";
  }
  return "Unknown";
}

std::optional<ScalarType> scalarTypeFromCode(int code) {
  if (code < 0 || code >= kNumScalarTypes) return std::nullopt;
  return static_cast<ScalarType>(code);
}

namespace {

// The axes of PyTorch's promotion lattice: the types promoteTypes looks up in kPromotion.
constexpr std::array<ScalarType, 13> kLatticeTypes = {
    ScalarType::Byte,        ScalarType::Char,         ScalarType::Short,         ScalarType::Int,
    ScalarType::Long,        ScalarType::Half,         ScalarType::Float,         ScalarType::Double,
    ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble, ScalarType::Bool,
    ScalarType::BFloat16};

// kLatticeTypes' index of each ScalarType (-1 off the lattice), one load per lookup.
constexpr std::array<int8_t, kNumScalarTypes> latticeIndices() {
  std::array<int8_t, kNumScalarTypes> index{};
  for (int8_t& i : index) i = -1;
  for (size_t i = 0; i < kLatticeTypes.size(); ++i) index[static_cast<size_t>(kLatticeTypes[i])] = static_cast<int8_t>(i);
  return index;
}
constexpr std::array<int8_t, kNumScalarTypes> kLatticeIndex = latticeIndices();

int latticeIndex(ScalarType t) {
  const int code = static_cast<int>(t);
  return code >= 0 && code < kNumScalarTypes ? kLatticeIndex[static_cast<size_t>(code)] : -1;
}

// Rows and columns in kLatticeTypes' order. Within a category the wider type wins; across
// categories the higher category wins at its own width, except that an integral type with Half or
// BFloat16 keeps the reduced type, and a complex type meeting a wider floating type widens to the
// complex type of that width.
constexpr ScalarType u1 = ScalarType::Byte, i1 = ScalarType::Char, i2 = ScalarType::Short, i4 = ScalarType::Int,
                     i8 = ScalarType::Long, f2 = ScalarType::Half, f4 = ScalarType::Float, f8 = ScalarType::Double,
                     c2 = ScalarType::ComplexHalf, c4 = ScalarType::ComplexFloat, c8 = ScalarType::ComplexDouble,
                     b1 = ScalarType::Bool, bf = ScalarType::BFloat16;
constexpr ScalarType kPromotion[13][13] = {
    //         u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  bf
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8},
    /* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4},
    /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4},
    /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf},
};

}  // namespace

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  // Kernels compute result types on every call: two types on the lattice take one lookup.
  const int ia = latticeIndex(a);
  const int ib = latticeIndex(b);
  if (SY_LIKELY(ia >= 0 && ib >= 0)) return kPromotion[ia][ib];
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) return ScalarType::Undefined;
  SY_CHECK(!isQIntType(a) && !isQIntType(b), "promoteTypes: quantized types have no promotion, offending types: ",
           a, " and ", b);
  if (isBitsType(a) || isBitsType(b)) return ScalarType::Undefined;
  SY_CHECK(!isFloat8Type(a) && !isFloat8Type(b), "promoteTypes: Float8 types have no promotion, attempted to promote ",
           a, " and ", b);
  if (isBarebonesUnsignedType(a) || isBarebonesUnsignedType(b)) {
    if (isFloatingType(a)) return a;
    if (isFloatingType(b)) return b;
    SY_ERROR("promoteTypes: UInt16, UInt32 and UInt64 promote only with floating types, attempted to promote ", a,
             " and ", b);
  }
  SY_ERROR("promoteTypes: no promotion for ", a, " and ", b);
}

}  // namespace sy
