// The binary operators added for ExecuTorch's portable library, through the dispatcher: fmod,
// remainder, floor_divide and atan2, the bitwise and logical operators, le and ge, and rsub. (The
// PyTorch oracle, conformance/oracle/, compares every dtype, shape and layout with PyTorch itself.)
//
// References: remainders worked out by hand from their definitions (fmod's takes the dividend's
// sign, Python's % the divisor's: -7 % 3 is 2, fmod(-7, 3) is -1); atan2's quadrants from closed
// forms (atan2(1, -1) = 3 pi / 4).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

TEST(BinaryRemainders, FmodTakesTheDividendsSignAndRemainderTheDivisors) {
  const Tensor a = tensor<int32_t>({-7, 7, -7, 7});
  const Tensor b = tensor<int32_t>({3, -3, -3, 3});
  EXPECT_THAT(valuesOf<int32_t>(ops::fmod(a, b)), ElementsAre(-1, 1, -1, 1));
  EXPECT_THAT(valuesOf<int32_t>(ops::remainder(a, b)), ElementsAre(2, -2, -1, 1));
  EXPECT_THAT(valuesOf<double>(ops::remainder(tensor<double>({-7.5, 7.5}), 2)), ElementsAre(0.5, 1.5));
  EXPECT_THAT(valuesOf<double>(ops::fmod(tensor<double>({-7.5, 7.5}), 2)), ElementsAre(-1.5, 1.5));
  EXPECT_THAT(valuesOf<int32_t>(ops::remainder(tensor<int32_t>({std::numeric_limits<int32_t>::min()}), -1)),
              ElementsAre(0));
}

TEST(BinaryRemainders, AnIntegerDivisorOfZeroIsAnErrorAndAFloatingOneNan) {
  EXPECT_EQ(errorMessageOf([] { ops::fmod(tensor<int64_t>({1}), 0); }), "aten::fmod.Scalar: ZeroDivisionError");
  EXPECT_TRUE(std::isnan(valuesOf<float>(ops::remainder(tensor<float>({1}), 0))[0]));
  EXPECT_THAT(errorMessageOf([] { ops::fmod(tensor<bool>({true}), tensor<bool>({true})); }),
              HasSubstr("aten::fmod.Tensor: argument 'self' has dtype Bool"));
}

TEST(BinaryRemainders, FloorDivideRoundsTowardNegativeInfinity) {
  EXPECT_THAT(valuesOf<int32_t>(ops::floor_divide(tensor<int32_t>({-7, 7}), tensor<int32_t>({2, 2}))),
              ElementsAre(-4, 3));
  EXPECT_THAT(valuesOf<double>(ops::floor_divide(tensor<double>({-7.5}), tensor<double>({2}))), ElementsAre(-4.0));
}

TEST(BinaryRemainders, Atan2FindsTheQuadrantAndGivesFloatForIntegers) {
  const Tensor r = ops::atan2(tensor<int32_t>({1, -1}), tensor<int32_t>({-1, -1}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_FLOAT_EQ(valuesOf<float>(r)[0], static_cast<float>(3 * M_PI / 4));
  EXPECT_FLOAT_EQ(valuesOf<float>(r)[1], static_cast<float>(-3 * M_PI / 4));
}

TEST(BinaryBitwise, CombinesIntegersBitsAndBoolsTruthValues) {
  EXPECT_THAT(valuesOf<int32_t>(ops::bitwise_and(tensor<int32_t>({12, -1}), tensor<int32_t>({10, 6}))), ElementsAre(8, 6));
  EXPECT_THAT(valuesOf<int64_t>(ops::bitwise_or(tensor<int64_t>({12}), 3)), ElementsAre(15));
  EXPECT_THAT(valuesOf<bool>(ops::bitwise_xor(tensor<bool>({true, false}), true)), ElementsAre(false, true));
  EXPECT_THAT(errorMessageOf([] { ops::bitwise_and(tensor<float>({1}), 1); }),
              HasSubstr("aten::bitwise_and.Scalar: argument 'self' has dtype Float"));
}

TEST(BinaryLogical, LogicalOperatorsCompareTruthValuesIntoBool) {
  const Tensor a = tensor<float>({0, 2, std::nanf(""), 0});
  const Tensor b = tensor<int32_t>({0, 0, 1, 5});
  EXPECT_THAT(valuesOf<bool>(ops::logical_and(a, b)), ElementsAre(false, false, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::logical_or(a, b)), ElementsAre(false, true, true, true));
  EXPECT_THAT(valuesOf<bool>(ops::logical_xor(a, b)), ElementsAre(false, true, false, true));
}

TEST(BinaryComparisons, LeAndGeIncludeEquality) {
  EXPECT_THAT(valuesOf<bool>(ops::le(tensor<int32_t>({1, 2, 3}), 2)), ElementsAre(true, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::ge(tensor<double>({1, 2, 3}), tensor<double>({2, 2, 2}))), ElementsAre(false, true, true));
}

TEST(BinaryRsub, SubtractsAlphaTimesSelfFromTheScalar) {
  EXPECT_THAT(valuesOf<int64_t>(ops::rsub(tensor<int64_t>({1, 2}), 10, 3)), ElementsAre(7, 4));
  EXPECT_THAT(valuesOf<float>(ops::rsub(tensor<int32_t>({1}), 0.5)), ElementsAre(-0.5f));
  EXPECT_THAT(errorMessageOf([] { ops::rsub(tensor<bool>({true}), 1); }), HasSubstr("Subtraction, the `-` operator"));
}

}  // namespace
}  // namespace sy
