// XnnpackPartitioner: which nodes of a captured model it tags for XNNPACK, in which groups, and its
// report of what it left to the portable kernels and why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using xnnpack::XnnpackPartitioner;

// Each call node's name and tag, in order ("relu:xnnpack_0", "neg:").
std::vector<std::string> tagsOf(const export_::ExportedProgram& ep) {
  std::vector<std::string> out;
  for (const export_::Node& n : ep.graph().nodes()) {
    if (n.kind == export_::NodeKind::CallFunction) out.push_back(n.name + ":" + n.meta.delegation_tag);
  }
  return out;
}

TEST(XnnpackPartitioner, TagsTheGroupsOfASmallCnnOnEitherSideOfTheViewThatWouldNeedATranspose) {
  SmallCnn cnn;
  const export_::ExportedProgram ep = export_::capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  const export_::PartitionResult r = XnnpackPartitioner().partition(ep);
  EXPECT_THAT(tagsOf(r.tagged_exported_program),
              ElementsAre("convolution:xnnpack_0", "relu:xnnpack_0", "max_pool2d:xnnpack_0", "view:",
                          "linear:xnnpack_1", "softmax:xnnpack_1"));
  ASSERT_EQ(r.partition_tags.size(), 2u);
  EXPECT_EQ(r.partition_tags.at("xnnpack_0").backend_id, "XnnpackBackend");
  // The program it was given is untouched.
  EXPECT_THAT(tagsOf(ep), ElementsAre("convolution:", "relu:", "max_pool2d:", "view:", "linear:", "softmax:"));
}

TEST(XnnpackPartitioner, TagsAWholeMlpAsOneGroupWithItsCompileSpecs) {
  Mlp mlp;
  const export_::ExportedProgram ep = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const export_::PartitionResult r =
      XnnpackPartitioner({export_::CompileSpec::ofString("num_threads", "1")}).partition(ep);
  EXPECT_THAT(tagsOf(r.tagged_exported_program),
              ElementsAre("linear:xnnpack_0", "relu:xnnpack_0", "linear_1:xnnpack_0", "softmax:xnnpack_0"));
  ASSERT_EQ(r.partition_tags.at("xnnpack_0").compile_specs.size(), 1u);
  EXPECT_EQ(r.partition_tags.at("xnnpack_0").compile_specs[0].key, "num_threads");
}

TEST(XnnpackPartitioner, LeavesOtherOperatorsDtypesAndAttributesOutAndSaysWhyWhenVerbose) {
  const Tensor w = randomTensor({4, 3}, 1);
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = ops::neg(ops::relu(in[0]));                         // neg: not an XNNPACK operator
    Tensor i = ops::add(in[1], in[1]);                             // Long
    Tensor s = ops::softmax(ops::linear(h, w), 0);                 // softmax over dim 0
    Tensor m = ops::max_pool2d(in[2], {2, 2}, {}, {0, 0}, {1, 1}, /*ceil_mode=*/true);
    return std::vector<Tensor>{s, i, m};
  };
  const export_::ExportedProgram ep = export_::capture(
      model, {randomTensor({2, 3}, 2), sy::ones({3}, ScalarType::Long), randomTensor({1, 1, 5, 5}, 3)}, {{"w", w}});
  std::ostringstream report;
  const export_::PartitionResult r = XnnpackPartitioner({}, /*verbose=*/true, &report).partition(ep);
  EXPECT_THAT(tagsOf(r.tagged_exported_program),
              ElementsAre("relu:xnnpack_0", "neg:", "add:", "linear:xnnpack_1", "softmax:", "max_pool2d:"));
  const std::string text = report.str();
  EXPECT_THAT(text, HasSubstr("XnnpackPartitioner: left %neg (aten::neg) to the portable kernels: aten::neg: not an "
                              "operator the XNNPACK delegate takes"));
  EXPECT_THAT(text, HasSubstr("left %add (aten::add.Tensor) to the portable kernels: aten::add.Tensor: %"));
  EXPECT_THAT(text, HasSubstr("is Long[3]; XNNPACK takes Float only"));
  EXPECT_THAT(text, HasSubstr("XNNPACK's softmax is over the last dimension only"));
  EXPECT_THAT(text, HasSubstr("aten::max_pool2d: ceil_mode=True"));
  EXPECT_EQ(XnnpackPartitioner::leftOut(ep).size(), 4u);
}

TEST(XnnpackPartitioner, TakesHardtanhAndAdaptivePoolingToOneByOneButNotOtherSizesOrEmptyRanges) {
  const export_::Model model = [](const std::vector<Tensor>& in) {
    Tensor h = ops::hardtanh(in[0], 0.0, 6.0);
    return std::vector<Tensor>{ops::adaptive_avg_pool2d(h, {1, 1}), ops::adaptive_avg_pool2d(h, {2, 2}),
                               ops::hardtanh(in[0], 0.5, 0.5)};  // XNNPACK's clamp needs min < max
  };
  const export_::ExportedProgram ep = export_::capture(model, {randomTensor({1, 2, 4, 4}, 4)});
  std::ostringstream report;
  const export_::PartitionResult r = XnnpackPartitioner({}, /*verbose=*/true, &report).partition(ep);
  EXPECT_THAT(tagsOf(r.tagged_exported_program),
              ElementsAre("hardtanh:xnnpack_0", "adaptive_avg_pool2d:xnnpack_0", "adaptive_avg_pool2d_1:", "hardtanh_1:"));
  EXPECT_THAT(report.str(), HasSubstr("left %adaptive_avg_pool2d_1 (aten::adaptive_avg_pool2d) to the portable "
                                      "kernels: aten::adaptive_avg_pool2d: only an output_size of 1x1 (global "
                                      "average pooling)"));
  EXPECT_THAT(report.str(), HasSubstr("left %hardtanh_1 (aten::hardtanh) to the portable kernels: aten::hardtanh: min "
                                      "not below max"));
}

}  // namespace
}  // namespace sy::testing
