// A Scalar becomes a tensor element only when the element type can hold it: filling an integral
// tensor with 1e30, NaN or an infinity, or an Int tensor with 2**40, raises PyTorch's "value cannot
// be converted to type Int without overflow" instead of a C++ cast whose result is undefined.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using ::testing::HasSubstr;
using sy::ScalarType;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
namespace ops = sy::ops;

TEST(ScalarConversion, FullOfAnIntTensorRefusesAValueOutsideItsRange) {
  EXPECT_EQ(errorMessageOf([] { sy::full({2}, 1e30, ScalarType::Int); }),
            "value 1e+30 cannot be converted to type Int without overflow");
  EXPECT_EQ(errorMessageOf([] { sy::full({2}, int64_t{1} << 40, ScalarType::Int); }),
            "value 1099511627776 cannot be converted to type Int without overflow");
  EXPECT_THAT(errorMessageOf([] { sy::full({2}, -1e19, ScalarType::Long); }), HasSubstr("type Long without overflow"));
}

TEST(ScalarConversion, NanAndInfinitiesDoNotConvertToIntegralTypes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THAT(errorMessageOf([&] { sy::full({1}, nan, ScalarType::Long); }), HasSubstr("value nan cannot be converted"));
  EXPECT_THAT(errorMessageOf([&] { sy::full({1}, inf, ScalarType::Int); }), HasSubstr("value inf cannot be converted"));
  EXPECT_THAT(errorMessageOf([&] { sy::full({1}, -inf, ScalarType::Int); }), HasSubstr("cannot be converted"));
}

TEST(ScalarConversion, ValuesAtTheEdgesOfTheRangeConvert) {
  EXPECT_EQ(valuesOf<int32_t>(sy::full({1}, 2147483647.0, ScalarType::Int)), std::vector<int32_t>({2147483647}));
  EXPECT_EQ(valuesOf<int32_t>(sy::full({1}, -2147483648.0, ScalarType::Int)), std::vector<int32_t>({INT32_MIN}));
  EXPECT_EQ(valuesOf<int64_t>(sy::full({1}, -9223372036854775808.0, ScalarType::Long)), std::vector<int64_t>({INT64_MIN}));
  EXPECT_EQ(valuesOf<uint8_t>(sy::full({1}, 255.0, ScalarType::Byte)), std::vector<uint8_t>({255}));
  EXPECT_THAT(errorMessageOf([] { sy::full({1}, 9223372036854775808.0, ScalarType::Long); }), HasSubstr("without overflow"));
}

TEST(ScalarConversion, AFractionConvertsToAnIntegralTypeTruncatedOnlyWhenTheValueItselfIsInRange) {
  // c10's checked conversion compares the value, not its truncation, with the type's limits.
  EXPECT_EQ(valuesOf<int32_t>(sy::full({1}, -2.7, ScalarType::Int)), std::vector<int32_t>({-2}));
  EXPECT_EQ(valuesOf<uint8_t>(sy::full({1}, 254.9, ScalarType::Byte)), std::vector<uint8_t>({254}));
  EXPECT_EQ(errorMessageOf([] { sy::full({1}, -0.7, ScalarType::Byte); }),
            "value -0.7 cannot be converted to type Byte without overflow");
  EXPECT_THAT(errorMessageOf([] { sy::full({1}, 255.5, ScalarType::Byte); }), HasSubstr("without overflow"));
  EXPECT_THAT(errorMessageOf([] { sy::full({1}, 2147483647.9, ScalarType::Int); }), HasSubstr("without overflow"));
  EXPECT_THAT(errorMessageOf([] { sy::full({1}, -2147483648.9, ScalarType::Int); }), HasSubstr("without overflow"));
}

TEST(ScalarConversion, FloatTakesInfinitiesAndNanButNotFiniteValuesBeyondItsRange) {
  EXPECT_TRUE(std::isinf(valuesOf<float>(sy::full({1}, std::numeric_limits<double>::infinity()))[0]));
  EXPECT_TRUE(std::isnan(valuesOf<float>(sy::full({1}, std::numeric_limits<double>::quiet_NaN()))[0]));
  EXPECT_EQ(errorMessageOf([] { sy::full({1}, 1e300); }), "value 1e+300 cannot be converted to type Float without overflow");
}

TEST(ScalarConversion, AnyValueConvertsToBoolAndDouble) {
  EXPECT_EQ(valuesOf<bool>(sy::full({2}, 1e30, ScalarType::Bool)), std::vector<bool>({true, true}));
  EXPECT_EQ(valuesOf<bool>(sy::full({1}, std::numeric_limits<double>::quiet_NaN(), ScalarType::Bool)), std::vector<bool>({true}));
  EXPECT_EQ(valuesOf<double>(sy::full({1}, 1e300, ScalarType::Double)), std::vector<double>({1e300}));
}

TEST(ScalarConversion, ArangeRefusesValuesItsDtypeCannotHold) {
  EXPECT_THAT(errorMessageOf([] { sy::arange(0, 5e9, 2e9, ScalarType::Int); }),
              HasSubstr("cannot be converted to type Int without overflow"));
  EXPECT_EQ(errorMessageOf([] { sy::arange(0, int64_t{3} << 31, int64_t{1} << 31, ScalarType::Int); }),
            "value 4294967296 cannot be converted to type Int without overflow");
  EXPECT_EQ(valuesOf<int32_t>(sy::arange(0, 3, 1, ScalarType::Int)), std::vector<int32_t>({0, 1, 2}));
}

TEST(ScalarConversion, AScalarConvertedDirectlyRaisesTheSameError) {
  EXPECT_EQ(errorMessageOf([] { sy::Scalar(1e30).to<int32_t>(); }),
            "value 1e+30 cannot be converted to type Int without overflow");
  EXPECT_THAT(errorMessageOf([] { sy::Scalar(std::nan("")).toLong(); }), HasSubstr("type Long without overflow"));
  EXPECT_EQ(sy::Scalar(int64_t{-5}).to<int32_t>(), -5);
}

TEST(ScalarConversion, AnAlphaOutsideTheIntegralResultTypeIsRefused) {
  Tensor a = sy::tensor<int32_t>({1, 2});
  EXPECT_THAT(errorMessageOf([&] { ops::add(a, a, int64_t{1} << 40); }), HasSubstr("cannot be converted to type Int"));
}

TEST(ScalarConversion, AScalarOperandWrapsAndOverflowsAsInPyTorch) {
  // PyTorch casts a Python number operand inside the loop: an integer wraps into Int, a double
  // beyond Float's range becomes an infinity. Neither is an error.
  Tensor ints = sy::tensor<int32_t>({1});
  EXPECT_EQ(valuesOf<int32_t>(ops::add(ints, (int64_t{1} << 32) + 5)), std::vector<int32_t>({6}));
  EXPECT_TRUE(std::isinf(valuesOf<float>(ops::add(sy::ones({1}), 1e300))[0]));
}

}  // namespace
