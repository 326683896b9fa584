// The XNNPACK delegate, operator by operator and in chains: each model is captured, run through
// preprocess / init / execute, and compared with the same model on the portable kernels
// (random shapes, batch > 1, odd spatial sizes, padding, stride, dilation, groups).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using export_::Model;
using ::testing::HasSubstr;

Model one(std::function<Tensor(const Tensor&)> f) {
  return [f](const std::vector<Tensor>& in) { return std::vector<Tensor>{f(in[0])}; };
}
Model two(std::function<Tensor(const Tensor&, const Tensor&)> f) {
  return [f](const std::vector<Tensor>& in) { return std::vector<Tensor>{f(in[0], in[1])}; };
}

struct ConvCase {
  int64_t batch, in_channels, out_channels, height, width, kernel_h, kernel_w;
  std::vector<int64_t> stride, padding, dilation;
  int64_t groups;
  bool bias;
};

// "N2_C4_O6_7x11_K3x3_S1x1_P0x0_D1x1_G1_NoBias", as test names and GoogleTest's messages show a case.
std::string convCaseName(const ConvCase& c) {
  auto pair = [](const std::vector<int64_t>& v) { return std::to_string(v[0]) + "x" + std::to_string(v[1]); };
  return "N" + std::to_string(c.batch) + "_C" + std::to_string(c.in_channels) + "_O" + std::to_string(c.out_channels) +
         "_" + std::to_string(c.height) + "x" + std::to_string(c.width) + "_K" + std::to_string(c.kernel_h) + "x" +
         std::to_string(c.kernel_w) + "_S" + pair(c.stride) + "_P" + pair(c.padding) + "_D" + pair(c.dilation) + "_G" +
         std::to_string(c.groups) + (c.bias ? "_Bias" : "_NoBias");
}
void PrintTo(const ConvCase& c, std::ostream* os) { *os << convCaseName(c); }

class XnnpackConvolution : public ::testing::TestWithParam<ConvCase> {};

TEST_P(XnnpackConvolution, MatchesThePortableKernel) {
  const ConvCase c = GetParam();
  const Tensor x = randomTensor({c.batch, c.in_channels, c.height, c.width}, 1);
  const Tensor w = randomTensor({c.out_channels, c.in_channels / c.groups, c.kernel_h, c.kernel_w}, 2);
  const Tensor b = randomTensor({c.out_channels}, 3);
  std::vector<export_::NamedTensor> params = {{"w", w}};
  if (c.bias) params.push_back({"b", b});
  expectXnnpackMatchesEager(
      one([&](const Tensor& in) {
        return ops::conv2d(in, w, c.bias ? std::optional<Tensor>(b) : std::nullopt, c.stride, c.padding, c.dilation,
                           c.groups);
      }),
      {x}, params, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, XnnpackConvolution,
    ::testing::Values(ConvCase{1, 3, 8, 9, 9, 3, 3, {1, 1}, {1, 1}, {1, 1}, 1, true},
                      ConvCase{2, 4, 6, 7, 11, 3, 3, {1, 1}, {0, 0}, {1, 1}, 1, false},
                      ConvCase{3, 5, 7, 13, 10, 3, 2, {2, 3}, {1, 2}, {1, 1}, 1, true},
                      ConvCase{2, 3, 4, 15, 15, 3, 3, {1, 1}, {2, 2}, {2, 2}, 1, true},
                      ConvCase{2, 6, 6, 9, 9, 3, 3, {1, 1}, {1, 1}, {1, 1}, 6, true},    // depthwise
                      ConvCase{1, 4, 8, 8, 7, 3, 3, {2, 2}, {1, 1}, {1, 1}, 4, true},    // depthwise, multiplier 2
                      ConvCase{2, 8, 4, 6, 6, 3, 3, {1, 1}, {1, 1}, {1, 1}, 2, true},    // grouped
                      ConvCase{1, 16, 32, 5, 5, 1, 1, {1, 1}, {0, 0}, {1, 1}, 1, true}),  // pointwise
    [](const ::testing::TestParamInfo<ConvCase>& info) { return convCaseName(info.param); });

TEST(XnnpackOps, MaxPoolingWithStridePaddingAndDilationMatches) {
  const Tensor x = randomTensor({2, 3, 11, 9}, 4);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::max_pool2d(in, {2, 2}); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::max_pool2d(in, {3, 3}, {2, 2}, {1, 1}); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::max_pool2d(in, {3, 2}, {1, 2}, {1, 0}, {2, 1}); }),
                            {x});
}

