// The XNNPACK delegate end to end: captured models partitioned by XnnpackPartitioner (or lowered
// whole), run directly through their delegate calls, and saved as .pte programs, loaded and run,
// against the same models on the portable kernels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "switchyard/backends/delegates/xnnpack/aot/sha256.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#include "switchyard/export/lowering.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using export_::ExportedProgram;
using ::testing::ElementsAre;

TEST(XnnpackLowering, ASmallCnnRunsInTwoDelegatesAroundThePortableViewDirectlyAndAfterSaving) {
  SmallCnn cnn;
  const ExportedProgram ep = export_::capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  const ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  EXPECT_THAT(callsOf(lowered), ElementsAre("higher_order::executorch_call_delegate", "aten::view",
                                            "higher_order::executorch_call_delegate"));
  ASSERT_EQ(lowered.lowered_modules().size(), 2u);
  EXPECT_EQ(lowered.lowered_modules()[0]->backend_id, "XnnpackBackend");
  // The debug-handle map names the original operators.
  std::string sources;
  for (const auto& [handle, text] : lowered.lowered_modules()[0]->debugHandleSources()) sources += text + "\n";
  EXPECT_THAT(sources, ::testing::HasSubstr("aten::convolution"));
  EXPECT_THAT(sources, ::testing::HasSubstr("aten::max_pool2d"));
  for (uint32_t seed : {1u, 2u}) {
    const Tensor x = SmallCnn::exampleInput(seed);
    expectCloseTo(lowered.run({x})[0], cnn.forward(x), 1e-4);
    expectCloseTo(savedLoadedAndRun(lowered, {x})[0], cnn.forward(x), 1e-4);
  }
}

// ExecuTorch's rule: a loaded method allocates nothing while it executes, its delegates included
// (the runtime, packed weights and staging buffers are made at init).
TEST(XnnpackLowering, ADelegatedProgramAllocatesNothingWhileItExecutes) {
  SmallCnn cnn;
  const ExportedProgram ep = export_::capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  const ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(lowered);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes, "cnn.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  const Tensor x = SmallCnn::exampleInput(4);
  ASSERT_TRUE(m->set_input(0, x).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(allocationsDuring([&] {
              for (int i = 0; i < 10; ++i) {
                if (!m->set_input(0, x).ok() || !m->execute().ok()) std::abort();
              }
            }),
            0);
  expectCloseTo(m->get_output(0).toTensor(), cnn.forward(x), 1e-4);
}

TEST(XnnpackLowering, AWholeProgramLowersToOneDelegateWithItsCompileSpecs) {
  Mlp mlp;
  const ExportedProgram ep = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const ExportedProgram lowered =
      export_::to_backend("XnnpackBackend", ep, {export_::CompileSpec::ofString("num_threads", "2")});
  EXPECT_THAT(callsOf(lowered), ElementsAre("higher_order::executorch_call_delegate"));
  const Tensor x = Mlp::exampleInput(3);
  expectCloseTo(lowered.run({x})[0], mlp.forward(x), 1e-5);
  expectCloseTo(savedLoadedAndRun(lowered, {x})[0], mlp.forward(x), 1e-5);
}

TEST(XnnpackLowering, AMixedProgramKeepsWhatXnnpackCannotTakeOnThePortableKernels) {
  ResidualBlock block;
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = block.forward(in[0]);                       // XNNPACK
    Tensor n = ops::neg(h);                                // portable
    return std::vector<Tensor>{ops::sigmoid(ops::mul(n, h)), ops::neg(in[0])};  // XNNPACK again, portable
  };
  const Tensor x = ResidualBlock::exampleInput(7);
  const ExportedProgram ep = export_::capture(model, {x}, block.parameters());
  const ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  EXPECT_EQ(lowered.lowered_modules().size(), 2u);
  const std::vector<Tensor> expected = model({x});
  const std::vector<Tensor> direct = lowered.run({x}), saved = savedLoadedAndRun(lowered, {x});
  ASSERT_EQ(direct.size(), 2u);
  ASSERT_EQ(saved.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    expectCloseTo(direct[i], expected[i], 1e-4);
    expectCloseTo(saved[i], expected[i], 1e-4);
  }
}

// What Switchyard exports is ExecuTorch's format: the XH00 header and XN01 graph, each weight in
// the program's named data under the SHA-256 of its bytes, the edges as nodes (the one-channel
// input reshaped to NHWC, the four-channel result transposed back), a convolution with one input
// channel per group depthwise, as ExecuTorch's exporter writes it.
TEST(XnnpackLowering, AnExportedProgramCarriesExecuTorchsBlobWithWeightsInNamedData) {
  SmallCnn cnn;
  const ExportedProgram ep = export_::capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  const ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(lowered);
  ASSERT_TRUE(file.ok()) << file.status();
  const std::optional<ProgramDelegate> delegate = xnnpackDelegateOf(file->bytes);
  ASSERT_TRUE(delegate.has_value());
  ASSERT_GE(delegate->blob.size(), 40u);
  EXPECT_EQ(std::string(delegate->blob.begin() + 4, delegate->blob.begin() + 8), "XH00");
  EXPECT_EQ(std::string(delegate->blob.begin() + 36, delegate->blob.begin() + 40), "XN01");
  ASSERT_FALSE(delegate->named.empty());
  for (const auto& [key, bytes] : delegate->named) EXPECT_EQ(key, xnnpack::sha256Hex(bytes));
  InMemoryNamedData named(delegate->named);
  absl::StatusOr<xnnpack::XnnGraph> graph = xnnpack::readXnnGraph(delegate->blob, &named);
  ASSERT_TRUE(graph.ok()) << graph.status();
  std::vector<std::string> kinds;
  for (const xnnpack::XnnNode& n : graph->nodes) kinds.emplace_back(xnnpack::nodeKindName(n.kind));
  EXPECT_THAT(kinds, ElementsAre("XNNStaticReshape", "XNNDepthwiseConv2d", "XNNClamp", "XNNMaxPooling2d", "XNNStaticTranspose"));
  for (const xnnpack::XnnValue& v : graph->values) {
    if (v.isConstant()) EXPECT_EQ(v.datatype, xnnpack::Datatype::Fp32);
  }
}

// A result nobody reads (issue 27: Debian's XNNPACK gave the unread value no memory and aborted the
// process in setup): the model runs, directly and from its file.
TEST(XnnpackLowering, AResultNobodyReadsInsideADelegateRunsInsteadOfAborting) {
  Mlp mlp;
  const export_::Model model = [&](const std::vector<Tensor>& in) {
    Tensor h = mlp.forward(in[0]);
    (void)ops::sigmoid(h);  // computed, never read
    return std::vector<Tensor>{ops::relu(h)};
  };
  const Tensor x = Mlp::exampleInput(5);
  const ExportedProgram ep = export_::capture(model, {x}, mlp.parameters());
  const ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  EXPECT_THAT(callsOf(lowered), ElementsAre("higher_order::executorch_call_delegate"));
  expectCloseTo(lowered.run({x})[0], ops::relu(mlp.forward(x)), 1e-5);
  expectCloseTo(savedLoadedAndRun(lowered, {x})[0], ops::relu(mlp.forward(x)), 1e-5);
}

}  // namespace
}  // namespace sy::testing
