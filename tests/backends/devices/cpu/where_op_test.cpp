// where(condition, self, other) through the dispatcher: selection for every dtype, three-way
// broadcasting, result-type promotion, the Scalar overloads, the out= form and its checks.
//
// References are computed here with the conditional operator per element; values are copied, not
// computed, so every comparison is exact.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

const std::vector<bool> kMask = {true, false, false, true};

template <class T>
std::vector<T> selected(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  for (size_t i = 0; i < kMask.size(); ++i) out.push_back(kMask[i] ? a[i] : b[i]);
  return out;
}

TEST(Where, SelectsSelfWhereTrueAndOtherWhereFalseForEveryDtype) {
  const Tensor condition = tensor<bool>(kMask);
  EXPECT_THAT(valuesOf<int32_t>(ops::where(condition, tensor<int32_t>({1, 2, 3, 4}), tensor<int32_t>({-1, -2, -3, -4}))),
              ElementsAreArray(selected<int32_t>({1, 2, 3, 4}, {-1, -2, -3, -4})));
  EXPECT_THAT(valuesOf<int64_t>(ops::where(condition, tensor<int64_t>({1, 2, 3, 4}), tensor<int64_t>({5, 6, 7, 8}))),
              ElementsAreArray(selected<int64_t>({1, 2, 3, 4}, {5, 6, 7, 8})));
  EXPECT_THAT(valuesOf<float>(ops::where(condition, tensor<float>({.5f, 1, 2, 3}), tensor<float>({9, 8, 7, 6}))),
              ElementsAreArray(selected<float>({.5f, 1, 2, 3}, {9, 8, 7, 6})));
  EXPECT_THAT(valuesOf<double>(ops::where(condition, tensor<double>({.5, 1, 2, 3}), tensor<double>({9, 8, 7, 6}))),
              ElementsAreArray(selected<double>({.5, 1, 2, 3}, {9, 8, 7, 6})));
  EXPECT_THAT(valuesOf<bool>(ops::where(condition, tensor<bool>({true, true, true, true}), tensor<bool>(kMask))),
              ElementsAre(true, false, false, true));
}

TEST(Where, NanAndInfinityPassThroughUnchanged) {
  Tensor r = ops::where(tensor<bool>({true, false}), tensor<double>({std::nan(""), 0}),
                        tensor<double>({0, -INFINITY}));
  const std::vector<double> v = valuesOf<double>(r);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], -INFINITY);
}

TEST(Where, ConditionSelfAndOtherBroadcastTogether) {
  // condition (2, 1, 1), self (1, 3, 1), other (4,) -> (2, 3, 4).
  const std::vector<bool> cond = {true, false};
  const std::vector<int64_t> self = {10, 20, 30};
  const std::vector<int64_t> other = {-1, -2, -3, -4};
  Tensor r = ops::where(tensor<bool>(cond, {2, 1, 1}), tensor<int64_t>(self, {1, 3, 1}), tensor<int64_t>(other));
  ASSERT_THAT(r.sizes(), ElementsAre(2, 3, 4));
  std::vector<int64_t> expected;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) expected.push_back(cond[i] ? self[j] : other[k]);
    }
  }
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAreArray(expected));
}

TEST(Where, NonBroadcastableShapesNameAllThreeOperands) {
  EXPECT_EQ(errorMessageOf([] { ops::where(tensor<bool>({true, false}), zeros({3}), zeros({1})); }),
            "aten::where.self: cannot broadcast condition of shape (2,), self of shape (3,) and other of shape (1,) "
            "together: at dimension 0 of the result the sizes are 2, 3 and 1");
}

TEST(Where, NonBoolConditionIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::where(ones({2}), ones({2}), zeros({2})); }),
            "aten::where.self: where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  EXPECT_EQ(errorMessageOf([] { ops::where(tensor<int64_t>({1}), 1, 0); }),
            "aten::where.Scalar: where expected condition to be a boolean tensor, but got a tensor with dtype Long");
}

