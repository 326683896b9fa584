// aten::convolution beyond the 2-D fast path (backends/devices/cpu/convolution_nd.cpp): 1-D and 3-D
// convolutions agree with the 2-D kernel on the same problem given a size-1 dimension, and
// transposed convolutions are the adjoints of the forward ones (<conv(x, w), y> = <x, conv_T(y, w)>
// for every stride, padding, dilation and groups), which pins their geometry without a second
// implementation; plus hand-worked values and the errors.
#include <cmath>
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

Tensor convNdRandom(const std::vector<int64_t>& sizes, uint32_t seed) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return tensor<double>(randomUniformValues<double>(n, seed), sizes);
}

// The same values viewed with other sizes (a size-1 dimension added).
Tensor convNdReshaped(const Tensor& t, const std::vector<int64_t>& sizes) {
  return tensor<double>(contiguousDoublesOf(t), sizes);
}

void expectConvNdNear(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.numel(), want.numel());
  const std::vector<double> a = contiguousDoublesOf(got), b = contiguousDoublesOf(want);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12) << "element " << i;
}

double convNdDot(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = contiguousDoublesOf(a), y = contiguousDoublesOf(b);
  double sum = 0;
  for (size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
  return sum;
}

TEST(ConvolutionNd, OneDimensionalMatchesTwoDimensionalOfHeightOne) {
  Tensor x = convNdRandom({2, 4, 11}, 1), w = convNdRandom({6, 2, 3}, 2), b = convNdRandom({6}, 3);
  Tensor y = ops::convolution(x, w, b, {2}, {1}, {2}, false, {0}, 2);
  Tensor y2 = ops::convolution(convNdReshaped(x, {2, 4, 1, 11}), convNdReshaped(w, {6, 2, 1, 3}), b, {1, 2}, {0, 1},
                               {1, 2}, false, {0, 0}, 2);
  EXPECT_THAT(y.sizes(), ElementsAre(2, 6, 5));
  expectConvNdNear(y, y2);
}

TEST(ConvolutionNd, UnbatchedOneDimensionalInputGivesAnUnbatchedResult) {
  Tensor x = convNdRandom({3, 8}, 4), w = convNdRandom({2, 3, 3}, 5);
  Tensor y = ops::convolution(x, w, std::nullopt, {1}, {0}, {1}, false, {0}, 1);
  EXPECT_THAT(y.sizes(), ElementsAre(2, 6));
  expectConvNdNear(y, ops::convolution(convNdReshaped(x, {1, 3, 8}), w, std::nullopt, {1}, {0}, {1}, false, {0}, 1));
}

TEST(ConvolutionNd, ThreeDimensionalMatchesTwoDimensionalOfDepthOne) {
  Tensor x = convNdRandom({1, 4, 1, 5, 6}, 6), w = convNdRandom({2, 2, 1, 3, 3}, 7);
  Tensor y = ops::convolution(x, w, std::nullopt, {1, 2, 1}, {0, 1, 1}, {1, 1, 2}, false, {0}, 2);
  Tensor y2 = ops::convolution(convNdReshaped(x, {1, 4, 5, 6}), convNdReshaped(w, {2, 2, 3, 3}), std::nullopt, {2, 1},
                               {1, 1}, {1, 2}, false, {0, 0}, 2);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 2, 1, 3, 4));
  expectConvNdNear(y, y2);
}

TEST(ConvolutionNd, HandWorkedThreeDimensionalKernelSumsItsCube) {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 2, 2, 2});
  Tensor y = ops::convolution(x, ones({1, 1, 2, 2, 2}), tensor<float>({0.5f}, {1}), {1}, {0}, {1}, false, {0}, 1);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 1, 1, 1));
  EXPECT_EQ(y.item<float>(), 36.5f);
}

TEST(ConvolutionNd, HandWorkedTransposedConvolutionScattersEachInputTimesTheKernel) {
  Tensor y = ops::convolution(tensor<float>({1, 2}, {1, 1, 2}), tensor<float>({1, 10}, {1, 1, 2}),
                              tensor<float>({0.5f}, {1}), {2}, {0}, {1}, true, {1}, 1);
  // Input 1 lands at 0 and 1, input 2 at 2 and 3; output_padding adds one position of bias alone.
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(1.5, 10.5, 2.5, 20.5, 0.5));
}

