// div through the dispatcher: true division (integers give Float), rounding_mode 'trunc' and
// 'floor', Tensor and Scalar divisors, out= and in-place forms, division by zero, NaN.
//
// References: quotients of small integers computed here in double with std::trunc / std::floor
// (exact, since every such quotient is representable well within double precision); true
// quotients computed in the result's own type (float(7) / float(3)), so comparisons are exact;
// Python's float floor division for known cases (1.0 // 0.1 == 9.0, -7.5 // 2 == -4.0).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

constexpr double kDivisionInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// True division

TEST(BinaryDivTrue, IntegerOperandsGiveFloat) {
  Tensor r = ops::div(tensor<int32_t>({7, -7, 1}), tensor<int32_t>({2, 2, 3}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(3.5f, -3.5f, 1.0f / 3.0f));
  Tensor l = ops::div(tensor<int64_t>({1}), 4);
  EXPECT_EQ(l.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(l), ElementsAre(0.25f));
}

TEST(BinaryDivTrue, FloatingOperandsKeepTheirDtype) {
  EXPECT_THAT(valuesOf<float>(ops::div(tensor<float>({1, 2}), tensor<float>({3, 8}))),
              ElementsAre(1.0f / 3.0f, 0.25f));
  EXPECT_THAT(valuesOf<double>(ops::div(tensor<double>({1, 2}), tensor<double>({3, 8}))), ElementsAre(1.0 / 3.0, 0.25));
  EXPECT_THAT(valuesOf<double>(ops::div(tensor<double>({1}), 3)), ElementsAre(1.0 / 3.0));
}

TEST(BinaryDivTrue, BoolOperandsGiveFloat) {
  Tensor r = ops::div(tensor<bool>({true, false}), tensor<bool>({true, true}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(1.0f, 0.0f));
}

TEST(BinaryDivTrue, DivisionByZeroFollowsIeeeEvenForIntegers) {
  const std::vector<float> v = valuesOf<float>(ops::div(tensor<int32_t>({1, -1, 0}), 0));
  EXPECT_EQ(v[0], INFINITY);
  EXPECT_EQ(v[1], -INFINITY);
  EXPECT_TRUE(std::isnan(v[2]));
  const std::vector<double> d = valuesOf<double>(ops::div(tensor<double>({1, kDivisionInf, 2}), tensor<double>({-0.0, kDivisionInf, kDivisionInf})));
  EXPECT_EQ(d[0], -kDivisionInf);
  EXPECT_TRUE(std::isnan(d[1]));
  EXPECT_EQ(d[2], 0.0);
}

TEST(BinaryDivTrue, NoneRoundingModeIsTrueDivision) {
  Tensor r = ops::div(tensor<int64_t>({7}), tensor<int64_t>({2}), std::nullopt);
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(3.5f));
}

TEST(BinaryDivTrue, IntegerResultIntoIntegerOutIsACastError) {
  Tensor out = empty({1}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::div_out(out, tensor<int64_t>({4}), tensor<int64_t>({2})); }),
            "aten::div.out: result type Float can't be cast to the desired output type Long");
}

TEST(BinaryDivTrue, InPlaceOnIntegersIsACastError) {
  Tensor x = tensor<int32_t>({4});
  EXPECT_EQ(errorMessageOf([&] { ops::div_(x, tensor<int32_t>({2})); }),
            "aten::div_.Tensor: result type Float can't be cast to the desired output type Int");
  EXPECT_EQ(errorMessageOf([&] { ops::div_(x, 2); }),
            "aten::div_.Scalar: result type Float can't be cast to the desired output type Int");
}

TEST(BinaryDivTrue, BroadcastTransposedDividendMatchesLogicalElements) {
  Tensor base = tensor<double>({2, 4, 6, 8, 10, 12}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});  // [[2, 8], [4, 10], [6, 12]]
  EXPECT_THAT(valuesOf<double>(ops::div(transposed, tensor<double>({2, 4}))),
              ElementsAre(1.0, 2.0, 2.0, 2.5, 3.0, 3.0));
}

