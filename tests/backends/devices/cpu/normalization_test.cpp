// aten::native_layer_norm (+ .out) and aten::layer_norm: rows come out with mean 0 and variance 1,
// statistics match a naive double-precision computation written here, weight and bias apply
// elementwise, and the corners (constant rows, NaN, empty inputs, views, errors) behave.
//
// Tolerances: Float outputs are compared with 1e-5 absolute + 1e-5 relative error (a few float
// roundings of values of order 1); the normalised variance is var / (var + eps), which for the
// random rows here (variance ~ 1/3) is within 1e-4 of 1 at eps = 1e-5.
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::contiguousDoublesOf;
using sy::testing::errorMessageOf;
using sy::testing::randomUniformValues;

struct RowStats {
  double mean, variance;
};
RowStats statsOf(const std::vector<double>& v, size_t begin, size_t n) {
  double sum = 0, squares = 0;
  for (size_t j = begin; j < begin + n; ++j) sum += v[j];
  const double mean = sum / static_cast<double>(n);
  for (size_t j = begin; j < begin + n; ++j) squares += (v[j] - mean) * (v[j] - mean);
  return {mean, squares / static_cast<double>(n)};
}

TEST(LayerNorm, RowsComeOutWithMeanZeroAndVarianceOne) {
  Tensor x = tensor<float>(randomUniformValues<float>(5 * 16, 1), {5, 16});
  std::vector<double> y = contiguousDoublesOf(ops::layer_norm(x, {16}));
  for (size_t row = 0; row < 5; ++row) {
    const RowStats stats = statsOf(y, row * 16, 16);
    EXPECT_NEAR(stats.mean, 0.0, 1e-6) << "row " << row;
    EXPECT_NEAR(stats.variance, 1.0, 1e-4) << "row " << row;
  }
}

TEST(LayerNorm, MeanAndRstdMatchNaiveStatistics) {
  const std::vector<float> input = randomUniformValues<float>(3 * 10, 2);
  auto [y, mean, rstd] = ops::native_layer_norm(tensor<float>(input, {3, 10}), {10}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_THAT(mean.sizes(), ElementsAre(3, 1));
  EXPECT_THAT(rstd.sizes(), ElementsAre(3, 1));
  const std::vector<double> x(input.begin(), input.end());
  for (size_t row = 0; row < 3; ++row) {
    const RowStats stats = statsOf(x, row * 10, 10);
    EXPECT_NEAR(contiguousDoublesOf(mean)[row], stats.mean, 1e-6);
    EXPECT_NEAR(contiguousDoublesOf(rstd)[row], 1.0 / std::sqrt(stats.variance + 1e-5),
                1e-5 * contiguousDoublesOf(rstd)[row]);
  }
}

TEST(LayerNorm, HandWorkedRow) {
  // [1, 2, 3, 4]: mean 2.5, biased variance 1.25; with eps 0, y = (x - 2.5) / sqrt(1.25).
  auto [y, mean, rstd] = ops::native_layer_norm(tensor<float>({1, 2, 3, 4}, {1, 4}), {4}, {}, {}, 0.0);
  const double s = std::sqrt(1.25);
  const std::vector<double> values = contiguousDoublesOf(y);
  const std::vector<double> expected = {-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s};
  for (size_t j = 0; j < 4; ++j) EXPECT_NEAR(values[j], expected[j], 1e-6);
  EXPECT_EQ(mean.item<double>(), 2.5);
  EXPECT_NEAR(rstd.item<double>(), 1.0 / s, 1e-7);
}

TEST(LayerNorm, NormalizesOverSeveralTrailingDimensions) {
  const std::vector<float> input = randomUniformValues<float>(2 * 3 * 4, 3);
  auto [y, mean, rstd] = ops::native_layer_norm(tensor<float>(input, {2, 3, 4}), {3, 4}, {}, {}, 1e-5);
  EXPECT_THAT(y.sizes(), ElementsAre(2, 3, 4));
  EXPECT_THAT(mean.sizes(), ElementsAre(2, 1, 1));
  const std::vector<double> x(input.begin(), input.end());
  const std::vector<double> values = contiguousDoublesOf(y);
  for (size_t batch = 0; batch < 2; ++batch) {
    const RowStats stats = statsOf(x, batch * 12, 12);
    for (size_t j = 0; j < 12; ++j) {
      const double expected = (x[batch * 12 + j] - stats.mean) / std::sqrt(stats.variance + 1e-5);
      EXPECT_NEAR(values[batch * 12 + j], expected, 1e-5 + 1e-5 * std::abs(expected));
    }
  }
}

TEST(LayerNorm, WeightScalesAndBiasShiftsEachColumn) {
  const std::vector<float> input = randomUniformValues<float>(4 * 3, 4);
  Tensor x = tensor<float>(input, {4, 3});
  Tensor weight = tensor<float>({2, -1, 0.5f}, {3});
  Tensor bias = tensor<float>({1, 0, -3}, {3});
  const std::vector<double> plain = contiguousDoublesOf(ops::layer_norm(x, {3}));
  const std::vector<double> affine = contiguousDoublesOf(ops::layer_norm(x, {3}, weight, bias));
  const std::vector<double> scaled = contiguousDoublesOf(ops::layer_norm(x, {3}, weight));
  const std::vector<double> shifted = contiguousDoublesOf(ops::layer_norm(x, {3}, std::nullopt, bias));
  const double w[] = {2, -1, 0.5}, b[] = {1, 0, -3};
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_NEAR(affine[i], plain[i] * w[i % 3] + b[i % 3], 1e-5);
    EXPECT_NEAR(scaled[i], plain[i] * w[i % 3], 1e-5);
    EXPECT_NEAR(shifted[i], plain[i] + b[i % 3], 1e-5);
  }
}

