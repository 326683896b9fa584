// aten::convolution, aten::convolution.out and aten::conv2d against a naive seven-loop convolution
// written here in double precision, over stride / padding / dilation / groups combinations, with
// and without bias, plus hand-worked cases. Errors and edge cases are in convolution_edge_test.cpp.
//
// Tolerance: Float results sum K <= 300 products of values in [-1, 1] in another order than the
// double reference, so each differs by at most about K * 2^-24 * K < 1e-2 in the worst case and far
// less in practice; 1e-4 absolute plus 1e-4 relative is comfortably above what we see (~1e-6).
// Double results are held to 1e-12.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::contiguousDoublesOf;
using sy::testing::randomUniformValues;

struct ConvCase {
  int64_t batch, in_channels, height, width;
  int64_t out_channels, kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t groups;
  bool with_bias;

  int64_t outHeight() const { return (height + 2 * pad_h - dilation_h * (kernel_h - 1) - 1) / stride_h + 1; }
  int64_t outWidth() const { return (width + 2 * pad_w - dilation_w * (kernel_w - 1) - 1) / stride_w + 1; }
};

// The definition, one output element at a time: seven nested loops over batch, output channel,
// output row, output column, input channel of the group, kernel row and kernel column.
std::vector<double> naiveConvolution(const ConvCase& c, const std::vector<double>& x, const std::vector<double>& w,
                                     const std::vector<double>& b) {
  const int64_t oh_count = c.outHeight(), ow_count = c.outWidth();
  const int64_t in_per_group = c.in_channels / c.groups, out_per_group = c.out_channels / c.groups;
  std::vector<double> y;
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t co = 0; co < c.out_channels; ++co) {
      const int64_t group = co / out_per_group;
      for (int64_t oh = 0; oh < oh_count; ++oh) {
        for (int64_t ow = 0; ow < ow_count; ++ow) {
          double sum = c.with_bias ? b[co] : 0.0;
          for (int64_t ci = 0; ci < in_per_group; ++ci) {
            for (int64_t kh = 0; kh < c.kernel_h; ++kh) {
              for (int64_t kw = 0; kw < c.kernel_w; ++kw) {
                const int64_t ih = oh * c.stride_h - c.pad_h + kh * c.dilation_h;
                const int64_t iw = ow * c.stride_w - c.pad_w + kw * c.dilation_w;
                if (ih < 0 || ih >= c.height || iw < 0 || iw >= c.width) continue;
                const int64_t channel = group * in_per_group + ci;
                sum += x[((n * c.in_channels + channel) * c.height + ih) * c.width + iw] *
                       w[((co * in_per_group + ci) * c.kernel_h + kh) * c.kernel_w + kw];
              }
            }
          }
          y.push_back(sum);
        }
      }
    }
  }
  return y;
}

template <class T>
Tensor tensorFrom(const std::vector<double>& values, IntArrayRef sizes) {
  return tensor<T>(std::vector<T>(values.begin(), values.end()), sizes);
}

