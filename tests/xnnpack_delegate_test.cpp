// The XNNPACK delegate's lifecycle: what init refuses (a wrong version, a malformed or corrupted
// blob, bad thread counts), what execute refuses (arguments of the wrong kind), destroy releasing
// each delegate exactly once, and two delegates alive in one process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "switchyard/backends/xnnpack/schema/syxn_graph_generated.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_backend.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_executable.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

using ::testing::HasSubstr;
namespace syxn = sy::xnnpack::syxn;

std::vector<uint8_t> mlpBlob() {
  Mlp mlp;
  const export_::ExportedProgram ep = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  absl::StatusOr<export_::PreprocessResult> r = xnnpackPreprocess(ep);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->processed_bytes : std::vector<uint8_t>{};
}

std::string initError(const std::vector<uint8_t>& bytes, std::vector<export_::CompileSpec> specs = {}) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(bytes, std::move(specs));
  return d.ok() ? "" : std::string(d.status().message());
}

// A blob of one clamp from value 0 (input) to value 1 (output), with the fields given.
std::vector<uint8_t> clampBlob(uint32_t version, uint32_t output_value, std::vector<uint64_t> dims = {4}) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<syxn::Value>> values = {syxn::CreateValue(b, b.CreateVector(dims)),
                                                         syxn::CreateValue(b, b.CreateVector(dims))};
  auto in = b.CreateVector(std::vector<flatbuffers::Offset<syxn::ExternalValue>>{syxn::CreateExternalValue(b, 0, 0)});
  auto out = b.CreateVector(
      std::vector<flatbuffers::Offset<syxn::ExternalValue>>{syxn::CreateExternalValue(b, 1, output_value)});
  std::vector<flatbuffers::Offset<syxn::Node>> nodes = {
      syxn::CreateNode(b, syxn::NodeKind::Clamp, b.CreateVector(std::vector<uint32_t>{0}),
                     b.CreateVector(std::vector<uint32_t>{1}), 0, -1.0f, 1.0f, 0, b.CreateString("aten::clamp"))};
  b.Finish(syxn::CreateGraph(b, version, 1, 1, b.CreateVector(values), in, out, b.CreateVector(nodes)),
           syxn::GraphIdentifier());
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

TEST(XnnpackDelegate, IsAvailableAndRegistersBothHalvesUnderOneId) {
  ASSERT_NE(get_backend_class(kXnnpack), nullptr);
  EXPECT_TRUE(get_backend_class(kXnnpack)->is_available());
  EXPECT_NE(export_::findBackendDetails(kXnnpack), nullptr);
}

TEST(XnnpackDelegate, AHandWrittenBlobRunsAndClampsItsInput) {
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(clampBlob(1, 1));
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<Tensor> out = {sy::empty({4})};
  ASSERT_TRUE((*d)->execute({tensor<float>({-3, -0.5, 0.5, 3}, {4})}, out).ok());
  EXPECT_EQ(doublesOf(out[0]), (std::vector<double>{-1, -0.5, 0.5, 1}));
}

TEST(XnnpackDelegate, InitRefusesABlobOfAnotherVersion) {
  EXPECT_THAT(initError(clampBlob(2, 1)), HasSubstr("blob version 2 is not the version this build reads (1)"));
}

TEST(XnnpackDelegate, InitRefusesMalformedBlobsNamingWhatIsWrong) {
  EXPECT_THAT(initError({}), HasSubstr("the blob has 0 bytes"));
  EXPECT_THAT(initError(std::vector<uint8_t>(64, 0)), HasSubstr("not XN00 or XN01: not an XNNPACK delegate blob"));
  EXPECT_THAT(initError(clampBlob(1, 7)), HasSubstr("output edge to value 7"));
  EXPECT_THAT(initError(clampBlob(1, 0)), HasSubstr("value 0 is external twice"));
  EXPECT_THAT(initError(clampBlob(1, 1, {1, 2, 3, 4, 5, 6, 7})), HasSubstr("value 0 has 7 dims"));
  EXPECT_THAT(initError(clampBlob(1, 1, {uint64_t{1} << 40, uint64_t{1} << 40})), HasSubstr("value 0 is too large"));
  std::vector<uint8_t> truncated = mlpBlob();
  truncated.resize(truncated.size() / 2);
  EXPECT_THAT(initError(truncated), HasSubstr("does not verify"));
}

// One node from value 0 (dims `in`) to value 1 (dims `out`); nothing external.
std::vector<uint8_t> oneNodeBlob(syxn::NodeKind kind, std::vector<uint64_t> in, std::vector<uint64_t> out,
                                 std::vector<uint64_t> params, const char* op) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<syxn::Value>> values = {syxn::CreateValue(b, b.CreateVector(in)),
                                                         syxn::CreateValue(b, b.CreateVector(out))};
  std::vector<flatbuffers::Offset<syxn::Node>> nodes = {syxn::CreateNode(
      b, kind, b.CreateVector(std::vector<uint32_t>{0}), b.CreateVector(std::vector<uint32_t>{1}),
      b.CreateVector(params), -1e9f, 1e9f, 0, b.CreateString(op))};
  b.Finish(syxn::CreateGraph(b, 1, 0, 0, b.CreateVector(values), 0, 0, b.CreateVector(nodes)), syxn::GraphIdentifier());
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

