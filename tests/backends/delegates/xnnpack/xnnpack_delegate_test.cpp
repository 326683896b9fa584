// The XNNPACK delegate's lifecycle: what init refuses (another format version, a malformed or
// corrupted blob, bad thread counts), what execute refuses (arguments of the wrong kind), destroy
// releasing each delegate exactly once, and two delegates alive in one process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_backend.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph_executable.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using ::testing::HasSubstr;

export_::PreprocessResult mlpBlob() {
  Mlp mlp;
  const export_::ExportedProgram ep = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  absl::StatusOr<export_::PreprocessResult> r = xnnpackPreprocess(ep);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : export_::PreprocessResult{};
}

std::string initError(const export_::PreprocessResult& blob, std::vector<export_::CompileSpec> specs = {}) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(blob, std::move(specs));
  return d.ok() ? "" : std::string(d.status().message());
}
std::string initError(const std::vector<uint8_t>& bytes) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(bytes);
  return d.ok() ? "" : std::string(d.status().message());
}

// A blob of one clamp to [-1, 1] from an input of `dims` to an output, edited by `edit` first.
std::vector<uint8_t> clampBlob(xnn::Dims dims = {4}, const std::function<void(GraphMaker&)>& edit = nullptr) {
  GraphMaker g;
  const uint32_t x = g.input(dims), y = g.output(dims);
  xnn::XnnNode& n = g.node(xnn::NodeKind::Clamp, {x}, {y});
  n.output_min = -1, n.output_max = 1;
  if (edit) edit(g);
  return g.write().bytes;
}

TEST(XnnpackDelegate, IsAvailableAndRegistersBothHalvesUnderOneId) {
  ASSERT_NE(get_backend_class(kXnnpack), nullptr);
  EXPECT_TRUE(get_backend_class(kXnnpack)->is_available());
  EXPECT_NE(export_::findBackendDetails(kXnnpack), nullptr);
}

TEST(XnnpackDelegate, AHandWrittenBlobRunsAndClampsItsInput) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(clampBlob());
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<Tensor> out = {sy::empty({4})};
  ASSERT_TRUE((*d)->execute({tensor<float>({-3, -0.5, 0.5, 3}, {4})}, out).ok());
  EXPECT_EQ(doublesOf(out[0]), (std::vector<double>{-1, -0.5, 0.5, 1}));
}

TEST(XnnpackDelegate, InitRefusesABlobOfAnotherFormatVersion) {
  // XN00 and XN01 are the identifiers ExecuTorch's runtime reads; a later one is another format.
  std::vector<uint8_t> blob = clampBlob();
  blob[32 + 7] = '2';
  EXPECT_THAT(initError(blob), HasSubstr("the FlatBuffers identifier is 'XN02', not XN00 or XN01"));
  blob[32 + 7] = '0';
  EXPECT_EQ(initError(blob), "");
}

TEST(XnnpackDelegate, InitRefusesMalformedBlobsNamingWhatIsWrong) {
  EXPECT_THAT(initError(std::vector<uint8_t>{}), HasSubstr("the blob has 0 bytes"));
  EXPECT_THAT(initError(std::vector<uint8_t>(64, 0)), HasSubstr("not XN00 or XN01: not an XNNPACK delegate blob"));
  EXPECT_THAT(initError(clampBlob({4}, [](GraphMaker& g) { g.graph().nodes[0].outputs[0] = 7; })),
              HasSubstr("node 0 (XNNClamp): writes value id 7, which no value has"));
  EXPECT_THAT(initError(clampBlob({4}, [](GraphMaker& g) { g.graph().values[1].external_id = 0; })),
              HasSubstr("value 1: external id 0 is another value's too"));
  EXPECT_THAT(initError(clampBlob({1, 2, 3, 4, 5, 6, 7})), HasSubstr("value 0: 7 dims"));
  EXPECT_THAT(initError(clampBlob({1u << 20, 1u << 20})), HasSubstr("value 0: fp32[1048576, 1048576] is larger than 2^32 bytes"));
  std::vector<uint8_t> truncated = mlpBlob().processed_bytes;
  truncated.resize(truncated.size() / 2);
  EXPECT_THAT(initError(truncated), HasSubstr("the XH00 header puts the FlatBuffers buffer at [32, +"));
  // A weight named in the blob but missing from the named data.
  export_::PreprocessResult without_weights = mlpBlob();
  without_weights.named_data.clear();
  EXPECT_THAT(initError(without_weights), HasSubstr("no named data '"));
}

