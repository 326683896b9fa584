// ScalarType's table against PyTorch's, written out here: every enumerator's number (c10's and
// ExecuTorch's), name, element size and class, the program format's numbering, PyTorch's promotion
// table entry by entry, and canCast.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/core/error.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/core/scalar_type.h"

namespace sy {
namespace {

using ::testing::HasSubstr;

struct ExpectedScalarType {
  int code;
  const char* name;
  size_t size;
  // f: floating, i: integral, b: bool, c: complex, q: quantized, x: bits.
  char kind;
};

constexpr ExpectedScalarType kExpectedScalarTypes[] = {
    {0, "Byte", 1, 'i'},           {1, "Char", 1, 'i'},           {2, "Short", 2, 'i'},
    {3, "Int", 4, 'i'},            {4, "Long", 8, 'i'},           {5, "Half", 2, 'f'},
    {6, "Float", 4, 'f'},          {7, "Double", 8, 'f'},         {8, "ComplexHalf", 4, 'c'},
    {9, "ComplexFloat", 8, 'c'},   {10, "ComplexDouble", 16, 'c'}, {11, "Bool", 1, 'b'},
    {12, "QInt8", 1, 'q'},         {13, "QUInt8", 1, 'q'},        {14, "QInt32", 4, 'q'},
    {15, "BFloat16", 2, 'f'},      {16, "QUInt4x2", 1, 'q'},      {17, "QUInt2x4", 1, 'q'},
    {18, "Bits1x8", 1, 'x'},       {19, "Bits2x4", 1, 'x'},       {20, "Bits4x2", 1, 'x'},
    {21, "Bits8", 1, 'x'},         {22, "Bits16", 2, 'x'},        {23, "Float8_e5m2", 1, 'f'},
    {24, "Float8_e4m3fn", 1, 'f'}, {25, "Float8_e5m2fnuz", 1, 'f'}, {26, "Float8_e4m3fnuz", 1, 'f'},
    {27, "UInt16", 2, 'i'},        {28, "UInt32", 4, 'i'},        {29, "UInt64", 8, 'i'},
};

TEST(ScalarTypeTable, EveryTypeHasPyTorchsNumberNameSizeAndClass) {
  ASSERT_EQ(kNumScalarTypes, 30);
  for (const ExpectedScalarType& e : kExpectedScalarTypes) {
    const auto t = static_cast<ScalarType>(e.code);
    SCOPED_TRACE(e.name);
    EXPECT_EQ(toString(t), e.name);
    EXPECT_EQ(scalarTypeFromCode(e.code), t);
    EXPECT_EQ(elementSize(t), e.size);
    EXPECT_EQ(isFloatingType(t), e.kind == 'f');
    EXPECT_EQ(isIntegralType(t, /*include_bool=*/false), e.kind == 'i');
    EXPECT_EQ(isIntegralType(t, /*include_bool=*/true), e.kind == 'i' || e.kind == 'b');
    EXPECT_EQ(isComplexType(t), e.kind == 'c');
    EXPECT_EQ(isQIntType(t), e.kind == 'q');
    EXPECT_EQ(isBitsType(t), e.kind == 'x');
    EXPECT_EQ(isFloat8Type(t), std::string(e.name).rfind("Float8", 0) == 0);
    EXPECT_EQ(isReducedFloatingType(t), e.kind == 'f' && e.size < 4);
    EXPECT_EQ(isBarebonesUnsignedType(t), e.code >= 27);
    EXPECT_EQ(isRealType(t), e.kind == 'f' || e.kind == 'i' || e.kind == 'b');
    // visitScalarType visits the real types, visitEveryScalarType every type, each with the C++
    // type whose size is the element size.
    size_t visited_size = 0;
    EXPECT_EQ(visitScalarType(t, [&](auto tag) { visited_size = sizeof(typename decltype(tag)::type); }), isRealType(t));
    EXPECT_TRUE(visitEveryScalarType(t, [&](auto tag) { visited_size = sizeof(typename decltype(tag)::type); }));
    EXPECT_EQ(visited_size, e.size);
  }
  EXPECT_EQ(scalarTypeFromCode(30), std::nullopt);
  EXPECT_EQ(scalarTypeFromCode(-1), std::nullopt);
  EXPECT_EQ(elementSize(ScalarType::Undefined), 0u);
  EXPECT_EQ(toString(ScalarType::Undefined), "Undefined");
  EXPECT_TRUE(isSignedType(ScalarType::Char));
  EXPECT_FALSE(isSignedType(ScalarType::Byte));
  EXPECT_FALSE(isSignedType(ScalarType::UInt64));
  EXPECT_TRUE(isSignedType(ScalarType::Half));
}

TEST(ScalarTypeTable, TheProgramFormatsTypesAreTheScalarTypesOfTheSameNumber) {
  // ExecuTorch's schema/scalar_type.fbs: every type but the complex ones and Bits1x8..Bits8.
  int format_types = 0;
  for (const ExpectedScalarType& e : kExpectedScalarTypes) {
    const auto t = static_cast<ScalarType>(e.code);
    std::optional<ProgramScalarType> p = programScalarTypeFromCode(e.code);
    const bool in_format = e.kind != 'c' && (e.kind != 'x' || e.code == 22);
    ASSERT_EQ(p.has_value(), in_format) << e.name;
    EXPECT_EQ(toProgramScalarType(t).has_value(), in_format) << e.name;
    if (!p) continue;
    ++format_types;
    EXPECT_EQ(toString(*p), e.name);
    EXPECT_EQ(elementSize(*p), e.size);
    EXPECT_EQ(toSwitchyardScalarType(*p), t);
  }
  EXPECT_EQ(format_types, 23);
}

// PyTorch's torch.promote_types over the 13 types it promotes, by short name.
constexpr const char* kPromotionAxes = "u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf";
constexpr const char* kPromotionRows[] = {
    /* u1 */ "u1 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 u1 bf",
    /* i1 */ "i2 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 i1 bf",
    /* i2 */ "i2 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 i2 bf",
    /* i4 */ "i4 i4 i4 i4 i8 f2 f4 f8 c2 c4 c8 i4 bf",
    /* i8 */ "i8 i8 i8 i8 i8 f2 f4 f8 c2 c4 c8 i8 bf",
    /* f2 */ "f2 f2 f2 f2 f2 f2 f4 f8 c2 c4 c8 f2 f4",
    /* f4 */ "f4 f4 f4 f4 f4 f4 f4 f8 c4 c4 c8 f4 f4",
    /* f8 */ "f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 c8 f8 f8",
    /* c2 */ "c2 c2 c2 c2 c2 c2 c4 c8 c2 c4 c8 c2 c4",
    /* c4 */ "c4 c4 c4 c4 c4 c4 c4 c8 c4 c4 c8 c4 c4",
    /* c8 */ "c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8",
    /* b1 */ "u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf",
    /* bf */ "bf bf bf bf bf f4 f4 f8 c4 c4 c8 bf bf",
};

std::vector<std::string> promotionWords(const char* line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

TEST(ScalarTypePromotion, IsPyTorchsTableEntryByEntry) {
  const std::map<std::string, ScalarType> by_short_name = {
      {"u1", ScalarType::Byte},         {"i1", ScalarType::Char},        {"i2", ScalarType::Short},
      {"i4", ScalarType::Int},          {"i8", ScalarType::Long},        {"f2", ScalarType::Half},
      {"f4", ScalarType::Float},        {"f8", ScalarType::Double},      {"c2", ScalarType::ComplexHalf},
      {"c4", ScalarType::ComplexFloat}, {"c8", ScalarType::ComplexDouble}, {"b1", ScalarType::Bool},
      {"bf", ScalarType::BFloat16}};
  const std::vector<std::string> axes = promotionWords(kPromotionAxes);
  ASSERT_EQ(axes.size(), 13u);
  int checked = 0;
  for (size_t row = 0; row < axes.size(); ++row) {
    const std::vector<std::string> entries = promotionWords(kPromotionRows[row]);
    ASSERT_EQ(entries.size(), axes.size());
    for (size_t col = 0; col < axes.size(); ++col) {
      const ScalarType a = by_short_name.at(axes[row]);
      const ScalarType b = by_short_name.at(axes[col]);
      EXPECT_EQ(promoteTypes(a, b), by_short_name.at(entries[col])) << a << " with " << b;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 169);
}

TEST(ScalarTypePromotion, UnsignedWideTypesPromoteOnlyWithFloatingTypes) {
  EXPECT_EQ(promoteTypes(ScalarType::UInt16, ScalarType::Float), ScalarType::Float);
  EXPECT_EQ(promoteTypes(ScalarType::Half, ScalarType::UInt64), ScalarType::Half);
  EXPECT_EQ(promoteTypes(ScalarType::UInt32, ScalarType::UInt32), ScalarType::UInt32);
  try {
    promoteTypes(ScalarType::UInt16, ScalarType::Int);
    FAIL() << "UInt16 with Int promoted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("UInt16, UInt32 and UInt64 promote only with floating types, attempted to "
                                    "promote UInt16 and Int"));
  }
}

TEST(ScalarTypePromotion, QuantizedAndFloat8TypesRaiseAndBitsTypesAreUndefined) {
  EXPECT_EQ(promoteTypes(ScalarType::QInt8, ScalarType::QInt8), ScalarType::QInt8);
  EXPECT_EQ(promoteTypes(ScalarType::Bits16, ScalarType::Float), ScalarType::Undefined);
  EXPECT_EQ(promoteTypes(ScalarType::Undefined, ScalarType::Float), ScalarType::Undefined);
  try {
    promoteTypes(ScalarType::QUInt8, ScalarType::Float);
    FAIL() << "QUInt8 with Float promoted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("quantized types have no promotion, offending types: QUInt8 and Float"));
  }
  try {
    promoteTypes(ScalarType::Float8_e4m3fn, ScalarType::Half);
    FAIL() << "Float8_e4m3fn with Half promoted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Float8 types have no promotion, attempted to promote Float8_e4m3fn and Half"));
  }
}

TEST(ScalarTypeCasting, CanCastKeepsPyTorchsCategories) {
  EXPECT_TRUE(canCast(ScalarType::Char, ScalarType::Half));
  EXPECT_TRUE(canCast(ScalarType::Half, ScalarType::ComplexFloat));
  EXPECT_TRUE(canCast(ScalarType::Bool, ScalarType::Byte));
  EXPECT_TRUE(canCast(ScalarType::Double, ScalarType::BFloat16));
  EXPECT_FALSE(canCast(ScalarType::BFloat16, ScalarType::Short));
  EXPECT_FALSE(canCast(ScalarType::Half, ScalarType::UInt16));
  EXPECT_FALSE(canCast(ScalarType::ComplexFloat, ScalarType::Double));
  EXPECT_FALSE(canCast(ScalarType::Byte, ScalarType::Bool));
  EXPECT_FALSE(canCast(ScalarType::Half, ScalarType::Bool));
}

}  // namespace
}  // namespace sy