TEST(LayerNorm, DoubleStaysDoubleAndIsPrecise) {
  auto [y, mean, rstd] = ops::native_layer_norm(tensor<double>({1, 2, 3, 4}, {1, 4}), {4}, {}, {}, 0.0);
  EXPECT_EQ(y.scalar_type(), ScalarType::Double);
  EXPECT_EQ(rstd.scalar_type(), ScalarType::Double);
  const double s = std::sqrt(1.25);
  const std::vector<double> values = contiguousDoublesOf(y);
  EXPECT_NEAR(values[0], -1.5 / s, 1e-14);
  EXPECT_NEAR(values[3], 1.5 / s, 1e-14);
}

TEST(LayerNorm, ConstantRowGivesZerosAndRstdOfEps) {
  auto [y, mean, rstd] = ops::native_layer_norm(full({1, 3}, 5.0), {3}, {}, {}, 1e-4);
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(0, 0, 0));
  EXPECT_EQ(mean.item<float>(), 5.0f);
  EXPECT_NEAR(rstd.item<float>(), 100.0, 1e-3);  // 1 / sqrt(1e-4)
}

TEST(LayerNorm, NanOrInfinityPoisonsOnlyItsOwnRow) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor<float>({1, nan, 3, 1, 2, 3, inf, 0, 1}, {3, 3});
  const std::vector<double> y = contiguousDoublesOf(ops::layer_norm(x, {3}, std::nullopt, std::nullopt, 0.0));
  for (size_t j : {0, 1, 2, 6, 7, 8}) EXPECT_TRUE(std::isnan(y[j])) << j;
  EXPECT_NEAR(y[3], -std::sqrt(1.5), 1e-6);  // [1, 2, 3]: variance 2/3
  EXPECT_NEAR(y[4], 0.0, 1e-6);
}

TEST(LayerNorm, TransposedInputIsNormalizedAlongItsLogicalRows) {
  // The logical rows of the transposed view of [[1, 2], [3, 4], [5, 6]] are [1, 3, 5] and [2, 4, 6].
  Tensor base = tensor<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  auto impl = make_intrusive<TensorImpl>(base.storage(), base.scalar_type(), base.device());
  impl->set_sizes_and_strides({2, 3}, {1, 2}, 0);
  Tensor transposed(std::move(impl));
  auto [y, mean, rstd] = ops::native_layer_norm(transposed, {3}, {}, {}, 0.0);
  EXPECT_THAT(contiguousDoublesOf(mean), ElementsAre(3, 4));
  const double z = std::sqrt(1.5);  // (5 - 3) / sqrt(8 / 3)
  const std::vector<double> values = contiguousDoublesOf(y);
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(values[i], (i % 3 == 0 ? -z : i % 3 == 1 ? 0 : z), 1e-6);
}

