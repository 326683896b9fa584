// Layouts across an XNNPACK group: the permutes that only relabel a channels-last value's bytes
// (to NHWC after a convolution, from NHWC before one, at the delegate's input) are taken into the
// same delegate; a linear or softmax over a 4-D value no convolution touches is delegated; and the
// nodes that would need a transpose are left out, named with the reason, while the rest stays
// delegated. Each model is partitioned, lowered, run, and compared with the portable kernels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#include "switchyard/export/lowering.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using export_::ExportedProgram;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kDelegateCall = "higher_order::executorch_call_delegate";

struct Lowered {
  ExportedProgram program;
  std::string report;  // the partitioner's verbose report
};

Lowered lowerWithXnnpack(const export_::Model& model, const std::vector<Tensor>& inputs,
                         std::vector<export_::NamedTensor> params = {}) {
  const ExportedProgram ep = export_::capture(model, inputs, std::move(params));
  std::ostringstream report;
  ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner({}, /*verbose=*/true, &report));
  return {std::move(lowered), report.str()};
}

// The lowered program, run directly and after saving and loading, matches the model on the
// portable kernels.
void expectLoweredMatchesEager(const Lowered& lowered, const export_::Model& model, const std::vector<Tensor>& inputs,
                               double tolerance = 1e-4) {
  const std::vector<Tensor> expected = model(inputs);
  const std::vector<Tensor> direct = lowered.program.run(inputs), saved = savedLoadedAndRun(lowered.program, inputs);
  ASSERT_EQ(direct.size(), expected.size());
  ASSERT_EQ(saved.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    expectCloseTo(direct[i], expected[i], tolerance);
    expectCloseTo(saved[i], expected[i], tolerance);
  }
}

TEST(XnnpackPartitioner, TakesAPermuteToNhwcAfterAConvolutionAndTheLinearOverChannelsIntoOneDelegate) {
  const Tensor w = randomTensor({6, 3, 3, 3}, 1), b = randomTensor({6}, 2);
  const Tensor fc = randomTensor({5, 6}, 3), fcb = randomTensor({5}, 4);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::relu(ops::conv2d(in[0], w, b, {1, 1}, {1, 1}));
    h = ops::permute(h, {0, 2, 3, 1});  // [N, H, W, C]
    return std::vector<Tensor>{ops::softmax(ops::linear(h, fc, fcb), -1)};
  };
  const std::vector<Tensor> x = {randomTensor({3, 3, 7, 5}, 5)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w", w}, {"b", b}, {"fc", fc}, {"fcb", fcb}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall));
  EXPECT_EQ(lowered.report, "");
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, TakesAPermuteFromNhwcBeforeAConvolutionAtTheInputAndInside) {
  const Tensor w = randomTensor({4, 3, 3, 3}, 6), b = randomTensor({4}, 7), fc = randomTensor({3, 5}, 8);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor edge = ops::relu(ops::conv2d(ops::permute(in[0], {0, 3, 1, 2}), w, b, {2, 1}, {1, 1}));
    Tensor inner = ops::linear(in[1], fc);  // [N, H, W, 3], logical
    inner = ops::max_pool2d(ops::conv2d(ops::permute(inner, {0, 3, 1, 2}), w, b), {2, 2});
    return std::vector<Tensor>{edge, inner};
  };
  const std::vector<Tensor> x = {randomTensor({2, 9, 7, 3}, 9), randomTensor({3, 7, 9, 5}, 10)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w", w}, {"b", b}, {"fc", fc}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall, kDelegateCall));  // two unconnected chains
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, TakesPermutesToNhwcAndBackAroundALinearBetweenTwoConvolutions) {
  const Tensor w1 = randomTensor({6, 2, 3, 3}, 27), w2 = randomTensor({3, 6, 1, 1}, 28), fc = randomTensor({6, 6}, 29);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::permute(ops::conv2d(in[0], w1), {0, 2, 3, 1});
    h = ops::permute(ops::relu(ops::linear(h, fc)), {0, 3, 1, 2});
    return std::vector<Tensor>{ops::conv2d(h, w2)};
  };
  const std::vector<Tensor> x = {randomTensor({2, 2, 9, 7}, 30)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w1", w1}, {"w2", w2}, {"fc", fc}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall));
  EXPECT_EQ(lowered.report, "");
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, TakesAPermuteToNhwcOfADelegateInputAsTheEdgeTranspose) {
  const Tensor fc = randomTensor({4, 3}, 11);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    const Tensor nhwc = ops::permute(in[0], {0, 2, 3, 1});
    return std::vector<Tensor>{ops::linear(nhwc, fc), nhwc};  // the permuted input is an output too
  };
  const std::vector<Tensor> x = {randomTensor({2, 3, 5, 7}, 12)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"fc", fc}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall));
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, DelegatesALinearAndSoftmaxOverAFourDimensionalValueNoConvolutionTouches) {
  const Tensor fc = randomTensor({4, 6}, 13), fcb = randomTensor({4}, 14), plane = randomTensor({5, 6}, 15);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::add(ops::relu(in[0]), plane);  // broadcasts [5, 6] in NCHW order
    h = ops::softmax(ops::linear(h, fc, fcb), -1);
    return std::vector<Tensor>{ops::view(h, {in[0].size(0), -1})};
  };
  const std::vector<Tensor> x = {randomTensor({3, 3, 5, 6}, 16)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"fc", fc}, {"fcb", fcb}, {"plane", plane}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall));
  EXPECT_EQ(lowered.report, "");
  expectLoweredMatchesEager(lowered, model, x, 1e-5);
}

