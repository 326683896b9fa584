// aten::max_pool2d and aten::avg_pool2d (and their out= forms) against hand-worked windows over
// small images, every supported dtype, strided inputs and outputs, NaN, and the error messages.
// Float results of these small sums are exact, so values are compared exactly.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// The image 1..side*side in row-major order, shaped (1, 1, side, side).
template <class T = float>
Tensor countingImage(int64_t side) {
  std::vector<T> values;
  for (int64_t i = 1; i <= side * side; ++i) values.push_back(static_cast<T>(i));
  return tensor<T>(values, {1, 1, side, side});
}

// ---- max_pool2d --------------------------------------------------------------------------------
// countingImage(4) is [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]].

TEST(PoolingMax, StrideDefaultsToKernelSize) {
  Tensor y = ops::max_pool2d(countingImage(4), {2, 2});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(6, 8, 14, 16));
}

TEST(PoolingMax, OverlappingWindowsWithStrideOne) {
  EXPECT_THAT(valuesOf<float>(ops::max_pool2d(countingImage(4), {3}, {1})), ElementsAre(11, 12, 15, 16));
}

TEST(PoolingMax, PaddedPositionsAreIgnored) {
  // Windows [-1, 0], [1, 2], [3, 4] in each direction: the corners see one input element.
  Tensor y = ops::max_pool2d(countingImage(4), {2, 2}, {2, 2}, {1, 1});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 3, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1, 3, 4, 9, 11, 12, 13, 15, 16));
}

TEST(PoolingMax, PaddingNeverWinsOverNegativeInputs) {
  Tensor x = tensor<float>({-5, -6, -7, -8}, {1, 1, 2, 2});
  EXPECT_THAT(valuesOf<float>(ops::max_pool2d(x, {2}, {1}, {1})),
              ElementsAre(-5, -5, -6, -5, -5, -6, -7, -7, -8));
}

TEST(PoolingMax, DilationSpreadsTheWindow) {
  // A 2x2 kernel at dilation 2 reads (i, j), (i, j + 2), (i + 2, j), (i + 2, j + 2).
  EXPECT_THAT(valuesOf<float>(ops::max_pool2d(countingImage(4), {2}, {1}, {0}, {2})), ElementsAre(11, 12, 15, 16));
}

TEST(PoolingMax, CeilModeKeepsThePartialLastWindow) {
  EXPECT_THAT(valuesOf<float>(ops::max_pool2d(countingImage(5), {2}, {2})), ElementsAre(7, 9, 17, 19));
  Tensor y = ops::max_pool2d(countingImage(5), {2}, {2}, {0}, {1}, /*ceil_mode=*/true);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 3, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(7, 9, 10, 17, 19, 20, 22, 24, 25));
}

TEST(PoolingMax, CeilModeDropsAWindowStartingInTheRightPadding) {
  // 3 wide, kernel 2, stride 2, padding 1: rounding up would give a third window starting at
  // position 4 = input + left padding, which holds only padding, so there are two.
  Tensor y = ops::max_pool2d(countingImage(3), {2}, {2}, {1}, {1}, /*ceil_mode=*/true);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1, 3, 7, 9));
}

TEST(PoolingMax, NanInAWindowWins) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = tensor<float>({1, 2, 3, 4, 5, nan, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 1, 4, 4});
  std::vector<float> y = valuesOf<float>(ops::max_pool2d(x, {2}));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_THAT(std::vector<float>(y.begin() + 1, y.end()), ElementsAre(8, 14, 16));
}

TEST(PoolingMax, AllNegativeInfinityWindowStaysNegativeInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor<float>({-inf, -inf, -inf, -inf}, {1, 1, 2, 2});
  EXPECT_EQ(ops::max_pool2d(x, {2}).item<float>(), -inf);
}

TEST(PoolingMax, IntegralAndDoubleDtypesKeepTheirDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::max_pool2d(countingImage<int32_t>(4), {2})), ElementsAre(6, 8, 14, 16));
  EXPECT_THAT(valuesOf<int64_t>(ops::max_pool2d(countingImage<int64_t>(4), {2})), ElementsAre(6, 8, 14, 16));
  EXPECT_THAT(valuesOf<double>(ops::max_pool2d(countingImage<double>(4), {2})), ElementsAre(6, 8, 14, 16));
  // Integral padding is ignored just like floating padding.
  Tensor negative = tensor<int64_t>({-5, -6, -7, -8}, {1, 1, 2, 2});
  EXPECT_THAT(valuesOf<int64_t>(ops::max_pool2d(negative, {2}, {2}, {1})), ElementsAre(-5, -6, -7, -8));
}