// <conv(x, w), y> == <x, conv_transposed(y, w)>: the transposed convolution is the forward one's adjoint.
void expectTransposedIsAdjoint(const std::vector<int64_t>& x_sizes, const std::vector<int64_t>& w_sizes,
                               IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                               IntArrayRef output_padding, int64_t groups) {
  Tensor x = convNdRandom(x_sizes, 11), w = convNdRandom(w_sizes, 12);
  Tensor forward = ops::convolution(x, w, std::nullopt, stride, padding, dilation, false, {0}, groups);
  Tensor y = convNdRandom(std::vector<int64_t>(forward.sizes().begin(), forward.sizes().end()), 13);
  Tensor back = ops::convolution(y, w, std::nullopt, stride, padding, dilation, true, output_padding, groups);
  ASSERT_EQ(std::vector<int64_t>(back.sizes().begin(), back.sizes().end()), x_sizes);
  EXPECT_NEAR(convNdDot(forward, y), convNdDot(x, back), 1e-9);
}

TEST(ConvolutionNd, TransposedTwoDimensionalIsTheAdjointOfTheForwardConvolution) {
  expectTransposedIsAdjoint({2, 4, 7, 6}, {6, 2, 3, 2}, {2, 3}, {1, 0}, {1, 2}, {0, 0}, 2);
}

TEST(ConvolutionNd, TransposedOneDimensionalIsTheAdjointOfTheForwardConvolution) {
  expectTransposedIsAdjoint({1, 3, 10}, {2, 3, 4}, {3}, {2}, {1}, {1}, 1);
}

TEST(ConvolutionNd, TransposedThreeDimensionalIsTheAdjointOfTheForwardConvolution) {
  expectTransposedIsAdjoint({1, 2, 5, 4, 6}, {4, 1, 2, 3, 2}, {2, 1, 2}, {1, 1, 0}, {1, 1, 2}, {1, 0, 1}, 2);
}

TEST(ConvolutionNd, OutFormResizesTheCallersTensorForATransposedConvolution) {
  Tensor x = convNdRandom({1, 2, 6}, 14), w = convNdRandom({2, 3, 2}, 15);
  Tensor out = zeros({7}, ScalarType::Double);
  Tensor& result = ops::convolution_out(out, x, w, std::nullopt, {1}, {0}, {1}, true, {0}, 1);
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 3, 7));  // transposed: weight.size(1) * groups = 3 channels
  expectConvNdNear(out, ops::convolution(x, w, std::nullopt, {1}, {0}, {1}, true, {0}, 1));
}

TEST(ConvolutionNd, BadGeometryIsRefusedNamingTheArgument) {
  EXPECT_EQ(errorMessageOf([] { ops::convolution(ones({1, 2, 5}), ones({1, 2, 3}), {}, {1, 1}, {0}, {1}, false, {0}, 1); }),
            "aten::convolution: expected 'stride' to have 1 or 1 values for a 1-D convolution but got 2");
  EXPECT_EQ(errorMessageOf([] { ops::convolution(ones({1, 3, 5}), ones({3, 2, 3}), {}, {1}, {0}, {1}, true, {0}, 2); }),
            "aten::convolution: expected the input channels (3) to be divisible by groups (2)");
  EXPECT_EQ(errorMessageOf([] { ops::convolution(ones({1, 2, 5}), ones({3, 2, 3}), {}, {1}, {0}, {1}, true, {0}, 1); }),
            "aten::convolution: expected 'input' to have 3 channels (weight.size(0) of a transposed convolution) but "
            "got 2 channels; input size (1, 2, 5), weight size (3, 2, 3)");
  EXPECT_EQ(errorMessageOf([] { ops::convolution(ones({1, 1, 2}), ones({1, 1, 2}), {}, {1}, {3}, {1}, true, {0}, 1); }),
            "aten::convolution: the transposed convolution's output would have size -3 (padding too large); input "
            "size (1, 1, 2), weight size (1, 1, 2), padding (3,)");
  EXPECT_EQ(errorMessageOf([] { ops::convolution(ones({1, 1, 2}), ones({1, 1, 4}), {}, {1}, {0}, {1}, false, {0}, 1); }),
            "aten::convolution: the padded input is smaller than the dilated kernel; input size (1, 1, 2), weight size "
            "(1, 1, 4), padding (0,), dilation (1,)");
}

}  // namespace
}  // namespace sy
