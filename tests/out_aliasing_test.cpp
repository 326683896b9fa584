// An out= argument that is also one of the inputs and must change shape: the result is the one an
// unaliased out would get (see Note [An out= that is also an input keeps the input's values]),
// never values read from memory the resize left uninitialised.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "accel_test_helpers.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::Tensor;
using sy::testing::valuesOf;
namespace ops = sy::ops;

// [[10, 20, 30], [40, 50, 60]]
Tensor twoByThree() { return sy::tensor<float>({10, 20, 30, 40, 50, 60}, {2, 3}); }

TEST(OutAliasing, AddOutIntoItsOwnSelfThatMustGrowAddsTheOriginalValues) {
  Tensor a = sy::tensor<float>({1, 2, 3});
  ops::add_out(a, a, twoByThree());
  EXPECT_EQ(a.sizes(), sy::IntArrayRef({2, 3}));
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({11, 22, 33, 41, 52, 63}));
}

TEST(OutAliasing, AddOutIntoItsOwnOtherThatMustGrowAddsTheOriginalValues) {
  Tensor a = sy::tensor<float>({1, 2, 3});
  ops::add_out(a, twoByThree(), a, 2);
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({12, 24, 36, 42, 54, 66}));
}

TEST(OutAliasing, MulOutAndSubOutIntoAnInputThatMustGrow) {
  Tensor a = sy::tensor<float>({1, 2, 3});
  ops::mul_out(a, a, twoByThree());
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({10, 40, 90, 40, 100, 180}));
  Tensor b = sy::tensor<float>({1, 2, 3});
  ops::sub_out(b, twoByThree(), b);
  EXPECT_EQ(valuesOf<float>(b), std::vector<float>({9, 18, 27, 39, 48, 57}));
}

TEST(OutAliasing, AComparisonOutIntoAnInputThatMustGrow) {
  Tensor a = sy::tensor<bool>({true, false, true});
  ops::eq_out(a, a, sy::tensor<bool>({true, true, true, false, false, false}, {2, 3}));
  EXPECT_EQ(valuesOf<bool>(a), std::vector<bool>({true, false, true, false, true, false}));
}

TEST(OutAliasing, WhereOutIntoAnInputThatMustGrow) {
  Tensor a = sy::tensor<float>({1, 2, 3});
  Tensor condition = sy::tensor<bool>({true, false, true, false, true, false}, {2, 3});
  ops::where_out(a, condition, a, twoByThree());
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({1, 20, 3, 40, 2, 60}));
}

TEST(OutAliasing, AnAliasedOutThatKeepsItsShapeIsStillComputedInPlace) {
  Tensor a = sy::tensor<float>({1, 2, 3});
  ops::add_out(a, a, a);
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({2, 4, 6}));
}

TEST(OutAliasing, GatherOutIntoItsOwnSelfThatMustShrinkGathersFromTheOriginal) {
  Tensor a = sy::tensor<float>({1, 2, 3, 4}, {2, 2});
  ops::gather_out(a, a, 1, sy::tensor<int64_t>({1, 0}, {2, 1}));
  EXPECT_EQ(a.sizes(), sy::IntArrayRef({2, 1}));
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({2, 3}));
}

TEST(OutAliasing, ScatterOutIntoItsOwnIndexThatMustGrowScattersAtTheOriginalPositions) {
  Tensor index = sy::tensor<int64_t>({1, 0}, {2, 1});
  ops::scatter_out(index, sy::tensor<int64_t>({5, 6, 7, 8}, {2, 2}), 1, index, 0);
  EXPECT_EQ(valuesOf<int64_t>(index), std::vector<int64_t>({5, 0, 0, 8}));
}

TEST(OutAliasing, AccelSubOutThroughTheFallbackIntoAnInputThatMustGrow) {
  Tensor a = sy::tensor<float>({1, 2, 3}).to(sy::kAccel);
  Tensor b = twoByThree().to(sy::kAccel);
  ops::sub_out(a, b, a);
  EXPECT_EQ(a.device(), sy::kAccel);
  EXPECT_EQ(valuesOf<float>(a.to(sy::kCPU)), std::vector<float>({9, 18, 27, 39, 48, 57}));
}

TEST(OutAliasing, AccelAddOutIntoAnInputThatMustGrow) {
  Tensor a = sy::tensor<float>({1, 2, 3}).to(sy::kAccel);
  ops::add_out(a, a, twoByThree().to(sy::kAccel));
  EXPECT_EQ(valuesOf<float>(a.to(sy::kCPU)), std::vector<float>({11, 22, 33, 41, 52, 63}));
}

}  // namespace
