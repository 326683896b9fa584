// aten::glu, aten::logit and aten::pixel_(un)shuffle: hand-worked values, the inverse pair
// round-tripping every dtype, strided inputs and outs, and the errors (the oracle compares values
// with PyTorch's).
#include <cmath>
#include <limits>
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
using sy::testing::valuesOf;
using sy::testing::viewOf;

TEST(Glu, MultipliesTheFirstHalfByTheSigmoidOfTheSecond) {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor y = ops::glu(tensor<double>({1, 2, 0, inf, 4, 6, -inf, 0}, {2, 4}), -1);
  EXPECT_THAT(y.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(0.5, 2, 0, 3));
}

TEST(Glu, HalvesTheGivenDimensionOfAStridedInput) {
  // x is [[1, 0], [2, 0]], a transposed view; along dim 0 its halves are [1, 0] and [2, 0].
  Tensor x = viewOf(tensor<float>({1, 2, 0, 0}, {2, 2}), {2, 2}, {1, 2});
  Tensor y = ops::glu(x, 0);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1 / (1 + std::exp(-2.0f)), 0.0f));
}

TEST(Glu, OddSizesScalarsAndIntegersAreRefused) {
  EXPECT_EQ(errorMessageOf([] { ops::glu(ones({2, 3}), -1); }),
            "aten::glu: halving dimension 1 needs an even size but it has size 3");
  EXPECT_EQ(errorMessageOf([] { ops::glu(ones({}), -1); }),
            "aten::glu: glu does not take a 0-dim tensor (it has no halves to split)");
  EXPECT_EQ(errorMessageOf([] { ops::glu(ones({2}, ScalarType::Long), 0); }),
            "aten::glu: expected 'self' to have a floating dtype (Half, Float, Double or BFloat16) but got Long");
}

TEST(Logit, IsTheInverseOfTheSigmoidAndClampsToEps) {
  Tensor y = ops::logit(tensor<double>({0.5, 0, 1, 0.25}, {4}), std::nullopt);
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(0, -std::numeric_limits<double>::infinity(),
                                                  std::numeric_limits<double>::infinity(), std::log(1 / 3.0)));
  Tensor clamped = ops::logit(tensor<double>({0, 1, 0.5}, {3}), 0.25);
  EXPECT_THAT(contiguousDoublesOf(clamped), ElementsAre(std::log(1 / 3.0), std::log(3.0), 0));
  // A negative eps means none, as in PyTorch.
  EXPECT_TRUE(std::isinf(contiguousDoublesOf(ops::logit(tensor<double>({1}, {1}), -0.5))[0]));
}

TEST(Logit, IntegersComputeInFloatAndInPlaceWritesSelf) {
  EXPECT_EQ(ops::logit(tensor<int64_t>({0}, {1}), std::nullopt).scalar_type(), ScalarType::Float);
  Tensor x = tensor<float>({0.5f, 0.75f}, {2});
  ops::logit_(x, std::nullopt);
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0.0f, std::log(3.0f)));
}

TEST(PixelShuffle, InterleavesChannelsIntoPixels) {
  // Channels a, b, c, d of one row of two: a0 a1 | b0 b1 | c0 c1 | d0 d1.
  Tensor x = tensor<int64_t>({10, 11, 20, 21, 30, 31, 40, 41}, {1, 4, 1, 2});
  Tensor y = ops::pixel_shuffle(x, 2);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 4));
  EXPECT_THAT(valuesOf<int64_t>(y), ElementsAre(10, 20, 11, 21, 30, 40, 31, 41));
}

TEST(PixelShuffle, UnshuffleUndoesShuffleForEveryDtype) {
  for (ScalarType dtype : {ScalarType::Bool, ScalarType::Int, ScalarType::Long, ScalarType::Float,
                           ScalarType::Double}) {
    std::vector<double> values;
    for (int i = 0; i < 2 * 9 * 2 * 3; ++i) values.push_back(i % 2 == 0 ? i : 0);
    Tensor x = ops::_to_copy(tensor<double>(values, {2, 9, 2, 3}), dtype);
    Tensor y = ops::pixel_shuffle(x, 3);
    EXPECT_THAT(y.sizes(), ElementsAre(2, 1, 6, 9));
    EXPECT_EQ(ops::pixel_unshuffle(y, 3).scalar_type(), dtype);
    EXPECT_EQ(contiguousDoublesOf(ops::pixel_unshuffle(y, 3)), contiguousDoublesOf(x)) << dtype;
  }
}

TEST(PixelShuffle, OutFormWritesAStridedOut) {
  Tensor buffer = zeros({8}, ScalarType::Long);
  Tensor out = viewOf(buffer, {1, 1, 2, 2}, {8, 8, 1, 4});  // column-major 2 x 2 in the first 6 slots
  ops::pixel_shuffle_out(out, tensor<int64_t>({1, 2, 3, 4}, {1, 4, 1, 1}), 2);
  EXPECT_THAT(valuesOf<int64_t>(buffer), ElementsAre(1, 3, 0, 0, 2, 4, 0, 0));
}

TEST(PixelShuffle, AnEmptyBatchKeepsTheShapeRule) {
  EXPECT_THAT(ops::pixel_unshuffle(zeros({0, 2, 4, 4}), 2).sizes(), ElementsAre(0, 8, 2, 2));
  EXPECT_THAT(ops::pixel_shuffle(zeros({0, 8, 2, 2}), 2).sizes(), ElementsAre(0, 2, 4, 4));
}

TEST(PixelShuffle, IndivisibleShapesAreRefused) {
  EXPECT_EQ(errorMessageOf([] { ops::pixel_shuffle(ones({1, 6, 2, 2}), 2); }),
            "aten::pixel_shuffle: expected the channels of 'self' (6) to be divisible by upscale_factor squared (4)");
  EXPECT_EQ(errorMessageOf([] { ops::pixel_unshuffle(ones({1, 1, 3, 4}), 2); }),
            "aten::pixel_unshuffle: expected the height and width of 'self' (3, 4) to be divisible by "
            "downscale_factor (2)");
  EXPECT_EQ(errorMessageOf([] { ops::pixel_shuffle(ones({4, 4}), 2); }),
            "aten::pixel_shuffle: expected 'self' to have at least 3 dimensions (*, C, H, W) but got a 2-D tensor");
  EXPECT_EQ(errorMessageOf([] { ops::pixel_unshuffle(ones({1, 4, 4}), 0); }),
            "aten::pixel_unshuffle: expected 'downscale_factor' to be positive but got 0");
}

}  // namespace
}  // namespace sy
