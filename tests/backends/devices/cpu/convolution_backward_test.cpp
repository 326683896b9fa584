// convolution_backward through the dispatcher: the three gradients on an example worked by hand,
// output_mask, and the errors a caller can make. (The oracle compares 1-, 2- and 3-D cases with
// PyTorch 1.13: conformance/oracle/cases/convolution_backward_cases.cpp.)
#include <cmath>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

// y[o] = x[o] * w[0] + x[o + 1] * w[1] for x = [1, 2, 3], w = [1, -1]; with dy = [1, 1]:
// dx = [dy0 w0, dy0 w1 + dy1 w0, dy1 w1] = [1, 0, -1], dw = [x0 + x1, x1 + x2] = [3, 5], db = 2.
struct Example {
  Tensor grad_output = tensor<float>({1, 1}, {1, 1, 2});
  Tensor input = tensor<float>({1, 2, 3}, {1, 1, 3});
  Tensor weight = tensor<float>({1, -1}, {1, 1, 2});
};

TEST(ConvolutionBackward, GivesTheGradientsOfInputWeightAndBias) {
  const Example e;
  const auto [gi, gw, gb] = ops::convolution_backward(e.grad_output, e.input, e.weight, std::vector<int64_t>{1}, {1},
                                                      {0}, {1}, false, {0}, 1, {true, true, true});
  EXPECT_THAT(gi.sizes(), ElementsAre(1, 1, 3));
  EXPECT_THAT(valuesOf<float>(gi), ElementsAre(1, 0, -1));
  EXPECT_THAT(valuesOf<float>(gw), ElementsAre(3, 5));
  EXPECT_THAT(valuesOf<float>(gb), ElementsAre(2));
}

TEST(ConvolutionBackward, ComputesOnlyWhatOutputMaskAsksFor) {
  const Example e;
  const auto [gi, gw, gb] =
      ops::convolution_backward(e.grad_output, e.input, e.weight, std::nullopt, {1}, {0}, {1}, false, {0}, 1,
                                {false, true, false});
  EXPECT_FALSE(gi.defined());
  EXPECT_THAT(valuesOf<float>(gw), ElementsAre(3, 5));
  EXPECT_FALSE(gb.defined());
  // The out= form leaves the outs it was not asked for as they were.
  Tensor out0 = sy::full({2}, 7.0f), out1 = sy::empty({0}), out2 = sy::full({1}, 7.0f);
  ops::convolution_backward_out(out0, out1, out2, e.grad_output, e.input, e.weight, std::nullopt, {1}, {0}, {1}, false,
                                {0}, 1, {false, true, false});
  EXPECT_THAT(valuesOf<float>(out0), ElementsAre(7, 7));
  EXPECT_THAT(valuesOf<float>(out1), ElementsAre(3, 5));
}

TEST(ConvolutionBackward, PaddingAndStrideSendNoGradientToThePadding) {
  // x = [1, 2, 3, 4], w = [1, 1], stride 2, padding 1: y = [x0, x1 + x2, x3] (the padding reads 0).
  const Tensor input = tensor<float>({1, 2, 3, 4}, {1, 1, 4});
  const Tensor weight = tensor<float>({1, 1}, {1, 1, 2});
  const Tensor grad_output = tensor<float>({1, 10, 100}, {1, 1, 3});
  const auto [gi, gw, gb] =
      ops::convolution_backward(grad_output, input, weight, std::nullopt, {2}, {1}, {1}, false, {0}, 1, {true, true, true});
  EXPECT_THAT(valuesOf<float>(gi), ElementsAre(1, 10, 10, 100));
  EXPECT_THAT(valuesOf<float>(gw), ElementsAre(0 * 1 + 2 * 10 + 4 * 100, 1 * 1 + 3 * 10 + 0 * 100));
  EXPECT_THAT(valuesOf<float>(gb), ElementsAre(111));
}