void expectAllNear(const std::vector<double>& actual, const std::vector<double>& expected, double atol, double rtol) {
  ASSERT_EQ(actual.size(), expected.size());
  int mismatches = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::abs(actual[i] - expected[i]) > atol + rtol * std::abs(expected[i])) {
      if (++mismatches <= 3) ADD_FAILURE() << "element " << i << ": " << actual[i] << " vs expected " << expected[i];
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Runs conv2d on random data for `c` in dtype T and compares with the naive loops.
template <class T>
void expectMatchesNaive(const ConvCase& c, uint32_t seed = 1) {
  const std::vector<double> x = randomUniformValues<double>(c.batch * c.in_channels * c.height * c.width, seed);
  const std::vector<double> w =
      randomUniformValues<double>(c.out_channels * (c.in_channels / c.groups) * c.kernel_h * c.kernel_w, seed + 1);
  const std::vector<double> b = randomUniformValues<double>(c.out_channels, seed + 2);
  std::optional<Tensor> bias;
  if (c.with_bias) bias = tensorFrom<T>(b, {c.out_channels});
  Tensor y = ops::conv2d(tensorFrom<T>(x, {c.batch, c.in_channels, c.height, c.width}),
                         tensorFrom<T>(w, {c.out_channels, c.in_channels / c.groups, c.kernel_h, c.kernel_w}), bias,
                         {c.stride_h, c.stride_w}, {c.pad_h, c.pad_w}, {c.dilation_h, c.dilation_w}, c.groups);
  EXPECT_THAT(y.sizes(), ElementsAre(c.batch, c.out_channels, c.outHeight(), c.outWidth()));
  const double tolerance = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  expectAllNear(contiguousDoublesOf(y), naiveConvolution(c, x, w, b), tolerance, tolerance);
}

// ---- Against the naive loops --------------------------------------------------------------------

TEST(Convolution, MatchesNaiveLoopsForPlainThreeByThree) {
  expectMatchesNaive<float>({2, 3, 7, 6, 4, 3, 3, 1, 1, 0, 0, 1, 1, 1, true});
}

TEST(Convolution, MatchesNaiveLoopsWithoutBias) {
  expectMatchesNaive<float>({2, 3, 7, 6, 4, 3, 3, 1, 1, 0, 0, 1, 1, 1, false});
}

TEST(Convolution, MatchesNaiveLoopsWithStrideAndPadding) {
  expectMatchesNaive<float>({2, 3, 9, 8, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, true});
  expectMatchesNaive<float>({1, 2, 10, 11, 3, 3, 2, 3, 1, 1, 0, 1, 1, 1, false});
}

TEST(Convolution, MatchesNaiveLoopsWithDilation) {
  expectMatchesNaive<float>({1, 2, 11, 12, 3, 3, 3, 1, 1, 2, 2, 2, 2, 1, true});
  expectMatchesNaive<float>({2, 3, 9, 10, 2, 2, 3, 2, 1, 1, 2, 3, 2, 1, false});
}

TEST(Convolution, MatchesNaiveLoopsWithGroups) {
  expectMatchesNaive<float>({2, 6, 8, 8, 4, 3, 3, 1, 1, 1, 1, 1, 1, 2, true});
  expectMatchesNaive<float>({1, 6, 9, 7, 9, 2, 2, 2, 1, 0, 1, 1, 2, 3, false});
}

TEST(Convolution, MatchesNaiveLoopsForDepthwise) {
  expectMatchesNaive<float>({2, 5, 9, 9, 5, 3, 3, 1, 1, 1, 1, 1, 1, 5, true});
}

TEST(Convolution, MatchesNaiveLoopsForPointwise) {
  // A 1x1 kernel at stride 1 without padding reads the input directly instead of unfolding it.
  expectMatchesNaive<float>({2, 7, 6, 5, 9, 1, 1, 1, 1, 0, 0, 1, 1, 1, true});
  expectMatchesNaive<float>({1, 6, 5, 5, 4, 1, 1, 1, 1, 0, 0, 1, 1, 2, false});
  // A strided or padded 1x1 kernel takes the unfolding path.
  expectMatchesNaive<float>({1, 3, 7, 7, 2, 1, 1, 2, 2, 1, 1, 1, 1, 1, true});
}

TEST(Convolution, MatchesNaiveLoopsWhenOutputSpansManyTiles) {
  // 70 x 66 output positions with a 27-long patch: several tiles, the last one partial and
  // starting mid-row.
  expectMatchesNaive<float>({1, 3, 72, 68, 6, 3, 3, 1, 1, 0, 0, 1, 1, 1, true});
  // A long patch (64 channels x 3 x 3) makes the tiles narrow.
  expectMatchesNaive<float>({1, 64, 20, 20, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, true});
}

TEST(Convolution, MatchesNaiveLoopsForKernelLargerThanInputWithPadding) {
  expectMatchesNaive<float>({1, 2, 2, 3, 3, 5, 5, 1, 1, 2, 2, 1, 1, 1, true});
}

TEST(Convolution, MatchesNaiveLoopsInDouble) {
  expectMatchesNaive<double>({2, 4, 8, 7, 6, 3, 2, 2, 1, 1, 1, 1, 2, 2, true});
  expectMatchesNaive<double>({1, 3, 5, 5, 2, 1, 1, 1, 1, 0, 0, 1, 1, 1, false});
}

// ---- Hand-worked -------------------------------------------------------------------------------

TEST(Convolution, HandWorkedTwoByTwoKernelSumsWindows) {
  // x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], an all-ones 2x2 kernel and bias 10: window sums + 10.
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor w = ones({1, 1, 2, 2});
  Tensor y = ops::conv2d(x, w, tensor<float>({10}, {1}));
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(22, 26, 34, 38));
}

