// add, sub and mul through the dispatcher: Tensor and Scalar operands, alpha, every dtype, Bool
// rules, integer wrap-around and IEEE special values. (Out=, in-place and layout behaviour common to
// every binary operator is in binary_forms_test.cpp; result dtypes in type_promotion_test.cpp.)
//
// Expected values are written out by hand or computed here with plain C++ arithmetic on the same
// inputs. Results of + - * on small integers and on binary fractions (0.5, 0.25) are exact in
// Float and Double, so comparisons are exact unless a tolerance is stated.
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
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

constexpr double kBinaryInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// add

TEST(BinaryAdd, ScalarIsAddedToEveryElementKeepingTheTensorDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::add(tensor<int32_t>({1, -2, 30}), 3)), ElementsAre(4, 1, 33));
  EXPECT_THAT(valuesOf<int64_t>(ops::add(tensor<int64_t>({1, -2, 30}), -3)), ElementsAre(-2, -5, 27));
  EXPECT_THAT(valuesOf<float>(ops::add(tensor<float>({1.5f, -2}), 0.25)), ElementsAre(1.75f, -1.75f));
  EXPECT_THAT(valuesOf<double>(ops::add(tensor<double>({1.5, -2}), 0.25)), ElementsAre(1.75, -1.75));
}

TEST(BinaryAdd, BoolTensorPlusBoolScalarIsLogicalOr) {
  Tensor r = ops::add(tensor<bool>({false, true}), true);
  EXPECT_EQ(r.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(true, true));
  EXPECT_THAT(valuesOf<bool>(ops::add(tensor<bool>({false, true}), false)), ElementsAre(false, true));
}

TEST(BinaryAdd, AlphaScalesAScalarOther) {
  // 10 + 3 * 2 and 1.5 + (-0.5) * 4
  EXPECT_THAT(valuesOf<int64_t>(ops::add(tensor<int64_t>({10, 20}), 2, 3)), ElementsAre(16, 26));
  EXPECT_THAT(valuesOf<double>(ops::add(tensor<double>({1.5}), 4, -0.5)), ElementsAre(-0.5));
}

TEST(BinaryAdd, IntegerOverflowWrapsAround) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_THAT(valuesOf<int32_t>(ops::add(tensor<int32_t>({kMax}), tensor<int32_t>({1}))), ElementsAre(kMin));
  constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(valuesOf<int64_t>(ops::add(tensor<int64_t>({kLongMax}), 1)),
              ElementsAre(std::numeric_limits<int64_t>::min()));
}

TEST(BinaryAdd, InfinitiesAndNanPropagateAsIeee) {
  Tensor r = ops::add(tensor<double>({kBinaryInf, kBinaryInf, std::nan(""), 1}), tensor<double>({1, -kBinaryInf, 1, -kBinaryInf}));
  const std::vector<double> v = valuesOf<double>(r);
  EXPECT_EQ(v[0], kBinaryInf);
  EXPECT_TRUE(std::isnan(v[1]));  // inf - inf
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], -kBinaryInf);
}

TEST(BinaryAdd, BooleanAlphaWithNumericResultIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::add(tensor<int64_t>({1}), tensor<int64_t>({1}), true); }),
            "aten::add.Tensor: Boolean alpha only supported for Boolean results.");
}

TEST(BinaryAdd, FloatingAlphaWithIntegralScalarFormIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::add(tensor<int32_t>({1}), 1, 0.5); }),
            "aten::add.Scalar: For integral input tensors, argument alpha must not be a floating point number.");
}

TEST(BinaryAdd, ThreeDimensionalBroadcastMatchesANaiveLoop) {
  // a: (4, 1, 5), b: (3, 1) -> (4, 3, 5); out[i][j][k] = a[i][0][k] + b[j][0].
  std::vector<float> a_values(20), b_values = {100, 200, 300};
  for (int i = 0; i < 20; ++i) a_values[i] = static_cast<float>(i);
  Tensor r = ops::add(tensor<float>(a_values, {4, 1, 5}), tensor<float>(b_values, {3, 1}));
  ASSERT_THAT(r.sizes(), ElementsAre(4, 3, 5));
  std::vector<float> expected;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 5; ++k) expected.push_back(a_values[i * 5 + k] + b_values[j]);
    }
  }
  EXPECT_THAT(valuesOf<float>(r), ElementsAreArray(expected));
}

// ---------------------------------------------------------------------------------------------
// sub

TEST(BinarySub, SubtractsOtherForEachNumericDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::sub(tensor<int32_t>({5, -2}), tensor<int32_t>({7, -9}))), ElementsAre(-2, 7));
  EXPECT_THAT(valuesOf<int64_t>(ops::sub(tensor<int64_t>({5, -2}), tensor<int64_t>({7, -9}))), ElementsAre(-2, 7));
  EXPECT_THAT(valuesOf<float>(ops::sub(tensor<float>({1.5f, 0}), tensor<float>({0.25f, 2}))),
              ElementsAre(1.25f, -2.0f));
  EXPECT_THAT(valuesOf<double>(ops::sub(tensor<double>({1.5, 0}), tensor<double>({0.25, 2}))),
              ElementsAre(1.25, -2.0));
}

TEST(BinarySub, AlphaScalesOtherBeforeSubtracting) {
  // 10 - 3 * 4 and 1 - 0.5 * 4
  EXPECT_THAT(valuesOf<int64_t>(ops::sub(tensor<int64_t>({10}), tensor<int64_t>({4}), 3)), ElementsAre(-2));
  EXPECT_THAT(valuesOf<float>(ops::sub(tensor<float>({1}), tensor<float>({4}), 0.5)), ElementsAre(-1.0f));
}