TEST(XnnpackDelegate, InitRefusesDimsThatDoNotFitTheirNodeBeforeXnnpackSeesThem) {
  EXPECT_THAT(initError(clampBlob({4}, [](GraphMaker& g) { g.graph().values[1].dims = {5}; })),
              HasSubstr("node 0 (XNNClamp): its output value 1 is [5], but the node makes [4]"));
  GraphMaker pool;
  xnn::XnnNode& p = pool.node(xnn::NodeKind::MaxPooling2d, {pool.input({1, 4, 4, 2})}, {pool.output({1, 2, 2, 2})});
  p.window.kernel_h = p.window.kernel_w = 9;
  EXPECT_THAT(initError(pool.write().bytes), HasSubstr("node 0 (XNNMaxPooling2d): the window does not fit the input [1, 4, 4, 2]"));
  GraphMaker reshape;
  reshape.node(xnn::NodeKind::StaticReshape, {reshape.input({2, 3})}, {reshape.output({7})}).list_a = {7};
  EXPECT_THAT(initError(reshape.write().bytes), HasSubstr("[2, 3] cannot be reshaped to [7]"));
}

TEST(XnnpackDelegate, ANodeXnnpackRefusesRunsOnTheHostInstead) {
  // A 1x1 max pooling window fits every shape rule, and Debian's XNNPACK refuses it: it runs on
  // the host and says so.
  GraphMaker g;
  xnn::XnnNode& p = g.node(xnn::NodeKind::MaxPooling2d, {g.input({1, 4, 4, 2})}, {g.output({1, 4, 4, 2})});
  p.window.kernel_h = p.window.kernel_w = 1;
  absl::StatusOr<xnn::XnnGraph> graph = xnn::readXnnGraph(g.write().bytes, nullptr);
  ASSERT_TRUE(graph.ok()) << graph.status();
  absl::StatusOr<std::unique_ptr<xnn::GraphExecutable>> e = xnn::GraphExecutable::create(*std::move(graph), 1);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_THAT((*e)->placement()[0], HasSubstr("node 0 (XNNMaxPooling2d, fp32): host (XNNPACK 2022-02 pools windows of more than one element only)"));
  const Tensor x = randomTensor({1, 4, 4, 2}, 3);
  IValue in(x), out(sy::empty({1, 4, 4, 2}));
  IValue* args[] = {&in, &out};
  ASSERT_TRUE((*e)->execute(absl::MakeSpan(args)).ok());
  expectCloseTo(out.toTensor(), x, 0);
}

TEST(XnnpackDelegate, CorruptedBlobsAreErrorsOrStillRunNeverCrashes) {
  const export_::PreprocessResult good = mlpBlob();
  std::mt19937 rng(1234);
  int refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    export_::PreprocessResult bad = good;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) bad.processed_bytes[rng() % bad.processed_bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (trial % 7 == 0) bad.processed_bytes.resize(rng() % bad.processed_bytes.size());
    absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(bad);
    if (!d.ok()) {
      ++refused;
      continue;
    }
    // Whatever init accepted runs or fails cleanly on arguments of the original shapes.
    std::vector<Tensor> out = {sy::empty({2, 3})};
    (void)(*d)->execute({Mlp::exampleInput()}, out);
  }
  EXPECT_GT(refused, 0);
}

TEST(XnnpackDelegate, ExecuteRefusesArgumentsOfTheWrongCountShapeOrDtype) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(mlpBlob());
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<Tensor> out = {sy::empty({2, 3})};
  std::vector<Tensor> none;
  EXPECT_THAT(std::string((*d)->execute({Mlp::exampleInput()}, none).message()),
              HasSubstr("1 arguments for a delegate with 2 external values (1 inputs, 1 outputs)"));
  EXPECT_THAT(std::string((*d)->execute({randomTensor({3, 4}, 1)}, out).message()),
              HasSubstr("argument 0 (input value 0, fp32[2, 4]) is given dims [3, 4], past the bound [2, 4]"));
  EXPECT_THAT(std::string((*d)->execute({sy::ones({2, 4}, ScalarType::Double)}, out).message()),
              HasSubstr("argument 0 (input value 0, fp32[2, 4]) must be a Float CPU tensor, not Double"));
  std::vector<Tensor> wrong_out = {sy::empty({3, 3}, ScalarType::Int)};
  EXPECT_THAT(std::string((*d)->execute({Mlp::exampleInput()}, wrong_out).message()),
              HasSubstr("argument 1 (output value"));
  EXPECT_TRUE((*d)->execute({Mlp::exampleInput()}, out).ok());
  // A strided input is read in its logical order: the same result as its dense copy.
  const Tensor strided = ops::transpose(ops::contiguous(ops::transpose(Mlp::exampleInput(), 0, 1)), 0, 1);
  ASSERT_FALSE(strided.is_contiguous());
  std::vector<Tensor> from_strided = {sy::empty({2, 3})};
  ASSERT_TRUE((*d)->execute({strided}, from_strided).ok());
  expectCloseTo(from_strided[0], out[0], 0.0);
}

