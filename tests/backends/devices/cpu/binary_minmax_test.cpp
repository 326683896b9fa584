// maximum and minimum through the dispatcher: every dtype, NaN propagation, infinities,
// broadcasting, promotion and the out= form.
//
// References are computed here per element with a plain comparison (or written out); all values
// are exact.
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

constexpr double kMinMaxInf = std::numeric_limits<double>::infinity();

TEST(BinaryMaximum, PicksTheLargerElementForEachDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::maximum(tensor<int32_t>({1, -5, 3}), tensor<int32_t>({2, -6, 3}))),
              ElementsAre(2, -5, 3));
  EXPECT_THAT(valuesOf<int64_t>(ops::maximum(tensor<int64_t>({1, -5}), tensor<int64_t>({2, -6}))), ElementsAre(2, -5));
  EXPECT_THAT(valuesOf<float>(ops::maximum(tensor<float>({1.5f, -5}), tensor<float>({1.25f, -4.5f}))),
              ElementsAre(1.5f, -4.5f));
  EXPECT_THAT(valuesOf<double>(ops::maximum(tensor<double>({1.5, -5}), tensor<double>({1.25, -4.5}))),
              ElementsAre(1.5, -4.5));
}

TEST(BinaryMinimum, PicksTheSmallerElementForEachDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::minimum(tensor<int32_t>({1, -5, 3}), tensor<int32_t>({2, -6, 3}))),
              ElementsAre(1, -6, 3));
  EXPECT_THAT(valuesOf<int64_t>(ops::minimum(tensor<int64_t>({1, -5}), tensor<int64_t>({2, -6}))), ElementsAre(1, -6));
  EXPECT_THAT(valuesOf<float>(ops::minimum(tensor<float>({1.5f, -5}), tensor<float>({1.25f, -4.5f}))),
              ElementsAre(1.25f, -5.0f));
  EXPECT_THAT(valuesOf<double>(ops::minimum(tensor<double>({1.5, -5}), tensor<double>({1.25, -4.5}))),
              ElementsAre(1.25, -5.0));
}

TEST(BinaryMaximum, OfBoolsIsLogicalOr) {
  Tensor r = ops::maximum(tensor<bool>({false, false, true, true}), tensor<bool>({false, true, false, true}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(false, true, true, true));
}

TEST(BinaryMinimum, OfBoolsIsLogicalAnd) {
  Tensor r = ops::minimum(tensor<bool>({false, false, true, true}), tensor<bool>({false, true, false, true}));
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(false, false, false, true));
}

TEST(BinaryMaximum, NanOnEitherSidePropagates) {
  const double nan = std::nan("");
  const std::vector<double> v =
      valuesOf<double>(ops::maximum(tensor<double>({nan, 1, nan, kMinMaxInf}), tensor<double>({1, nan, nan, nan})));
  for (double x : v) EXPECT_TRUE(std::isnan(x)) << x;
  const std::vector<float> f = valuesOf<float>(ops::maximum(tensor<float>({NAN, 3}), tensor<float>({-INFINITY, NAN})));
  EXPECT_TRUE(std::isnan(f[0]));
  EXPECT_TRUE(std::isnan(f[1]));
}

TEST(BinaryMinimum, NanOnEitherSidePropagates) {
  const double nan = std::nan("");
  const std::vector<double> v =
      valuesOf<double>(ops::minimum(tensor<double>({nan, -kMinMaxInf, 0}), tensor<double>({-kMinMaxInf, nan, nan})));
  for (double x : v) EXPECT_TRUE(std::isnan(x)) << x;
}

TEST(BinaryMaximum, InfinitiesCompareAsTheExtremes) {
  EXPECT_THAT(valuesOf<double>(ops::maximum(tensor<double>({kMinMaxInf, -kMinMaxInf}), tensor<double>({1e308, -1e308}))),
              ElementsAre(kMinMaxInf, -1e308));
  EXPECT_THAT(valuesOf<double>(ops::minimum(tensor<double>({kMinMaxInf, -kMinMaxInf}), tensor<double>({1e308, -1e308}))),
              ElementsAre(1e308, -kMinMaxInf));
}

TEST(BinaryMaximum, MixedDtypesArePromoted) {
  Tensor r = ops::maximum(tensor<int32_t>({1, 4}), tensor<float>({1.5f, 2}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(1.5f, 4.0f));
  Tensor l = ops::minimum(tensor<bool>({true, false}), tensor<int64_t>({0, 5}));
  EXPECT_EQ(l.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(l), ElementsAre(0, 0));
}

TEST(BinaryMaximum, BroadcastAgainstAStrideZeroViewMatchesANaiveLoop) {
  // A (4, 3) expanded view of one row against a (4, 1) column.
  Tensor row = tensor<int64_t>({5, -1, 9});
  Tensor expanded = viewOf(row, {4, 3}, {0, 1});
  const std::vector<int64_t> column = {0, 6, -2, 10};
  Tensor r = ops::maximum(expanded, tensor<int64_t>(column, {4, 1}));
  std::vector<int64_t> expected;
  for (int i = 0; i < 4; ++i) {
    for (int64_t x : {5, -1, 9}) expected.push_back(x > column[i] ? x : column[i]);
  }
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAreArray(expected));
}

TEST(BinaryMinimum, OutIsResizedAndReturned) {
  Tensor out = empty({1}, ScalarType::Double);
  EXPECT_EQ(&ops::minimum_out(out, tensor<double>({3, 1}, {2, 1}), tensor<double>({2, 0})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(2.0, 0.0, 1.0, 0.0));
}

TEST(BinaryMaximum, FloatResultIntoIntegerOutIsACastError) {
  Tensor out = empty({2}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::maximum_out(out, tensor<float>({1, 2}), tensor<int64_t>({1, 2})); }),
            "aten::maximum.out: result type Float can't be cast to the desired output type Long");
}

TEST(BinaryMaximum, NonBroadcastableShapesNameTheOperator) {
  EXPECT_EQ(errorMessageOf([] { ops::maximum(zeros({2}), zeros({3})); }),
            "aten::maximum: the shapes (2,) and (3,) cannot be broadcast together: the size of tensor a (2) must "
            "match the size of tensor b (3) at non-singleton dimension 0");
}

}  // namespace
}  // namespace sy