// ---------------------------------------------------------------------------------------------
// Rounding modes

TEST(BinaryDivRounding, TruncAndFloorOfIntegersMatchExactQuotientsForEverySignCombination) {
  std::vector<int32_t> a, b;
  for (int32_t x = -7; x <= 7; ++x) {
    for (int32_t y : {-3, -2, -1, 1, 2, 3}) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  std::vector<int32_t> truncated, floored;
  for (size_t i = 0; i < a.size(); ++i) {
    truncated.push_back(static_cast<int32_t>(std::trunc(static_cast<double>(a[i]) / b[i])));
    floored.push_back(static_cast<int32_t>(std::floor(static_cast<double>(a[i]) / b[i])));
  }
  Tensor ta = tensor<int32_t>(a), tb = tensor<int32_t>(b);
  Tensor t = ops::div(ta, tb, "trunc");
  EXPECT_EQ(t.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(t), ElementsAreArray(truncated));
  EXPECT_THAT(valuesOf<int32_t>(ops::div(ta, tb, "floor")), ElementsAreArray(floored));

  std::vector<int64_t> floored_long(floored.begin(), floored.end());
  std::vector<int64_t> a_long(a.begin(), a.end()), b_long(b.begin(), b.end());
  EXPECT_THAT(valuesOf<int64_t>(ops::div(tensor<int64_t>(a_long), tensor<int64_t>(b_long), "floor")),
              ElementsAreArray(floored_long));
}

TEST(BinaryDivRounding, FloatingTruncAndFloorForEachDtype) {
  Tensor a = tensor<float>({7, -7, 7, -7, 7.5f});
  Tensor b = tensor<float>({2, 2, -2, -2, 0.5f});
  EXPECT_THAT(valuesOf<float>(ops::div(a, b, "trunc")), ElementsAre(3.0f, -3.0f, -3.0f, 3.0f, 15.0f));
  EXPECT_THAT(valuesOf<float>(ops::div(a, b, "floor")), ElementsAre(3.0f, -4.0f, -4.0f, 3.0f, 15.0f));
  Tensor d = tensor<double>({7, -7});
  EXPECT_THAT(valuesOf<double>(ops::div(d, 2, "trunc")), ElementsAre(3.0, -3.0));
  EXPECT_THAT(valuesOf<double>(ops::div(d, 2, "floor")), ElementsAre(3.0, -4.0));
}

TEST(BinaryDivRounding, FloatFloorMatchesPythonFloorDivision) {
  // 0.1 is slightly more than one tenth, so 1.0 // 0.1 is 9.0 although 1.0 / 0.1 rounds to 10.0.
  Tensor a = tensor<double>({1.0, -1.0, 7.5, -7.5, 5, -5, 0.5});
  Tensor b = tensor<double>({0.1, 0.1, 2, 2, kDivisionInf, kDivisionInf, -1});
  EXPECT_THAT(valuesOf<double>(ops::div(a, b, "floor")), ElementsAre(9.0, -10.0, 3.0, -4.0, 0.0, -1.0, -1.0));
}

TEST(BinaryDivRounding, FloatFloorOfAZeroQuotientKeepsItsSign) {
  const std::vector<double> v = valuesOf<double>(ops::div(tensor<double>({-0.0, 0.0}), tensor<double>({1, -1}), "floor"));
  EXPECT_EQ(v[0], 0.0);
  EXPECT_TRUE(std::signbit(v[0]));
  EXPECT_TRUE(std::signbit(v[1]));
}

TEST(BinaryDivRounding, IntegerDivisionByZeroIsZeroDivisionError) {
  EXPECT_EQ(errorMessageOf([] { ops::div(tensor<int32_t>({1, 2}), tensor<int32_t>({1, 0}), "trunc"); }),
            "aten::div.Tensor_mode: ZeroDivisionError");
  EXPECT_EQ(errorMessageOf([] { ops::div(tensor<int64_t>({1}), 0, "floor"); }),
            "aten::div.Scalar_mode: ZeroDivisionError");
  Tensor x = tensor<int64_t>({5});
  EXPECT_EQ(errorMessageOf([&] { ops::div_(x, tensor<int64_t>({0}), "floor"); }),
            "aten::div_.Tensor_mode: ZeroDivisionError");
}

TEST(BinaryDivRounding, FloatingDivisionByZeroFollowsIeee) {
  const std::vector<float> t = valuesOf<float>(ops::div(tensor<float>({1, -1, 0}), 0, "trunc"));
  EXPECT_EQ(t[0], INFINITY);
  EXPECT_EQ(t[1], -INFINITY);
  EXPECT_TRUE(std::isnan(t[2]));
  const std::vector<float> f = valuesOf<float>(ops::div(tensor<float>({1, -1, 0}), 0, "floor"));
  EXPECT_EQ(f[0], INFINITY);
  EXPECT_EQ(f[1], -INFINITY);
  EXPECT_TRUE(std::isnan(f[2]));
}

TEST(BinaryDivRounding, NanPropagatesThroughEveryMode) {
  for (std::optional<std::string_view> mode : {std::optional<std::string_view>(), std::optional<std::string_view>("trunc"),
                                               std::optional<std::string_view>("floor")}) {
    const std::vector<double> v = valuesOf<double>(ops::div(tensor<double>({std::nan(""), 1}), tensor<double>({2, std::nan("")}), mode));
    EXPECT_TRUE(std::isnan(v[0])) << mode.value_or("None");
    EXPECT_TRUE(std::isnan(v[1])) << mode.value_or("None");
  }
}

TEST(BinaryDivRounding, MostNegativeIntegerOverMinusOneWrapsInsteadOfTrapping) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_THAT(valuesOf<int32_t>(ops::div(tensor<int32_t>({kMin}), tensor<int32_t>({-1}), "trunc")), ElementsAre(kMin));
  constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
  EXPECT_THAT(valuesOf<int64_t>(ops::div(tensor<int64_t>({kLongMin}), -1, "floor")), ElementsAre(kLongMin));
}