TEST(Convolution, HandWorkedPaddingAddsZerosAroundTheInput) {
  // A 3x3 all-ones kernel with padding 1 over [[1, 2], [3, 4]]: every window covers all four.
  Tensor y = ops::conv2d(tensor<float>({1, 2, 3, 4}, {1, 1, 2, 2}), ones({1, 1, 3, 3}), std::nullopt, {1}, {1});
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(10, 10, 10, 10));
}

TEST(Convolution, HandWorkedTwoOutputChannelsUseTheirOwnKernels) {
  // Channel 0 picks the top-left of each window, channel 1 doubles the bottom-right.
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor w = tensor<float>({1, 0, 0, 0, 0, 0, 0, 2}, {2, 1, 2, 2});
  EXPECT_THAT(contiguousDoublesOf(ops::conv2d(x, w)), ElementsAre(1, 2, 4, 5, 10, 12, 16, 18));
}

TEST(Convolution, ConvolutionOperatorMatchesConv2d) {
  const std::vector<double> xs = randomUniformValues<double>(2 * 4 * 6 * 6, 7);
  const std::vector<double> ws = randomUniformValues<double>(6 * 2 * 3 * 3, 8);
  Tensor x = tensorFrom<float>(xs, {2, 4, 6, 6}), w = tensorFrom<float>(ws, {6, 2, 3, 3});
  Tensor via_conv2d = ops::conv2d(x, w, std::nullopt, {2, 1}, {1, 0}, {1, 1}, 2);
  Tensor via_convolution = ops::convolution(x, w, std::nullopt, {2, 1}, {1, 0}, {1, 1}, false, {0, 0}, 2);
  EXPECT_EQ(contiguousDoublesOf(via_conv2d), contiguousDoublesOf(via_convolution));
}

TEST(Convolution, SingleValueListsApplyToBothDimensions) {
  const std::vector<double> xs = randomUniformValues<double>(1 * 2 * 9 * 9, 3);
  const std::vector<double> ws = randomUniformValues<double>(2 * 2 * 3 * 3, 4);
  Tensor x = tensorFrom<float>(xs, {1, 2, 9, 9}), w = tensorFrom<float>(ws, {2, 2, 3, 3});
  Tensor short_form = ops::conv2d(x, w, std::nullopt, {2}, {1}, {2});
  Tensor long_form = ops::conv2d(x, w, std::nullopt, {2, 2}, {1, 1}, {2, 2});
  EXPECT_EQ(contiguousDoublesOf(short_form), contiguousDoublesOf(long_form));
}

// ---- out= --------------------------------------------------------------------------------------

TEST(Convolution, OutReturnsTheCallersTensorAndMatchesFunctional) {
  const std::vector<double> xs = randomUniformValues<double>(2 * 3 * 5 * 5, 11);
  const std::vector<double> ws = randomUniformValues<double>(4 * 3 * 3 * 3, 12);
  Tensor x = tensorFrom<float>(xs, {2, 3, 5, 5}), w = tensorFrom<float>(ws, {4, 3, 3, 3});
  Tensor b = tensor<float>({1, 2, 3, 4}, {4});
  Tensor out = empty({2, 4, 5, 5});
  EXPECT_EQ(&ops::convolution_out(out, x, w, b, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1), &out);
  Tensor expected = ops::convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1);
  EXPECT_EQ(contiguousDoublesOf(out), contiguousDoublesOf(expected));
}

TEST(Convolution, OutOfTheWrongShapeIsResized) {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor out = zeros({5});
  ops::convolution_out(out, x, ones({1, 1, 2, 2}), std::nullopt, {1}, {0}, {1}, false, {0}, 1);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(contiguousDoublesOf(out), ElementsAre(12, 16, 24, 28));
}

TEST(Convolution, OutOfDoubleReceivesFloatResultConverted) {
  Tensor x = tensor<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  Tensor out = empty({1, 1, 1, 1}, ScalarType::Double);
  ops::convolution_out(out, x, ones({1, 1, 2, 2}), std::nullopt, {1}, {0}, {1}, false, {0}, 1);
  EXPECT_EQ(out.scalar_type(), ScalarType::Double);
  EXPECT_EQ(out.item<double>(), 10.0);
}

}  // namespace
}  // namespace sy
