// The schema parser's bounds on hostile input: nesting of types and the size of an expanded
// default are limited, so a short schema can exhaust neither the stack nor memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "switchyard/dispatcher/function_schema.h"

namespace sy {
namespace {

using ::testing::HasSubstr;

std::string parseError(const std::string& schema) {
  try {
    parseSchema(schema);
  } catch (const Error& e) {
    return e.what();
  }
  return "(parsed without error)";
}

std::string repeated(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

TEST(SchemaBounds, DeeplyNestedListTypeIsAnErrorWithItsColumnNotACrash) {
  const std::string error = parseError("t::f(int" + repeated("[]", 200000) + " x) -> ()");
  EXPECT_THAT(error, HasSubstr("nested too deeply"));
  // The first suffix past the limit of 16 starts at column 9 + 2 * 16.
  EXPECT_THAT(error, HasSubstr("at column 41:"));
}

TEST(SchemaBounds, DeeplyNestedReturnTypeIsAnError) {
  EXPECT_THAT(parseError("t::f() -> Tensor" + repeated("?[]", 100000)), HasSubstr("nested too deeply"));
}

TEST(SchemaBounds, SixteenLevelsOfTypeNestingStillParse) {
  const FunctionSchema s = parseSchema("t::f(int" + repeated("[]", 15) + "? x) -> ()");
  EXPECT_EQ(s.arguments()[0].type->str(), "int" + repeated("[]", 15) + "?");
}

TEST(SchemaBounds, ScalarDefaultRepeatedOverNestedFixedListsIsBounded) {
  const std::string error = parseError("t::f(int[64][64][64][64] x=0) -> ()");
  EXPECT_THAT(error, HasSubstr("at column 28:"));
  EXPECT_THAT(error, HasSubstr("default value 0 of type int[64][64][64][64] expands to more than 4096 elements"));
}

TEST(SchemaBounds, LargestAllowedExpandedDefaultStillParses) {
  const FunctionSchema s = parseSchema("t::f(int[64][64] x=1) -> ()");
  const IValue& value = *s.arguments()[0].default_value;
  ASSERT_EQ(value.toList().size(), 64u);
  EXPECT_EQ(value.toList()[63].toIntList().size(), 64u);
}

}  // namespace
}  // namespace sy