TEST(XnnpackDelegate, InitRefusesDimsThatDoNotFitTheirNodeBeforeXnnpackSeesThem) {
  EXPECT_THAT(initError(oneNodeBlob(syxn::NodeKind::Clamp, {4}, {5}, {}, "aten::relu")),
              HasSubstr("node 0 (aten::relu): the output is [5], expected [4]"));
  EXPECT_THAT(initError(oneNodeBlob(syxn::NodeKind::MaxPooling2d, {1, 4, 4, 2}, {1, 2, 2, 2},
                                    {0, 0, 0, 0, 9, 9, 1, 1, 1, 1}, "aten::max_pool2d")),
              HasSubstr("node 0 (aten::max_pool2d): the window does not fit the input [1, 4, 4, 2]"));
  EXPECT_THAT(initError(oneNodeBlob(syxn::NodeKind::StaticReshape, {2, 3}, {7}, {7}, "aten::view")),
              HasSubstr("reshapes [2, 3] to [7]"));
}

TEST(XnnpackDelegate, InitReportsANodeXnnpackRefusesWithItsOperator) {
  // A 1x1 max pooling window fits every shape rule, and XNNPACK refuses it.
  EXPECT_THAT(initError(oneNodeBlob(syxn::NodeKind::MaxPooling2d, {1, 4, 4, 2}, {1, 4, 4, 2},
                                    {0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, "aten::max_pool2d")),
              HasSubstr("XNNPACK refused node 0 (aten::max_pool2d): status invalid_parameter"));
}

TEST(XnnpackDelegate, CorruptedBlobsAreErrorsOrStillRunNeverCrashes) {
  const std::vector<uint8_t> good = mlpBlob();
  std::mt19937 rng(1234);
  int refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<uint8_t> bad = good;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (trial % 7 == 0) bad.resize(rng() % bad.size());
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
              HasSubstr("1 arguments for a delegate of 1 inputs and 1 outputs"));
  EXPECT_THAT(std::string((*d)->execute({randomTensor({3, 4}, 1)}, out).message()),
              HasSubstr("argument 0 (input 0) must be a Float CPU tensor of 8 elements"));
  EXPECT_THAT(std::string((*d)->execute({sy::ones({2, 4}, ScalarType::Double)}, out).message()),
              HasSubstr("argument 0 (input 0) must be"));
  std::vector<Tensor> wrong_out = {sy::empty({3, 3})};
  EXPECT_THAT(std::string((*d)->execute({Mlp::exampleInput()}, wrong_out).message()),
              HasSubstr("argument 1 (output 0) must be"));
  EXPECT_TRUE((*d)->execute({Mlp::exampleInput()}, out).ok());
  // A strided input is read in its logical order: the same result as its dense copy.
  const Tensor strided = ops::transpose(ops::contiguous(ops::transpose(Mlp::exampleInput(), 0, 1)), 0, 1);
  ASSERT_FALSE(strided.is_contiguous());
  std::vector<Tensor> from_strided = {sy::empty({2, 3})};
  ASSERT_TRUE((*d)->execute({strided}, from_strided).ok());
  expectCloseTo(from_strided[0], out[0], 0.0);
}

TEST(XnnpackDelegate, DestroyReleasesEachDelegateExactlyOnce) {
  const size_t before = xnnpack::XnnpackExecutable::live();
  {
    absl::StatusOr<std::unique_ptr<XnnpackDelegate>> a = XnnpackDelegate::init(mlpBlob());
    absl::StatusOr<std::unique_ptr<XnnpackDelegate>> b = XnnpackDelegate::init(mlpBlob());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(xnnpack::XnnpackExecutable::live(), before + 2);
  }
  EXPECT_EQ(xnnpack::XnnpackExecutable::live(), before);
  // A refused blob leaves nothing behind either.
  EXPECT_FALSE(XnnpackDelegate::init(clampBlob(2, 1)).ok());
  EXPECT_EQ(xnnpack::XnnpackExecutable::live(), before);
}

TEST(XnnpackDelegate, TwoDelegatesFromDifferentProgramsRunInterleaved) {
  Mlp mlp;
  ResidualBlock block;
  const export_::ExportedProgram a = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const export_::ExportedProgram b =
      export_::capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> da = XnnpackDelegate::init(xnnpackPreprocess(a)->processed_bytes);
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> db = XnnpackDelegate::init(xnnpackPreprocess(b)->processed_bytes);
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