TEST(XnnpackOps, AveragePoolingMatchesWithoutPaddingAndWithPaddingNotCounted) {
  const Tensor x = randomTensor({2, 3, 10, 7}, 5);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::avg_pool2d(in, {2, 2}); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::avg_pool2d(in, {3, 3}, {2, 1}); }), {x});
  expectXnnpackMatchesEager(
      one([](const Tensor& in) { return ops::avg_pool2d(in, {3, 3}, {2, 2}, {1, 1}, false, /*count_include_pad=*/false); }),
      {x});
}

TEST(XnnpackOps, GlobalAveragePoolingIsTheMeanOverHeightAndWidth) {
  const Tensor x = randomTensor({3, 5, 7, 6}, 6);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::mean(in, std::vector<int64_t>{2, 3}, true); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::mean(in, std::vector<int64_t>{-1, -2}); }), {x});
}

TEST(XnnpackOps, AdaptiveAveragePoolingToOneByOneIsGlobalAveragePooling) {
  const Tensor x = randomTensor({3, 5, 7, 6}, 6);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::adaptive_avg_pool2d(in, {1, 1}); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::_adaptive_avg_pool2d(in, {1}); }), {x});
}

TEST(XnnpackOps, LinearAndAddmmMatch) {
  const Tensor x = randomTensor({5, 12}, 7), w = randomTensor({9, 12}, 8), b = randomTensor({9}, 9);
  const Tensor wt = randomTensor({12, 9}, 10);
  expectXnnpackMatchesEager(one([&](const Tensor& in) { return ops::linear(in, w, b); }), {x}, {{"w", w}, {"b", b}});
  expectXnnpackMatchesEager(one([&](const Tensor& in) { return ops::linear(in, w); }), {x}, {{"w", w}});
  expectXnnpackMatchesEager(one([&](const Tensor& in) { return ops::addmm(b, in, wt); }), {x}, {{"b", b}, {"wt", wt}});
}

TEST(XnnpackOps, BinaryOperatorsMatchWithBroadcastingAndScalars) {
  const Tensor a = randomTensor({2, 3, 5, 4}, 11), b = randomTensor({2, 3, 5, 4}, 12);
  const Tensor row = randomTensor({4}, 13), positive = ops::add(ops::relu(b), 1.0);
  expectXnnpackMatchesEager(two([](const Tensor& x, const Tensor& y) { return ops::add(x, y); }), {a, b});
  expectXnnpackMatchesEager(two([](const Tensor& x, const Tensor& y) { return ops::sub(x, y); }), {a, b});
  expectXnnpackMatchesEager(two([](const Tensor& x, const Tensor& y) { return ops::mul(x, y); }), {a, b});
  expectXnnpackMatchesEager(two([](const Tensor& x, const Tensor& y) { return ops::div(x, y); }), {a, positive});
  expectXnnpackMatchesEager(two([](const Tensor& x, const Tensor& y) { return ops::mul(x, y); }), {a, row});
  expectXnnpackMatchesEager(one([](const Tensor& x) { return ops::div(ops::sub(ops::add(x, 2.5), 1), 4.0); }), {a});
}

TEST(XnnpackOps, ClampReluHardtanhSigmoidAndSoftmaxMatch) {
  const Tensor x = ops::mul(randomTensor({3, 4, 5}, 14), 4.0);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::relu(in); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::clamp(in, Scalar(-1.0), Scalar(0.5)); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::clamp(in, std::nullopt, Scalar(0.0)); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::hardtanh(in); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::hardtanh(in, 0.0, 6.0); }), {x});  // relu6
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::sigmoid(in); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::softmax(in, -1); }), {x}, {}, 1e-5);
}

TEST(XnnpackOps, ReshapesAroundThemAreStaticReshapes) {
  const Tensor x = randomTensor({2, 3, 4}, 15);
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::relu(ops::view(in, {6, 4})); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::reshape(ops::sigmoid(in), {2, 12}); }), {x});
  expectXnnpackMatchesEager(one([](const Tensor& in) { return ops::squeeze(ops::unsqueeze(in, 1), 1); }), {x});
}