TEST(XnnpackDelegate, DestroyReleasesEachDelegateExactlyOnce) {
  const size_t before = xnnpack::GraphExecutable::live();
  {
    absl::StatusOr<std::unique_ptr<XnnpackDelegate>> a = XnnpackDelegate::init(mlpBlob());
    absl::StatusOr<std::unique_ptr<XnnpackDelegate>> b = XnnpackDelegate::init(mlpBlob());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(xnnpack::GraphExecutable::live(), before + 2);
  }
  EXPECT_EQ(xnnpack::GraphExecutable::live(), before);
  // A refused blob leaves nothing behind either.
  EXPECT_FALSE(XnnpackDelegate::init(clampBlob({4}, [](GraphMaker& g) { g.graph().values[1].dims = {5}; })).ok());
  EXPECT_EQ(xnnpack::GraphExecutable::live(), before);
}

TEST(XnnpackDelegate, TwoDelegatesFromDifferentProgramsRunInterleaved) {
  Mlp mlp;
  ResidualBlock block;
  const export_::ExportedProgram a = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const export_::ExportedProgram b =
      export_::capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> da = XnnpackDelegate::init(*xnnpackPreprocess(a));
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> db = XnnpackDelegate::init(*xnnpackPreprocess(b));
  ASSERT_TRUE(da.ok() && db.ok());
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const Tensor xa = Mlp::exampleInput(seed), xb = ResidualBlock::exampleInput(seed);
    std::vector<Tensor> oa = outputsLike(a), ob = outputsLike(b);
    ASSERT_TRUE((*da)->execute({xa}, oa).ok());
    ASSERT_TRUE((*db)->execute({xb}, ob).ok());
    expectCloseTo(oa[0], mlp.forward(xa), 1e-5);
    expectCloseTo(ob[0], block.forward(xb), 1e-4);
  }
}

TEST(XnnpackDelegate, ThreadCountComesFromTheRunTimeOptionThenTheCompileSpecThenTheEnvironment) {
  using export_::CompileSpec;
  auto views = [](const std::vector<CompileSpec>& specs) {
    std::vector<sy::CompileSpec> out;
    for (const CompileSpec& s : specs) out.push_back({s.key, s.value});
    return out;
  };
  auto count = [&](std::vector<CompileSpec> specs) { return xnnpack::xnnpackThreadCount(views(specs)); };
  EXPECT_EQ(*count({CompileSpec::ofString("num_threads", "3")}), 3u);
  const std::vector<CompileSpec> compiled = {CompileSpec::ofString("num_threads", "3")};
  const std::vector<CompileSpec> given = {CompileSpec::ofString("num_threads", "5")};
  EXPECT_EQ(*xnnpack::xnnpackThreadCount(views(compiled), views(given)), 5u);
  const std::vector<CompileSpec> bad = {CompileSpec::ofString("num_threads", "many")};
  EXPECT_THAT(std::string(xnnpack::xnnpackThreadCount(views(compiled), views(bad)).status().message()),
              HasSubstr("run-time option num_threads is 'many'"));
  EXPECT_GE(*count({}), 1u);
  EXPECT_THAT(std::string(count({CompileSpec::ofString("num_threads", "zero")}).status().message()),
              HasSubstr("compile spec num_threads is 'zero'; give a thread count from 1 to 256"));
  EXPECT_THAT(initError(mlpBlob(), {CompileSpec::ofString("num_threads", "0")}), HasSubstr("num_threads is '0'"));
  // Two threads give the same results as one.
  ResidualBlock block;
  const export_::ExportedProgram ep =
      export_::capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  const Tensor x = randomTensor({4, 2, 6, 6}, 77);
  const export_::ExportedProgram big = export_::capture(block.model(), {x}, block.parameters());
  expectCloseTo(runThroughXnnpack(big, {x}, {CompileSpec::ofString("num_threads", "2")})[0], block.forward(x), 1e-4);
}

}  // namespace
}  // namespace sy::testing