TEST(BinarySub, ScalarOverloadSubtractsFromEveryElement) {
  EXPECT_THAT(valuesOf<int32_t>(ops::sub(tensor<int32_t>({1, 2, 3}), 2)), ElementsAre(-1, 0, 1));
  EXPECT_THAT(valuesOf<double>(ops::sub(tensor<double>({1, 2}), 0.5, 2)), ElementsAre(0.0, 1.0));
  Tensor promoted = ops::sub(tensor<int64_t>({1, 2}), 0.5);  // an Int tensor - 0.5 is Float
  EXPECT_EQ(promoted.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(promoted), ElementsAre(0.5f, 1.5f));
}

TEST(BinarySub, IntegerUnderflowWrapsAround) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_THAT(valuesOf<int32_t>(ops::sub(tensor<int32_t>({kMin}), 1)), ElementsAre(std::numeric_limits<int32_t>::max()));
}

TEST(BinarySub, TwoBoolTensorsAreAnErrorPointingAtXor) {
  EXPECT_EQ(errorMessageOf([] { ops::sub(tensor<bool>({true}), tensor<bool>({false})); }),
            "aten::sub.Tensor: Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.");
}

TEST(BinarySub, OneBoolOperandIsAnErrorPointingAtLogicalNot) {
  const std::string tail =
      ": Subtraction, the `-` operator, with a bool tensor is not supported. "
      "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";
  EXPECT_EQ(errorMessageOf([] { ops::sub(tensor<int32_t>({1}), tensor<bool>({true})); }), "aten::sub.Tensor" + tail);
  EXPECT_EQ(errorMessageOf([] { ops::sub(tensor<bool>({true}), 1); }), "aten::sub.Scalar" + tail);
  EXPECT_EQ(errorMessageOf([] { ops::sub(tensor<float>({1}), true); }), "aten::sub.Scalar" + tail);
  Tensor out = empty({1});
  EXPECT_EQ(errorMessageOf([&] { ops::sub_out(out, tensor<bool>({true}), tensor<float>({1})); }), "aten::sub.out" + tail);
}

TEST(BinarySub, InfinityMinusInfinityIsNan) {
  const std::vector<float> v = valuesOf<float>(ops::sub(tensor<float>({INFINITY, INFINITY}), tensor<float>({INFINITY, 1})));
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], INFINITY);
}

TEST(BinarySub, TransposedMinusSlicedMatchesLogicalElements) {
  Tensor base = tensor<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});               // [[1, 4], [2, 5], [3, 6]]
  Tensor long_row = tensor<int64_t>({0, 10, 0, 20, 0, 30, 0, 40, 0, 50, 0, 60});
  Tensor sliced = viewOf(long_row, {3, 2}, {4, 2}, 1);            // every other element, rows of 2
  EXPECT_THAT(valuesOf<int64_t>(sliced), ElementsAre(10, 20, 30, 40, 50, 60));
  EXPECT_THAT(valuesOf<int64_t>(ops::sub(transposed, sliced)), ElementsAre(-9, -16, -28, -35, -47, -54));
}

// ---------------------------------------------------------------------------------------------
// mul

TEST(BinaryMul, ScalarMultipliesEveryElementForEachDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::mul(tensor<int32_t>({2, -3}), 4)), ElementsAre(8, -12));
  EXPECT_THAT(valuesOf<int64_t>(ops::mul(tensor<int64_t>({2, -3}), -4)), ElementsAre(-8, 12));
  EXPECT_THAT(valuesOf<float>(ops::mul(tensor<float>({2, -3}), 0.5)), ElementsAre(1.0f, -1.5f));
  EXPECT_THAT(valuesOf<double>(ops::mul(tensor<double>({2, -3}), 0.5)), ElementsAre(1.0, -1.5));
  EXPECT_THAT(valuesOf<bool>(ops::mul(tensor<bool>({true, false}), true)), ElementsAre(true, false));
}

TEST(BinaryMul, BoolTensorTimesIntegerScalarCountsAsLong) {
  Tensor r = ops::mul(tensor<bool>({true, false}), 3);
  EXPECT_EQ(r.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAre(3, 0));
}

TEST(BinaryMul, IntegerOverflowWrapsAround) {
  // 2^16 * 2^16 = 2^32, which is 0 modulo 2^32.
  EXPECT_THAT(valuesOf<int32_t>(ops::mul(tensor<int32_t>({65536, 65537}), 65536)), ElementsAre(0, 65536));
}

TEST(BinaryMul, ZeroTimesInfinityIsNanAndSignsFollowIeee) {
  const std::vector<double> v = valuesOf<double>(ops::mul(tensor<double>({0, -2, 3}), tensor<double>({kBinaryInf, kBinaryInf, -0.0})));
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], -kBinaryInf);
  EXPECT_EQ(v[2], 0.0);
  EXPECT_TRUE(std::signbit(v[2]));
}

TEST(BinaryMul, LargeContiguousProductMatchesANaiveLoop) {
  // Long enough to run the vectorised row loops over several blocks, with a ragged tail.
  const int n = 1031;
  std::vector<double> a(n), b(n), expected(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5 * i - 100;
    b[i] = 0.25 * (i % 17) - 2;
    expected[i] = a[i] * b[i];
  }
  EXPECT_THAT(valuesOf<double>(ops::mul(tensor<double>(a), tensor<double>(b))), ElementsAreArray(expected));
}

}  // namespace
}  // namespace sy