TEST(Where, MixedDtypesArePromotedLikeOtherBinaryOperators) {
  const Tensor condition = tensor<bool>({true, false});
  Tensor r = ops::where(condition, tensor<int32_t>({1, 2}), tensor<double>({0.5, 0.25}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(r), ElementsAre(1.0, 0.25));
  // A 0-dim Double does not widen a dimensioned Float.
  EXPECT_EQ(ops::where(condition, tensor<float>({1, 2}), full({}, 0.5, ScalarType::Double)).scalar_type(),
            ScalarType::Float);
}

TEST(Where, ScalarOtherFollowsTheScalarPromotionRules) {
  const Tensor condition = tensor<bool>({true, false});
  Tensor ints = ops::where(condition, tensor<int32_t>({7, 8}), 0);
  EXPECT_EQ(ints.scalar_type(), ScalarType::Int);  // an integer Scalar does not widen Int
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(7, 0));
  Tensor floats = ops::where(condition, tensor<int32_t>({7, 8}), 0.5);
  EXPECT_EQ(floats.scalar_type(), ScalarType::Float);  // a floating Scalar counts as Float
  EXPECT_THAT(valuesOf<float>(floats), ElementsAre(7.0f, 0.5f));
}

TEST(Where, ScalarSelfFollowsTheScalarPromotionRules) {
  Tensor r = ops::where(tensor<bool>({true, false}), 2.5, tensor<double>({1, 2}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(r), ElementsAre(2.5, 2.0));
}

TEST(Where, TwoScalarsGiveLongOrFloat) {
  const Tensor condition = tensor<bool>({true, false, true}, {3, 1});
  Tensor ints = ops::where(condition, 1, 0);
  EXPECT_EQ(ints.scalar_type(), ScalarType::Long);
  EXPECT_THAT(ints.sizes(), ElementsAre(3, 1));
  EXPECT_THAT(valuesOf<int64_t>(ints), ElementsAre(1, 0, 1));
  Tensor mixed = ops::where(condition, 1, 0.5);
  EXPECT_EQ(mixed.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(mixed), ElementsAre(1.0f, 0.5f, 1.0f));
}

TEST(Where, StridedOperandsAreReadInLogicalOrder) {
  Tensor base = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});                        // [[1, 4], [2, 5], [3, 6]]
  Tensor mask_row = tensor<bool>({true, false});
  Tensor expanded_mask = viewOf(mask_row, {3, 2}, {0, 1});                 // every row [true, false]
  Tensor r = ops::where(expanded_mask, transposed, tensor<float>({-1, -2, -3}, {3, 1}));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(1, -1, 2, -2, 3, -3));
}

TEST(Where, OutIsResizedToTheBroadcastShapeAndReturned) {
  Tensor out = empty({1}, ScalarType::Long);
  EXPECT_EQ(&ops::where_out(out, tensor<bool>({true, false}), tensor<int64_t>({1}), tensor<int64_t>({2})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(1, 2));
}

TEST(Where, OutMustHaveExactlyTheResultType) {
  Tensor out = empty({2}, ScalarType::Double);
  EXPECT_EQ(errorMessageOf([&] {
              ops::where_out(out, tensor<bool>({true, false}), tensor<float>({1, 2}), tensor<float>({3, 4}));
            }),
            "aten::where.self_out: Expected out type to be Float but got Double");
}

TEST(Where, OutAliasingSelfIsCorrect) {
  // x = where(x > 2, x, 0) written into x itself.
  Tensor x = tensor<int32_t>({1, 3, 2, 5});
  ops::where_out(x, ops::gt(x, 2), x, tensor<int32_t>({0}));
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(0, 3, 0, 5));
}

TEST(Where, ZeroDimAndEmptyOperands) {
  Tensor r = ops::where(full({}, true, ScalarType::Bool), full({}, 4, ScalarType::Long), full({}, 5, ScalarType::Long));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item<int64_t>(), 4);
  EXPECT_THAT(ops::where(empty({0}, ScalarType::Bool), ones({1}), zeros({1})).sizes(), ElementsAre(0));
}

TEST(Where, FunctionalFormsCostExactlyTwoDispatches) {
  const Tensor condition = tensor<bool>({true, false});
  const Tensor x = tensor<float>({1, 2});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::where(condition, x, x);
    ops::where(condition, x, 0.0);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{
                       {"aten::where.self", 1}, {"aten::where.ScalarOther", 1}, {"aten::empty.memory_format", 2}}));
}

}  // namespace
}  // namespace sy
