// An out= argument that is also one of the inputs and must change shape: the result is the one an
// unaliased out would get (see Note [An out= that is also an input keeps the input's values]),
// never values read from memory the resize left uninitialised.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/devices/accel/accel_test_helpers.h"
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

// ---- Kernels that read an input several times: out is one of their inputs ----
// Each result must equal the functional form's on a separate copy of the inputs.

Tensor ramp(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  // Distinct values in a scrambled order, so a kernel reading the wrong element shows.
  std::vector<float> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(static_cast<float>((i * 7) % n) / static_cast<float>(n));
  return sy::tensor<float>(values, sizes);
}

TEST(OutAliasing, ConvolutionOutIntoItsOwnInputConvolvesTheOriginal) {
  Tensor x = ramp({1, 1, 4, 4});
  const Tensor w = ramp({1, 1, 2, 2});
  const Tensor expected = ops::conv2d(ops::clone(x), w);
  ops::convolution_out(x, x, w, std::nullopt, {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1);
  EXPECT_EQ(valuesOf<float>(x), valuesOf<float>(expected));
}

TEST(OutAliasing, ConvolutionOutThatKeepsItsInputsShapeStillConvolvesTheOriginal) {
  Tensor x = ramp({1, 1, 3, 3});
  const Tensor w = ramp({1, 1, 3, 3});
  const Tensor expected = ops::conv2d(ops::clone(x), w, std::nullopt, {1, 1}, {1, 1});
  ops::convolution_out(x, x, w, std::nullopt, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1);
  EXPECT_EQ(valuesOf<float>(x), valuesOf<float>(expected));
}

TEST(OutAliasing, PoolingOutIntoItsOwnSelfPoolsTheOriginal) {
  Tensor a = ramp({1, 4, 4});
  const Tensor max_expected = ops::max_pool2d(ops::clone(a), {2, 2});
  ops::max_pool2d_out(a, a, {2, 2});
  EXPECT_EQ(valuesOf<float>(a), valuesOf<float>(max_expected));
  Tensor b = ramp({1, 3, 3});
  const Tensor avg_expected = ops::avg_pool2d(ops::clone(b), {3, 3}, {1, 1}, {1, 1});
  ops::avg_pool2d_out(b, b, {3, 3}, {1, 1}, {1, 1});
  EXPECT_EQ(valuesOf<float>(b), valuesOf<float>(avg_expected));
  Tensor c = ramp({1, 4, 4});
  Tensor indices = sy::empty({0}, sy::ScalarType::Long);
  const auto [values_expected, indices_expected] = ops::max_pool2d_with_indices(ops::clone(c), {2, 2});
  ops::max_pool2d_with_indices_out(c, indices, c, {2, 2});
  EXPECT_EQ(valuesOf<float>(c), valuesOf<float>(values_expected));
  EXPECT_EQ(valuesOf<int64_t>(indices), valuesOf<int64_t>(indices_expected));
}

TEST(OutAliasing, EmbeddingOutIntoItsOwnWeightPicksTheOriginalRows) {
  Tensor weight = ramp({3, 2});
  const Tensor indices = sy::tensor<int64_t>({2, 0, 2, 1}, {2, 2});
  const Tensor expected = ops::embedding(ops::clone(weight), indices);
  ops::embedding_out(weight, weight, indices);
  EXPECT_EQ(weight.sizes(), sy::IntArrayRef({2, 2, 2}));
  EXPECT_EQ(valuesOf<float>(weight), valuesOf<float>(expected));
}

TEST(OutAliasing, LayerNormOutIntoItsOwnInputNormalizesTheOriginal) {
  Tensor x = ramp({2, 3});
  Tensor mean = sy::empty({0});
  Tensor rstd = sy::empty({0});
  const auto expected = ops::native_layer_norm(ops::clone(x), {3}, std::nullopt, std::nullopt, 1e-5);
  ops::native_layer_norm_out(x, mean, rstd, x, {3}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(valuesOf<float>(x), valuesOf<float>(std::get<0>(expected)));
  EXPECT_EQ(valuesOf<float>(mean), valuesOf<float>(std::get<1>(expected)));
  // The statistics into the input itself: out1 aliasing input.
  Tensor y = ramp({2, 3});
  Tensor out0 = sy::empty({0});
  Tensor out2 = sy::empty({0});
  ops::native_layer_norm_out(out0, y, out2, y, {3}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(valuesOf<float>(out0), valuesOf<float>(std::get<0>(expected)));
  EXPECT_EQ(valuesOf<float>(y), valuesOf<float>(std::get<1>(expected)));
}

TEST(OutAliasing, ClampTensorOutIntoItsOwnSelfThatMustGrowClampsTheOriginal) {
  Tensor a = sy::tensor<float>({1, 25, 3});
  ops::clamp_out(a, a, twoByThree());
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({10, 25, 30, 40, 50, 60}));
}

TEST(OutAliasing, PermuteCopyOutIntoItsOwnSelfCopiesTheOriginal) {
  Tensor a = twoByThree();
  ops::permute_copy_out(a, a, {1, 0});
  EXPECT_EQ(a.sizes(), sy::IntArrayRef({3, 2}));
  EXPECT_EQ(valuesOf<float>(a), std::vector<float>({10, 40, 20, 50, 30, 60}));
}
