// aten::adaptive_avg_pool2d and aten::_adaptive_avg_pool2d (and their out= forms) against windows
// worked out by hand: output index o of n over an input of size s averages [floor(o * s / n),
// ceil((o + 1) * s / n)). The sums are small integers, so Float results are compared exactly.
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
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// The image 1..height*width in row-major order, shaped (1, 1, height, width).
template <class T = float>
Tensor countingImage(int64_t height, int64_t width) {
  std::vector<T> values;
  for (int64_t i = 1; i <= height * width; ++i) values.push_back(static_cast<T>(i));
  return tensor<T>(values, {1, 1, height, width});
}

// countingImage(4, 4) is [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]].

TEST(AdaptiveAvgPool, OneByOneIsTheMeanOfTheWholeImage) {
  Tensor y = ops::adaptive_avg_pool2d(countingImage(4, 4), {1, 1});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(8.5));
  EXPECT_THAT(valuesOf<float>(ops::_adaptive_avg_pool2d(countingImage(4, 4), {1})), ElementsAre(8.5));
}

TEST(AdaptiveAvgPool, ADividingSizeTilesTheImageLikeAvgPool) {
  EXPECT_THAT(valuesOf<float>(ops::adaptive_avg_pool2d(countingImage(4, 4), {2})), ElementsAre(3.5, 5.5, 11.5, 13.5));
}

TEST(AdaptiveAvgPool, ANonDividingSizeGivesOverlappingWindows) {
  // Rows and columns [0, 2), [1, 3), [2, 4): nine overlapping 2x2 windows.
  EXPECT_THAT(valuesOf<float>(ops::adaptive_avg_pool2d(countingImage(4, 4), {3, 3})),
              ElementsAre(3.5, 4.5, 5.5, 7.5, 8.5, 9.5, 11.5, 12.5, 13.5));
  // countingImage(5, 5) to 2x3: rows [0, 3), [2, 5); columns [0, 2), [1, 4), [3, 5). Element (r, c)
  // is 5r + c + 1, so each mean is 5 * (mean row) + (mean column) + 1.
  Tensor y = ops::adaptive_avg_pool2d(countingImage(5, 5), {2, 3});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(6.5, 8, 9.5, 16.5, 18, 19.5));
}

TEST(AdaptiveAvgPool, AnOutputLargerThanTheInputRepeatsAndBlends) {
  // Columns [0, 1), [0, 2), [1, 2) of [1, 3].
  EXPECT_THAT(valuesOf<float>(ops::adaptive_avg_pool2d(tensor<float>({1, 3}, {1, 1, 1, 2}), {1, 3})),
              ElementsAre(1, 2, 3));
}

TEST(AdaptiveAvgPool, EveryPlaneIsPooledSeparatelyAndUnbatchedStaysUnbatched) {
  std::vector<double> values;
  for (int p = 0; p < 4; ++p) {
    for (int i = 1; i <= 4; ++i) values.push_back(100.0 * p + i);
  }
  Tensor y = ops::adaptive_avg_pool2d(tensor<double>(values, {2, 2, 2, 2}), {1, 1});
  EXPECT_EQ(y.scalar_type(), ScalarType::Double);
  EXPECT_THAT(y.sizes(), ElementsAre(2, 2, 1, 1));
  EXPECT_THAT(valuesOf<double>(y), ElementsAre(2.5, 102.5, 202.5, 302.5));
  Tensor unbatched = ops::adaptive_avg_pool2d(tensor<float>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}), {1, 1});
  EXPECT_THAT(unbatched.sizes(), ElementsAre(2, 1, 1));
  EXPECT_THAT(valuesOf<float>(unbatched), ElementsAre(2.5, 6.5));
}

TEST(AdaptiveAvgPool, EmptyBatchAndZeroOutputSizeGiveEmptyResults) {
  // As in PyTorch, an output size of 0 is allowed and gives no elements.
  EXPECT_THAT(ops::adaptive_avg_pool2d(zeros({0, 3, 4, 4}), {2, 2}).sizes(), ElementsAre(0, 3, 2, 2));
  EXPECT_THAT(ops::adaptive_avg_pool2d(countingImage(4, 4), {0, 2}).sizes(), ElementsAre(1, 1, 0, 2));
}

TEST(AdaptiveAvgPool, TransposedInputIsReadThroughItsStrides) {
  Tensor transposed = viewOf(countingImage(4, 4), {1, 1, 4, 4}, {16, 16, 1, 4});  // [[1, 5, 9, 13], ...]
  EXPECT_THAT(valuesOf<float>(ops::adaptive_avg_pool2d(transposed, {2, 1})), ElementsAre(7.5, 9.5));  // not 4.5, 12.5
}

