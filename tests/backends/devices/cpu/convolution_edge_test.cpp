// aten::convolution's corners: unbatched and empty inputs, strided views as inputs and outputs, an
// out= that aliases the input, NaN and infinity, the boxed path, and the exact error messages.
// Expected values are hand-worked or come from the same operator on dense copies.
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
using sy::testing::valuesOf;
using sy::testing::viewOf;

Tensor conv(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b = std::nullopt,
            IntArrayRef stride = {1, 1}, IntArrayRef padding = {0, 0}, int64_t groups = 1) {
  return ops::convolution(x, w, b, stride, padding, {1, 1}, false, {0, 0}, groups);
}

const Tensor kNineValues = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});

// ---- Shapes ------------------------------------------------------------------------------------

TEST(ConvolutionShapes, UnbatchedInputGivesUnbatchedOutput) {
  Tensor y = conv(tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3}), ones({1, 1, 2, 2}));
  EXPECT_THAT(y.sizes(), ElementsAre(1, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(12, 16, 24, 28));
  EXPECT_THAT(ops::conv2d(tensor<float>({1, 2, 3, 4}, {1, 2, 2}), ones({1, 1, 2, 2})).sizes(), ElementsAre(1, 1, 1));
}

TEST(ConvolutionShapes, EmptyBatchGivesEmptyOutput) {
  EXPECT_THAT(conv(zeros({0, 3, 5, 5}), ones({4, 3, 3, 3})).sizes(), ElementsAre(0, 4, 3, 3));
}

TEST(ConvolutionShapes, ZeroOutputChannelsGiveEmptyOutput) {
  EXPECT_THAT(conv(ones({1, 3, 5, 5}), ones({0, 3, 3, 3})).sizes(), ElementsAre(1, 0, 3, 3));
}

TEST(ConvolutionShapes, ZeroInputChannelsGiveTheBias) {
  Tensor y = conv(ones({1, 0, 3, 3}), ones({2, 0, 2, 2}), tensor<float>({1.5f, -2.0f}, {2}));
  EXPECT_THAT(y.sizes(), ElementsAre(1, 2, 2, 2));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(1.5f, 1.5f, 1.5f, 1.5f, -2, -2, -2, -2));
}

// ---- Strided views -----------------------------------------------------------------------------

TEST(ConvolutionViews, TransposedInputIsReadThroughItsStrides) {
  // `transposed` is the 3x3 image [[1, 4, 7], [2, 5, 8], [3, 6, 9]] without being contiguous.
  Tensor transposed = viewOf(kNineValues, {1, 1, 3, 3}, {9, 9, 1, 3});
  ASSERT_FALSE(transposed.is_contiguous());
  Tensor dense = tensor<float>({1, 4, 7, 2, 5, 8, 3, 6, 9}, {1, 1, 3, 3});
  Tensor w = tensor<float>({1, -1, 2, 0.5f}, {1, 1, 2, 2});
  EXPECT_EQ(valuesOf<float>(conv(transposed, w)), valuesOf<float>(conv(dense, w)));
}

TEST(ConvolutionViews, SlicedInputStartsAtItsOffset) {
  // Rows 1..2 of a 4x3 image, via a storage offset of one row.
  Tensor image = tensor<float>({0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0}, {1, 1, 4, 3});
  Tensor rows = viewOf(image, {1, 1, 2, 3}, {12, 12, 3, 1}, 3);
  EXPECT_THAT(valuesOf<float>(conv(rows, ones({1, 1, 2, 2}))), ElementsAre(12, 16));
}

TEST(ConvolutionViews, ExpandedWeightRepeatsOneKernel) {
  // Three output channels that all share one kernel's storage (stride 0 on dimension 0).
  Tensor kernel = tensor<float>({1, 0, 0, 1}, {1, 1, 2, 2});
  Tensor expanded = viewOf(kernel, {3, 1, 2, 2}, {0, 4, 2, 1});
  EXPECT_THAT(valuesOf<float>(conv(kNineValues, expanded)), ElementsAre(6, 8, 12, 14, 6, 8, 12, 14, 6, 8, 12, 14));
}