TEST(ConvolutionBackward, GivesTheGradientsOfATransposedConvolution) {
  // The transposed convolution of x = [1, 2] with w = [1, -1] is y = [x0 w0, x0 w1 + x1 w0, x1 w1]
  // = [1, 1, -2]; with dy = [1, 10, 100]: dx[i] = dy[i] w0 + dy[i + 1] w1 = [-9, -90],
  // dw[k] = x0 dy[k] + x1 dy[k + 1] = [21, 210], db = 111.
  const Tensor x = tensor<float>({1, 2}, {1, 1, 2});
  const Tensor w = tensor<float>({1, -1}, {1, 1, 2});
  EXPECT_THAT(valuesOf<float>(ops::convolution(x, w, std::nullopt, {1}, {0}, {1}, true, {0}, 1)), ElementsAre(1, 1, -2));
  const auto [gi, gw, gb] = ops::convolution_backward(tensor<float>({1, 10, 100}, {1, 1, 3}), x, w,
                                                      std::vector<int64_t>{1}, {1}, {0}, {1}, true, {0}, 1,
                                                      {true, true, true});
  EXPECT_THAT(valuesOf<float>(gi), ElementsAre(-9, -90));
  EXPECT_THAT(valuesOf<float>(gw), ElementsAre(21, 210));
  EXPECT_THAT(valuesOf<float>(gb), ElementsAre(111));
}

// y is bilinear in x and w, so <dy, y> = <dx, x> = <dw, w> for the true gradients: a check that
// needs only the forward transposed convolution, here strided, padded, grouped, with output_padding.
TEST(ConvolutionBackward, TransposedGradientsSatisfyTheInnerProductIdentity) {
  const TensorOptions doubles(ScalarType::Double);
  const Tensor x = ops::sin(ops::arange(2 * 4 * 3 * 3, doubles)).reshape({2, 4, 3, 3});
  const Tensor w = ops::cos(ops::arange(4 * 3 * 3 * 2, doubles)).reshape({4, 3, 3, 2});
  const std::vector<int64_t> stride{2, 1}, padding{1, 0}, dilation{1, 2}, output_padding{1, 0};
  const Tensor y = ops::convolution(x, w, std::nullopt, stride, padding, dilation, true, output_padding, 2);
  ASSERT_THAT(y.sizes(), ElementsAre(2, 6, 6, 5));
  const Tensor dy = ops::cos(ops::mul(ops::arange(y.numel(), doubles), 0.37)).reshape(y.sizes());
  const auto [dx, dw, db] = ops::convolution_backward(dy, x, w, std::vector<int64_t>{6}, stride, padding, dilation,
                                                      true, output_padding, 2, {true, true, true});
  auto inner = [](const Tensor& a, const Tensor& b) { return ops::sum(ops::mul(a, b)).item<double>(); };
  const double reference = inner(dy, y);
  EXPECT_NEAR(inner(dx, x), reference, 1e-9 * std::abs(reference));
  EXPECT_NEAR(inner(dw, w), reference, 1e-9 * std::abs(reference));
  EXPECT_THAT(db.sizes(), ElementsAre(6));
  EXPECT_NEAR(ops::sum(db).item<double>(), ops::sum(dy).item<double>(), 1e-9);
}

TEST(ConvolutionBackward, RefusesAWrongGradOutputAndWrongBiasSizes) {
  const Example e;
  EXPECT_THAT(errorMessageOf([&] {
                ops::convolution_backward(tensor<float>({1, 1, 1}, {1, 1, 3}), e.input, e.weight, std::nullopt, {1},
                                          {0}, {1}, false, {0}, 1, {true, true, true});
              }),
              HasSubstr("expected 'grad_output' to have the convolution's output size (1, 1, 2) but got (1, 1, 3)"));
  EXPECT_THAT(errorMessageOf([&] {
                ops::convolution_backward(e.grad_output, e.input, e.weight, std::vector<int64_t>{4}, {1}, {0}, {1},
                                          false, {0}, 1, {true, true, true});
              }),
              HasSubstr("expected 'bias_sizes' to be (1,), the out_channels, but got (4,)"));
  EXPECT_THAT(errorMessageOf([&] {
                ops::convolution_backward(e.grad_output, e.input, e.weight, std::nullopt, {1}, {0}, {1}, false, {0}, 1,
                                          {true, true});
              }),
              HasSubstr("aten::convolution_backward: expected 'output_mask' to have 3 values but got 2"));
}

}  // namespace
}  // namespace sy