TEST(AdaptiveAvgPool, OutFormsReturnTheCallersTensorResized) {
  Tensor out = zeros({7});
  EXPECT_EQ(&ops::adaptive_avg_pool2d_out(out, countingImage(4, 4), {2}), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(3.5, 5.5, 11.5, 13.5));
  Tensor wide = empty({1}, ScalarType::Double);
  EXPECT_EQ(&ops::_adaptive_avg_pool2d_out(wide, countingImage(4, 4), {1, 1}), &wide);
  EXPECT_THAT(valuesOf<double>(wide), ElementsAre(8.5));
}

TEST(AdaptiveAvgPool, OutAliasingTheInputGetsTheResultOfTheOriginalInput) {
  Tensor x = countingImage(2, 2);
  ops::adaptive_avg_pool2d_out(x, x, {2, 2});
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 2, 3, 4));
  ops::adaptive_avg_pool2d_out(x, x, {1, 2});
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(2, 3));
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(AdaptiveAvgPoolErrors, NegativeOrMalformedOutputSizeIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::adaptive_avg_pool2d(countingImage(4, 4), {-1, 2}); }),
            "aten::_adaptive_avg_pool2d: expected the elements of 'output_size' to be non-negative but got (-1, 2)");
  EXPECT_EQ(errorMessageOf([] { ops::_adaptive_avg_pool2d(countingImage(4, 4), {1, 2, 3}); }),
            "aten::_adaptive_avg_pool2d: expected 'output_size' to be a single int or a list of two ints (height, "
            "width) but got 3 values");
  Tensor out = zeros({3});
  EXPECT_EQ(errorMessageOf([&] { ops::adaptive_avg_pool2d_out(out, countingImage(4, 4), {}); }),
            "aten::adaptive_avg_pool2d.out: expected 'output_size' to be a single int or a list of two ints (height, "
            "width) but got 0 values");
  EXPECT_THAT(out.sizes(), ElementsAre(3));
}

TEST(AdaptiveAvgPoolErrors, AnOutputSizeWhoseWindowArithmeticOverflowsIsRejected) {
  const int64_t huge = std::numeric_limits<int64_t>::max() / 2;
  EXPECT_EQ(errorMessageOf([&] { ops::_adaptive_avg_pool2d(countingImage(4, 4), {huge, 1}); }),
            "aten::_adaptive_avg_pool2d: 'output_size' (4611686018427387903, 1) is too large for an input of 4 x 4");
}

TEST(AdaptiveAvgPoolErrors, InputMustBeThreeOrFourDimensionalWithNonEmptyPlanes) {
  EXPECT_EQ(errorMessageOf([] { ops::adaptive_avg_pool2d(zeros({4, 4}), {1, 1}); }),
            "aten::_adaptive_avg_pool2d: expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with "
            "non-zero C, H and W but got size (4, 4)");
  EXPECT_EQ(errorMessageOf([] { ops::adaptive_avg_pool2d(zeros({1, 2, 0, 4}), {1, 1}); }),
            "aten::_adaptive_avg_pool2d: expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with "
            "non-zero C, H and W but got size (1, 2, 0, 4)");
}

TEST(AdaptiveAvgPoolErrors, IntegralAndBoolInputsAreRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::adaptive_avg_pool2d(countingImage<int32_t>(2, 2), {1, 1}); }),
            "aten::_adaptive_avg_pool2d: argument 'self' has dtype Int, which this kernel does not support "
            "(supported: Half, Float, Double, BFloat16)");
  Tensor out = zeros({1});
  EXPECT_EQ(errorMessageOf([&] { ops::adaptive_avg_pool2d_out(out, zeros({1, 1, 2, 2}, ScalarType::Bool), {1}); }),
            "aten::adaptive_avg_pool2d.out: argument 'self' has dtype Bool, which this kernel does not support "
            "(supported: Half, Float, Double, BFloat16)");
}

TEST(AdaptiveAvgPoolErrors, OutOfIntegralDtypeCannotTakeTheFloatResult) {
  Tensor out = zeros({3}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::_adaptive_avg_pool2d_out(out, countingImage(4, 4), {2}); }),
            "aten::_adaptive_avg_pool2d.out: result type Float can't be cast to the desired output type Long");
  EXPECT_THAT(out.sizes(), ElementsAre(3));
}

}  // namespace
}  // namespace sy