TEST(ConvolutionViews, NonContiguousOutIsWrittenThroughItsStrides) {
  Tensor storage = zeros({4});
  Tensor out = viewOf(storage, {1, 1, 2, 2}, {4, 4, 1, 2});  // the transpose of a dense 2x2
  ops::convolution_out(out, kNineValues, ones({1, 1, 2, 2}), std::nullopt, {1}, {0}, {1}, false, {0}, 1);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(12, 16, 24, 28));
  EXPECT_THAT(valuesOf<float>(storage), ElementsAre(12, 24, 16, 28));
}

TEST(ConvolutionViews, OutAliasingTheInputGetsTheResultOfTheOriginalInput) {
  // A same-size convolution written over its own input must read every input value first.
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor expected = conv(x, ones({1, 1, 3, 3}), std::nullopt, {1, 1}, {1, 1});
  ops::convolution_out(x, x, ones({1, 1, 3, 3}), std::nullopt, {1}, {1}, {1}, false, {0}, 1);
  EXPECT_EQ(valuesOf<float>(x), valuesOf<float>(expected));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(12, 21, 16, 27, 45, 33, 24, 39, 28));
}

// ---- NaN and infinity --------------------------------------------------------------------------

TEST(ConvolutionSpecialValues, NanReachesOnlyTheWindowsThatContainIt) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = tensor<float>({nan, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 3, 3});
  std::vector<float> y = valuesOf<float>(conv(x, ones({1, 1, 2, 2})));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_THAT(std::vector<float>(y.begin() + 1, y.end()), ElementsAre(4, 4, 4));
}

TEST(ConvolutionSpecialValues, InfinityTimesPositiveWeightStaysInfinite) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor<float>({1, 1, 1, 1, 1, 1, 1, 1, inf}, {1, 1, 3, 3});
  std::vector<float> y = valuesOf<float>(conv(x, ones({1, 1, 2, 2})));
  EXPECT_THAT(y, ElementsAre(4, 4, 4, inf));
}