TEST(BinaryDivRounding, FloatingScalarDivisorPromotesIntegersToFloat) {
  Tensor r = ops::div(tensor<int32_t>({7, -7}), 2.5, "floor");  // 2.8 and -2.8
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(2.0f, -3.0f));
}

TEST(BinaryDivRounding, UnknownRoundingModeIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::div(ones({1}), ones({1}), "round"); }),
            "aten::div.Tensor_mode: div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
}

TEST(BinaryDivRounding, BoolOperandsHaveNoRoundedDivision) {
  EXPECT_EQ(errorMessageOf([] { ops::div(tensor<bool>({true}), tensor<bool>({true}), "floor"); }),
            "aten::div.Tensor_mode: rounding_mode='floor' is not supported for Bool inputs (self is Bool, other is "
            "Bool)");
  EXPECT_EQ(errorMessageOf([] { ops::div(tensor<bool>({true}), true, "trunc"); }),
            "aten::div.Scalar_mode: rounding_mode='trunc' is not supported for Bool inputs (self is Bool, other is "
            "Bool)");
}

TEST(BinaryDivRounding, OutAndInPlaceFormsRoundLikeTheFunctionalForm) {
  Tensor out = empty({7}, ScalarType::Long);
  ops::div_out(out, tensor<int64_t>({7, -7}), tensor<int64_t>({2}), "floor");
  EXPECT_THAT(out.sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(3, -4));
  ops::div_out(out, tensor<int64_t>({7, -7}), 2, "trunc");
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(3, -3));
  Tensor x = tensor<int32_t>({9, -9});
  ops::div_(x, 4, "floor");
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(2, -3));
  ops::div_(x, tensor<int32_t>({2}), "trunc");
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(1, -1));
}

TEST(BinaryDivRounding, RoundedIntegerResultIntoFloatOutIsConverted) {
  Tensor out = empty({2}, ScalarType::Double);
  ops::div_out(out, tensor<int32_t>({7, -7}), tensor<int32_t>({2, 2}), "floor");
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(3.0, -4.0));
}

}  // namespace
}  // namespace sy