TEST(PoolingMax, EveryPlaneIsPooledSeparately) {
  // Two batches of two channels; plane p holds 100 * p + (1..16).
  std::vector<float> values;
  for (int p = 0; p < 4; ++p) {
    for (int i = 1; i <= 16; ++i) values.push_back(static_cast<float>(100 * p + i));
  }
  Tensor y = ops::max_pool2d(tensor<float>(values, {2, 2, 4, 4}), {2});
  EXPECT_THAT(y.sizes(), ElementsAre(2, 2, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(6, 8, 14, 16, 106, 108, 114, 116, 206, 208, 214, 216, 306, 308, 314,
                                              316));
}

TEST(PoolingMax, UnbatchedInputGivesUnbatchedOutput) {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  Tensor y = ops::max_pool2d(x, {2});
  EXPECT_THAT(y.sizes(), ElementsAre(2, 1, 1));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(4, 8));
}

TEST(PoolingMax, EmptyBatchGivesEmptyOutput) {
  EXPECT_THAT(ops::max_pool2d(zeros({0, 3, 4, 4}), {2}).sizes(), ElementsAre(0, 3, 2, 2));
}

TEST(PoolingMax, TransposedInputIsReadThroughItsStrides) {
  Tensor base = countingImage(4);
  Tensor transposed = viewOf(base, {1, 1, 4, 4}, {16, 16, 1, 4});  // [[1, 5, 9, 13], [2, 6, ...], ...]
  EXPECT_THAT(valuesOf<float>(ops::max_pool2d(transposed, {2}, {1})),
              ElementsAre(6, 10, 14, 7, 11, 15, 8, 12, 16));
}

TEST(PoolingMax, OutReturnsTheCallersTensorResizedFromTheWrongShape) {
  Tensor out = zeros({7});
  EXPECT_EQ(&ops::max_pool2d_out(out, countingImage(4), {2}), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(6, 8, 14, 16));
}

TEST(PoolingMax, OutAliasingTheInputGetsTheResultOfTheOriginalInput) {
  // Same-size pooling (kernel 3, stride 1, padding 1) written over its own input.
  Tensor x = countingImage(3);
  ops::max_pool2d_out(x, x, {3}, {1}, {1});
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(5, 6, 6, 8, 9, 9, 8, 9, 9));
}

TEST(PoolingMax, TransposedOutIsWrittenThroughItsStrides) {
  Tensor storage = zeros({4});
  Tensor out = viewOf(storage, {1, 1, 2, 2}, {4, 4, 1, 2});
  ops::max_pool2d_out(out, countingImage(4), {2});
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(6, 8, 14, 16));
  EXPECT_THAT(valuesOf<float>(storage), ElementsAre(6, 14, 8, 16));
}

// ---- avg_pool2d --------------------------------------------------------------------------------

TEST(PoolingAvg, MeanOfEachWindow) {
  Tensor y = ops::avg_pool2d(countingImage(4), {2});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(3.5, 5.5, 11.5, 13.5));
}

TEST(PoolingAvg, CountIncludePadDividesByTheFullWindow) {
  EXPECT_THAT(valuesOf<float>(ops::avg_pool2d(countingImage(4), {2}, {2}, {1})),
              ElementsAre(0.25, 1.25, 1, 3.5, 8.5, 5, 3.25, 7.25, 4));
}

TEST(PoolingAvg, WithoutCountIncludePadDividesByTheInputElements) {
  Tensor y = ops::avg_pool2d(countingImage(4), {2}, {2}, {1}, false, /*count_include_pad=*/false);
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1, 2.5, 4, 7, 8.5, 10, 13, 14.5, 16));
}

TEST(PoolingAvg, DivisorOverrideReplacesTheDivisor) {
  Tensor y = ops::avg_pool2d(countingImage(4), {2}, {2}, {1}, false, true, /*divisor_override=*/1);
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1, 5, 4, 14, 34, 20, 13, 29, 16));
}

TEST(PoolingAvg, CeilModeWindowsPastTheInputCountOnlyWhatTheyCover) {
  // countingImage(5) with kernel 2, stride 2, ceil_mode: the last row and column of windows hang
  // over the edge; with no padding there is nothing to include, so they divide by 2 (or 1).
  Tensor y = ops::avg_pool2d(countingImage(5), {2}, {2}, {0}, /*ceil_mode=*/true);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 3, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(4, 6, 7.5, 14, 16, 17.5, 21.5, 23.5, 25));
}

TEST(PoolingAvg, IntegralAveragesTruncateTowardZero) {
  Tensor positive = tensor<int64_t>({1, 2, 3, 5}, {1, 1, 2, 2});  // 11 / 4
  EXPECT_THAT(valuesOf<int64_t>(ops::avg_pool2d(positive, {2})), ElementsAre(2));
  Tensor negative = tensor<int32_t>({-1, -2, -3, -5}, {1, 1, 2, 2});  // -11 / 4
  EXPECT_THAT(valuesOf<int32_t>(ops::avg_pool2d(negative, {2})), ElementsAre(-2));
}