TEST(ConvolutionSpecialValues, InfinityTimesZeroWeightIsNan) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = tensor<float>({inf, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_TRUE(std::isnan(conv(x, zeros({1, 1, 2, 2})).item<float>()));
}

// ---- Boxed -------------------------------------------------------------------------------------

TEST(ConvolutionBoxed, BoxedConv2dWithNoneBiasMatchesUnboxed) {
  Tensor w = tensor<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  Stack stack{kNineValues, w, IValue(), std::vector<int64_t>{1, 1}, std::vector<int64_t>{0, 0},
              std::vector<int64_t>{1, 1}, int64_t{1}};
  Dispatcher::singleton().findSchemaOrThrow("aten::conv2d", "").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(valuesOf<float>(stack[0].toTensor()), valuesOf<float>(ops::conv2d(kNineValues, w)));
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(ConvolutionErrors, TransposedOutputPaddingMustBeSmallerThanStrideOrDilation) {
  EXPECT_EQ(errorMessageOf([] { ops::convolution(kNineValues, ones({1, 1, 2, 2}), {}, {1}, {0}, {1}, true, {1}, 1); }),
            "aten::convolution: expected 'output_padding' (1,) to be smaller than either the stride or the dilation");
}

TEST(ConvolutionErrors, IntegerInputIsRejected) {
  Tensor x = tensor<int64_t>({1, 2, 3, 4}, {1, 1, 2, 2});
  EXPECT_EQ(errorMessageOf([&] { conv(x, ones({1, 1, 1, 1}, ScalarType::Long)); }),
            "aten::convolution: expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got Long");
}

TEST(ConvolutionErrors, WeightOfAnotherDtypeIsRejected) {
  EXPECT_EQ(errorMessageOf([] { conv(kNineValues, ones({1, 1, 2, 2}, ScalarType::Double)); }),
            "aten::convolution: expected 'weight' to have the same dtype as 'input' (Float) but got Double");
}

TEST(ConvolutionErrors, ChannelMismatchNamesBothShapes) {
  EXPECT_EQ(errorMessageOf([] { conv(ones({1, 5, 4, 4}), ones({4, 3, 3, 3})); }),
            "aten::convolution: expected 'input' to have 3 channels (weight.size(1) = 3 times groups = 1) but got 5 "
            "channels; input size (1, 5, 4, 4), weight size (4, 3, 3, 3)");
}

TEST(ConvolutionErrors, WeightAndInputRanksMustFitOneToThreeSpatialDimensions) {
  EXPECT_EQ(errorMessageOf([] { conv(ones({1, 2, 5}), ones({1, 2})); }),
            "aten::convolution: expected 'weight' to be a 3-D, 4-D or 5-D tensor (a 1-, 2- or 3-D convolution) but got "
            "a 2-D tensor");
  EXPECT_EQ(errorMessageOf([] { conv(ones({1, 2, 5, 5}), ones({1, 2, 3})); }),
            "aten::convolution: expected 'input' to be a 3-D (batched) or 2-D (unbatched) tensor for a 1-D "
            "convolution but got a 4-D tensor");
  EXPECT_EQ(errorMessageOf([] { conv(ones({4, 4}), ones({1, 1, 2, 2})); }),
            "aten::convolution: expected 'input' to be a 4-D (N, C, H, W) or 3-D unbatched (C, H, W) tensor but got "
            "a 2-D tensor");
}

TEST(ConvolutionErrors, BiasMustHaveOneValuePerOutputChannel) {
  EXPECT_EQ(errorMessageOf([] { conv(kNineValues, ones({2, 1, 2, 2}), ones({3})); }),
            "aten::convolution: expected 'bias' to be a 1-D tensor with 2 elements (out_channels) but got size (3,)");
}

TEST(ConvolutionErrors, KernelLargerThanPaddedInputIsRejected) {
  EXPECT_EQ(errorMessageOf([] { conv(kNineValues, ones({1, 1, 4, 4})); }),
            "aten::convolution: the padded input (3 x 3) is smaller than the dilated kernel (4 x 4); input size "
            "(1, 1, 3, 3), weight size (1, 1, 4, 4)");
}

TEST(ConvolutionErrors, BadStridePaddingDilationAndGroupsAreRejected) {
  Tensor w = ones({2, 1, 2, 2});
  EXPECT_EQ(errorMessageOf([&] { conv(kNineValues, w, {}, {0, 1}); }),
            "aten::convolution: expected 'stride' to be positive but got (0, 1)");
  EXPECT_EQ(errorMessageOf([&] { conv(kNineValues, w, {}, {1, 1}, {-1}); }),
            "aten::convolution: expected 'padding' to be non-negative but got (-1, -1)");
  EXPECT_EQ(errorMessageOf([&] { ops::convolution(kNineValues, w, {}, {1}, {0}, {0}, false, {0}, 1); }),
            "aten::convolution: expected 'dilation' to be positive but got (0, 0)");
  EXPECT_EQ(errorMessageOf([&] { conv(kNineValues, w, {}, {1}, {0}, 0); }),
            "aten::convolution: expected 'groups' to be positive but got 0");
  EXPECT_EQ(errorMessageOf([&] { conv(ones({1, 3, 3, 3}), ones({2, 1, 2, 2}), {}, {1}, {0}, 3); }),
            "aten::convolution: expected the out_channels of 'weight' (2) to be divisible by groups (3)");
  EXPECT_EQ(errorMessageOf([&] { conv(kNineValues, w, {}, {1, 1, 1}); }),
            "aten::convolution: expected 'stride' to be a single int or a list of two ints (height, width) but got "
            "3 values");
}

TEST(ConvolutionErrors, OutErrorsNameTheOutOperator) {
  Tensor out = empty({1}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] {
              ops::convolution_out(out, kNineValues, ones({1, 1, 2, 2}), {}, {1}, {0}, {1}, false, {0}, 1);
            }),
            "aten::convolution.out: result type Float can't be cast to the desired output type Long");
  EXPECT_THAT(out.sizes(), ElementsAre(1));  // left untouched
}

}  // namespace
}  // namespace sy