TEST(LayerNorm, EmptyInputGivesEmptyResults) {
  auto [y, mean, rstd] = ops::native_layer_norm(zeros({0, 4}), {4}, {}, {}, 1e-5);
  EXPECT_THAT(y.sizes(), ElementsAre(0, 4));
  EXPECT_THAT(mean.sizes(), ElementsAre(0, 1));
  EXPECT_THAT(rstd.sizes(), ElementsAre(0, 1));
}

TEST(LayerNorm, LayerNormIsTheFirstResultOfNativeLayerNorm) {
  Tensor x = tensor<float>(randomUniformValues<float>(6 * 5, 5), {6, 5});
  Tensor weight = tensor<float>(randomUniformValues<float>(5, 6), {5});
  EXPECT_EQ(contiguousDoublesOf(ops::layer_norm(x, {5}, weight, std::nullopt, 1e-3)),
            contiguousDoublesOf(std::get<0>(ops::native_layer_norm(x, {5}, weight, std::nullopt, 1e-3))));
}

TEST(LayerNorm, OutFormReturnsTheCallersTensorsResizedFromWrongShapes) {
  Tensor out0 = zeros({1}), out1 = zeros({7}), out2 = zeros({2, 2});
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  auto results = ops::native_layer_norm_out(out0, out1, out2, x, {4}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(&std::get<0>(results), &out0);
  EXPECT_EQ(&std::get<1>(results), &out1);
  EXPECT_EQ(&std::get<2>(results), &out2);
  EXPECT_THAT(out0.sizes(), ElementsAre(2, 4));
  EXPECT_THAT(out1.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(out2.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(contiguousDoublesOf(out1), ElementsAre(2.5, 6.5));
  EXPECT_EQ(contiguousDoublesOf(out0), contiguousDoublesOf(ops::layer_norm(x, {4})));
}

TEST(LayerNorm, OutAliasingTheInputGetsTheResultOfTheOriginalInput) {
  Tensor x = tensor<float>({1, 2, 3, 4}, {1, 4});
  Tensor mean = empty({1, 1}), rstd = empty({1, 1});
  const std::vector<double> expected = contiguousDoublesOf(ops::layer_norm(x, {4}));
  ops::native_layer_norm_out(x, mean, rstd, x, {4}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(contiguousDoublesOf(x), expected);
  EXPECT_EQ(mean.item<float>(), 2.5f);
}

TEST(LayerNorm, ShapeMismatchesAreRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}), {3}); }),
            "aten::native_layer_norm: expected the trailing dimensions of 'input' to be normalized_shape (3,) but got "
            "input size (2, 4)");
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({4}), {2, 4}); }),
            "aten::native_layer_norm: expected the trailing dimensions of 'input' to be normalized_shape (2, 4) but "
            "got input size (4,)");
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}), {}); }),
            "aten::native_layer_norm: expected 'normalized_shape' to have at least one element but got ()");
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}), {4}, ones({3})); }),
            "aten::native_layer_norm: expected 'weight' to have size (4,) (normalized_shape) but got (3,)");
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}), {4}, std::nullopt, ones({2, 2})); }),
            "aten::native_layer_norm: expected 'bias' to have size (4,) (normalized_shape) but got (2, 2)");
}

TEST(LayerNorm, DtypeMismatchesAreRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}, ScalarType::Long), {4}); }),
            "aten::native_layer_norm: expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got Long");
  EXPECT_EQ(errorMessageOf([] { ops::layer_norm(zeros({2, 4}), {4}, ones({4}, ScalarType::Double)); }),
            "aten::native_layer_norm: expected 'weight' to have the same dtype as 'input' (Float) but got Double");
}

}  // namespace
}  // namespace sy