TEST(PoolingAvg, DoubleStaysDouble) {
  EXPECT_THAT(valuesOf<double>(ops::avg_pool2d(countingImage<double>(4), {2})), ElementsAre(3.5, 5.5, 11.5, 13.5));
}

TEST(PoolingAvg, NanAndInfinityPropagateToTheirWindows) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor<float>({nan, 1, 1, 1, 1, 1, 1, 1, 1, 1, inf, 1, 1, 1, 1, 1}, {1, 1, 4, 4});
  std::vector<float> y = valuesOf<float>(ops::avg_pool2d(x, {2}));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 1);
  EXPECT_EQ(y[2], 1);
  EXPECT_EQ(y[3], inf);
}

TEST(PoolingAvg, OutReturnsTheCallersTensorResizedFromTheWrongShape) {
  Tensor out = zeros({1, 9});
  EXPECT_EQ(&ops::avg_pool2d_out(out, countingImage(4), {2}), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(3.5, 5.5, 11.5, 13.5));
}

TEST(PoolingAvg, OutOfDoubleReceivesTheFloatResult) {
  Tensor out = empty({1}, ScalarType::Double);
  ops::avg_pool2d_out(out, countingImage(4), {4});
  EXPECT_EQ(out.item<double>(), 8.5);
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(PoolingErrors, PaddingOverHalfTheKernelIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(countingImage(4), {3}, {1}, {2}); }),
            "aten::max_pool2d: expected 'padding' (2, 2) to be at most half of 'kernel_size' (3, 3)");
}

TEST(PoolingErrors, BadKernelAndStrideValuesAreRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::avg_pool2d(countingImage(4), {}); }),
            "aten::avg_pool2d: expected 'kernel_size' to be a single int or a list of two ints (height, width) but "
            "got 0 values");
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(countingImage(4), {0, 2}); }),
            "aten::max_pool2d: expected 'kernel_size' to be positive but got (0, 2)");
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(countingImage(4), {2}, {1, 0}); }),
            "aten::max_pool2d: expected 'stride' to be positive but got (1, 0)");
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(countingImage(4), {2}, {}, {0}, {0}); }),
            "aten::max_pool2d: expected 'dilation' to be positive but got (0, 0)");
}

TEST(PoolingErrors, InputMustBeThreeOrFourDimensionalWithNonEmptyPlanes) {
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(zeros({4, 4}), {2}); }),
            "aten::max_pool2d: expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with non-zero C, H "
            "and W but got size (4, 4)");
  EXPECT_EQ(errorMessageOf([] { ops::avg_pool2d(zeros({1, 0, 4, 4}), {2}); }),
            "aten::avg_pool2d: expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with non-zero C, H "
            "and W but got size (1, 0, 4, 4)");
}

TEST(PoolingErrors, KernelLargerThanInputIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(countingImage(2), {3}); }),
            "aten::max_pool2d: the output would be empty (0 x 0) for an input of 2 x 2 with kernel_size (3, 3), "
            "stride (3, 3), padding (0, 0) and dilation (1, 1)");
}

TEST(PoolingErrors, BoolInputIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::max_pool2d(zeros({1, 1, 2, 2}, ScalarType::Bool), {2}); }),
            "aten::max_pool2d: argument 'self' has dtype Bool, which this kernel does not support (supported: Byte, "
            "Char, Short, Int, Long, Half, Float, Double, BFloat16)");
}

TEST(PoolingErrors, ZeroDivisorOverrideIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::avg_pool2d(countingImage(4), {2}, {}, {0}, false, true, 0); }),
            "aten::avg_pool2d: expected 'divisor_override' to be non-zero");
}

TEST(PoolingErrors, OutOfIntegralDtypeCannotTakeFloatResult) {
  Tensor out = zeros({3}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::avg_pool2d_out(out, countingImage(4), {2}); }),
            "aten::avg_pool2d.out: result type Float can't be cast to the desired output type Long");
  EXPECT_THAT(out.sizes(), ElementsAre(3));
}

TEST(PoolingErrors, ExpandedOutIsRejected) {
  // Four logical elements on one memory location: which one would win is unspecified.
  Tensor storage = zeros({1});
  Tensor out = viewOf(storage, {1, 1, 2, 2}, {0, 0, 0, 0});
  EXPECT_TRUE(raisesError([&] { ops::max_pool2d_out(out, countingImage(4), {2}); }, ErrorKind::Generic,
                          "aten::max_pool2d.out: unsupported operation: more than one element of the written-to "
                          "tensor 'out' refers to a single memory location"));
}

}  // namespace
}  // namespace sy