// conv 3->8 + relu + max_pool, depthwise 3x3 + pointwise 1x1 + relu, global average pooling,
// flatten, linear 16->10, softmax: a small CNN entirely in one delegate.
TEST(XnnpackOps, ASmallCnnRunsWholeInOneDelegate) {
  const Tensor c1 = randomTensor({8, 3, 3, 3}, 20), c1b = randomTensor({8}, 21);
  const Tensor dw = randomTensor({8, 1, 3, 3}, 22), dwb = randomTensor({8}, 23);
  const Tensor pw = randomTensor({16, 8, 1, 1}, 24), pwb = randomTensor({16}, 25);
  const Tensor fc = randomTensor({10, 16}, 26), fcb = randomTensor({10}, 27);
  const Model model = one([&](const Tensor& x) {
    Tensor h = ops::max_pool2d(ops::relu(ops::conv2d(x, c1, c1b, {1, 1}, {1, 1})), {2, 2});
    h = ops::conv2d(h, dw, dwb, {1, 1}, {1, 1}, {1, 1}, 8);
    h = ops::relu(ops::conv2d(h, pw, pwb));
    h = ops::view(ops::mean(h, std::vector<int64_t>{2, 3}, true), {x.size(0), 16});
    return ops::softmax(ops::linear(h, fc, fcb), -1);
  });
  expectXnnpackMatchesEager(model, {randomTensor({2, 3, 17, 15}, 28)},
                            {{"c1", c1}, {"c1b", c1b}, {"dw", dw}, {"dwb", dwb}, {"pw", pw}, {"pwb", pwb},
                             {"fc", fc}, {"fcb", fcb}},
                            1e-4);
}

// The same shape of network written as MobileNet writes it: relu6 as hardtanh(0, 6) and
// nn.AdaptiveAvgPool2d(1) for the global pooling.
TEST(XnnpackOps, ACnnWithRelu6AndAdaptivePoolingRunsWholeInOneDelegate) {
  const Tensor c1 = randomTensor({8, 3, 3, 3}, 40), c1b = randomTensor({8}, 41);
  const Tensor dw = randomTensor({8, 1, 3, 3}, 42), dwb = randomTensor({8}, 43);
  const Tensor fc = randomTensor({10, 8}, 44), fcb = randomTensor({10}, 45);
  const Model model = one([&](const Tensor& x) {
    Tensor h = ops::hardtanh(ops::conv2d(x, c1, c1b, {2, 2}, {1, 1}), 0.0, 6.0);
    h = ops::hardtanh(ops::conv2d(h, dw, dwb, {1, 1}, {1, 1}, {1, 1}, 8), 0.0, 6.0);
    h = ops::view(ops::adaptive_avg_pool2d(h, {1, 1}), {x.size(0), 8});
    return ops::linear(h, fc, fcb);
  });
  expectXnnpackMatchesEager(model, {randomTensor({2, 3, 13, 11}, 46)},
                            {{"c1", c1}, {"c1b", c1b}, {"dw", dw}, {"dwb", dwb}, {"fc", fc}, {"fcb", fcb}}, 1e-4);
}

TEST(XnnpackOps, AResidualBlockReadsItsInputInBothPlaces) {
  ResidualBlock block;
  expectXnnpackMatchesEager(block.model(), {randomTensor({2, 2, 6, 6}, 30)}, block.parameters());
}

TEST(XnnpackOps, AnMlpMatches) {
  Mlp mlp;
  expectXnnpackMatchesEager(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
}

TEST(XnnpackOps, OutputsThatAreInputsOrRepeatedAreCopies) {
  const Tensor x = randomTensor({2, 3, 4, 4}, 31);
  const Model model = [](const std::vector<Tensor>& in) {
    Tensor r = ops::relu(in[0]);
    Tensor p = ops::max_pool2d(r, {2, 2});
    return std::vector<Tensor>{p, r, p};
  };
  expectXnnpackMatchesEager(model, {x});
}

TEST(XnnpackOps, PreprocessNamesANodeItCannotTake) {
  SmallCnn cnn;  // views a [2, 4, 4, 4] channels-last value as [2, 64]: needs a transpose
  const export_::ExportedProgram ep = export_::capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  absl::StatusOr<export_::PreprocessResult> r = xnnpackPreprocess(ep);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("node %view (aten::view) cannot be delegated"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("transpose"));

  const export_::ExportedProgram neg =
      export_::capture(one([](const Tensor& in) { return ops::neg(in); }), {randomTensor({3}, 1)});
  r = xnnpackPreprocess(neg);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("aten::neg: not an operator the XNNPACK delegate takes"));
}

}  // namespace
}  // namespace sy::testing