TEST(XnnpackPartitioner, LeavesADataMovingPermuteOfAChannelsLastValueToThePortableKernels) {
  const Tensor w = randomTensor({4, 2, 3, 3}, 17);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::permute(ops::conv2d(in[0], w), {0, 1, 3, 2});
    return std::vector<Tensor>{ops::relu(h)};
  };
  const std::vector<Tensor> x = {randomTensor({2, 2, 7, 6}, 18)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w", w}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall, "aten::permute", kDelegateCall));
  EXPECT_THAT(lowered.report, HasSubstr("left %permute (aten::permute) to the portable kernels: aten::permute: permute "
                                        "[0, 1, 3, 2] moves data, which needs a transpose, and XNNPACK 2022-02 has none"));
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, LeavesAFlattenOfAConvolutionOutputOutNamingTheConvolution) {
  const Tensor w = randomTensor({4, 3, 3, 3}, 19), fc = randomTensor({2, 4 * 5 * 3}, 20);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::relu(ops::conv2d(in[0], w));
    return std::vector<Tensor>{ops::linear(ops::view(h, {in[0].size(0), -1}), fc)};
  };
  const std::vector<Tensor> x = {randomTensor({2, 3, 7, 5}, 21)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w", w}, {"fc", fc}});
  EXPECT_THAT(callsOf(lowered.program), ElementsAre(kDelegateCall, "aten::view", kDelegateCall));
  EXPECT_THAT(lowered.report, HasSubstr("left %view (aten::view) to the portable kernels: aten::view: reads %relu "
                                        "Float[2, 4, 5, 3] in NCHW order but %relu is channels-last next to "
                                        "aten::convolution %convolution; XNNPACK 2022-02 has no transpose"));
  expectLoweredMatchesEager(lowered, model, x);
}

TEST(XnnpackPartitioner, KeepsTheRestOfAGroupDelegatedWhenTheLayoutPassLeavesANodeOut) {
  const Tensor w = randomTensor({5, 3, 3, 3}, 22), fc = randomTensor({2, 5}, 23);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::sigmoid(ops::conv2d(in[0], w, std::nullopt, {1, 1}, {1, 1}));
    Tensor over_width = ops::softmax(h, -1);  // reads the channels-last h in NCHW order
    Tensor per_pixel = ops::linear(ops::permute(h, {0, 2, 3, 1}), fc);
    return std::vector<Tensor>{over_width, per_pixel};
  };
  const std::vector<Tensor> x = {randomTensor({2, 3, 5, 9}, 24)};
  const Lowered lowered = lowerWithXnnpack(model, x, {{"w", w}, {"fc", fc}});
  const std::vector<std::string> calls = callsOf(lowered.program);
  EXPECT_EQ(std::count(calls.begin(), calls.end(), kDelegateCall), 1);
  EXPECT_THAT(calls, Contains("aten::softmax.int"));
  EXPECT_THAT(calls, Not(Contains("aten::permute")));
  EXPECT_THAT(lowered.report, HasSubstr("left %softmax (aten::softmax.int) to the portable kernels: aten::softmax.int: "
                                        "reads %sigmoid Float[2, 5, 5, 9] in NCHW order but %sigmoid is channels-last "
                                        "next to aten::convolution %convolution"));
  EXPECT_THAT(lowered.report, Not(HasSubstr("left %permute")));
  expectLoweredMatchesEager(lowered, model, x, 1e-5);
}

TEST(XnnpackPartitioner, PreprocessRefusesAGroupThatNeedsATransposeNamingTheNode) {
  const Tensor w = randomTensor({4, 3, 3, 3}, 25);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::softmax(ops::conv2d(in[0], w), -1)};
  };
  const ExportedProgram ep = export_::capture(model, {randomTensor({1, 3, 6, 6}, 26)}, {{"w", w}});
  absl::StatusOr<export_::PreprocessResult> r = xnnpackPreprocess(ep);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("node %softmax (aten::softmax.int) cannot be delegated: aten::softmax.int: reads %convolution "
                        "Float[1, 4, 4, 4] in NCHW order but %convolution is channels-last next to aten::convolution "
                        "%convolution; XNNPACK 2022-02 has no transpose; partition with XnnpackPartitioner"));
}

}  // namespace
}  // namespace sy::testing
