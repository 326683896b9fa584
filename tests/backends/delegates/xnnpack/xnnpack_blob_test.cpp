// ExecuTorch's XNNPACK blob in the run-time half: the layout the writer produces (checked by a
// reader that knows nothing of the schema), reading it back, and every kind of corruption refused
// with an error naming what is wrong before XNNPACK sees anything.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/backends/delegates/xnnpack/aot/sha256.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph_executable.h"
#include "switchyard/backends/delegates/xnnpack/schema/xnnpack_graph_generated.h"
#include "xnnpack_blob_support.h"

namespace sy::testing {
namespace {

using ::testing::HasSubstr;
using xnn::Datatype;
using xnn::NodeKind;

uint32_t blobU32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v |= uint32_t{b[at + i]} << (8 * i);
  return v;
}

// Field `field` (0-based) of the FlatBuffers table at `table`: its address, or 0 when absent.
// Enough of the FlatBuffers encoding to check a buffer without any generated code.
size_t tableField(const std::vector<uint8_t>& b, size_t table, size_t field) {
  const int32_t vtable_back = static_cast<int32_t>(blobU32(b, table));
  const size_t vtable = table - static_cast<size_t>(vtable_back);
  const uint16_t vtable_size = static_cast<uint16_t>(b[vtable] | b[vtable + 1] << 8);
  const size_t entry = 4 + 2 * field;
  if (entry + 2 > vtable_size) return 0;
  const uint16_t offset = static_cast<uint16_t>(b[vtable + entry] | b[vtable + entry + 1] << 8);
  return offset == 0 ? 0 : table + offset;
}

// A small graph: y = relu(x W^T + b) with W and b constants.
GraphMaker blobTestLinear() {
  GraphMaker g;
  const uint32_t x = g.input({2, 3});
  const uint32_t w = g.constant({4, 3}, randomUniformValues<float>(12, 5));
  const uint32_t b = g.constant({4}, {0.5f, -0.5f, 1, -1});
  xnn::XnnNode& n = g.node(NodeKind::FullyConnected, {x, w, b}, {g.output({2, 4})});
  n.output_min = 0;
  return g;
}

TEST(XnnpackBlob, TheWriterLaysOutTheHeaderBufferAndConstantsAsExecuTorchDoes) {
  for (xnn::ConstantPlacement placement : {xnn::ConstantPlacement::NamedData, xnn::ConstantPlacement::BlobRegion}) {
    const xnn::WrittenBlob w = blobTestLinear().write(placement);
    const std::vector<uint8_t>& b = w.bytes;
    ASSERT_GE(b.size(), 32u);
    EXPECT_EQ(blobU32(b, 0), 0u);
    EXPECT_EQ(std::string(b.begin() + 4, b.begin() + 8), "XH00");
    EXPECT_EQ(b[8] | b[9] << 8, 30);
    const uint32_t fb_offset = blobU32(b, 10), fb_size = blobU32(b, 14), cd_offset = blobU32(b, 18);
    const uint64_t cd_size = blobU32(b, 22) | uint64_t{blobU32(b, 26)} << 32;
    EXPECT_EQ(fb_offset, 32u);
    EXPECT_EQ(cd_offset, fb_offset + (fb_size + 15) / 16 * 16);
    EXPECT_EQ(cd_offset + cd_size, b.size());
    EXPECT_EQ(std::string(b.begin() + fb_offset + 4, b.begin() + fb_offset + 8), "XN01");
    // The root table: version (field 0) is "0"; xvalues (field 2) has 4 entries; num_externs (field 3) is 2.
    std::vector<uint8_t> fb(b.begin() + fb_offset, b.begin() + fb_offset + fb_size);
    const size_t root = blobU32(fb, 0);
    const size_t version = tableField(fb, root, 0), values = tableField(fb, root, 2), externs = tableField(fb, root, 3);
    ASSERT_NE(version, 0u);
    const size_t text = version + blobU32(fb, version);
    EXPECT_EQ(std::string(fb.begin() + text + 4, fb.begin() + text + 4 + blobU32(fb, text)), "0");
    ASSERT_NE(values, 0u);
    EXPECT_EQ(blobU32(fb, values + blobU32(fb, values)), 4u);
    ASSERT_NE(externs, 0u);
    EXPECT_EQ(blobU32(fb, externs), 2u);
    if (placement == xnn::ConstantPlacement::NamedData) {
      // Weights by the SHA-256 of their bytes; nothing in the blob's own region.
      EXPECT_EQ(cd_size, 0u);
      ASSERT_EQ(w.named_data.size(), 2u);
      for (const auto& [key, bytes] : w.named_data) EXPECT_EQ(key, xnn::sha256Hex(bytes));
    } else {
      EXPECT_TRUE(w.named_data.empty());
      EXPECT_EQ(cd_size, 48u + 16u);  // W's 48 bytes, then b's 16, each at a multiple of 16
    }
  }
}

TEST(XnnpackBlob, AWrittenGraphReadsBackAsWritten) {
  GraphMaker g = blobTestLinear();
  const xnn::WrittenBlob w = g.write();
  InMemoryNamedData named(w.named_data);
  absl::StatusOr<xnn::XnnGraph> read = xnn::readXnnGraph(w.bytes, &named);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->values.size(), g.graph().values.size());
  for (size_t i = 0; i < read->values.size(); ++i) {
    const xnn::XnnValue &a = read->values[i], &e = g.graph().values[i];
    EXPECT_EQ(a.dims, e.dims);
    EXPECT_EQ(a.datatype, e.datatype);
    EXPECT_EQ(a.is_input, e.is_input);
    EXPECT_EQ(a.is_output, e.is_output);
    EXPECT_EQ(a.isConstant(), e.isConstant());
    if (a.isConstant()) EXPECT_EQ(std::memcmp(a.data, e.data, e.data_size), 0);
  }
  ASSERT_EQ(read->nodes.size(), 1u);
  EXPECT_EQ(read->nodes[0].kind, NodeKind::FullyConnected);
  EXPECT_EQ(read->nodes[0].output_min, 0.0f);
  EXPECT_EQ(read->nodes[0].debug_handle, 1u);
  EXPECT_EQ(read->inputs, std::vector<uint32_t>{0});
  EXPECT_EQ(read->outputs, std::vector<uint32_t>{3});
}

// Init's error for `blob` (with `named` as its named data), or "" when it initialises.
std::string blobInitError(const std::vector<uint8_t>& blob, const std::vector<std::pair<std::string, std::vector<uint8_t>>>& named = {}) {
  xnn::WrittenBlob w;
  w.bytes = blob;
  w.named_data = named;
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(w);
  return d.ok() ? "" : std::string(d.status().message());
}

// A blob of the graph with `edit` applied to it first.
std::string editedGraphError(const std::function<void(GraphMaker&)>& edit) {
  GraphMaker g = blobTestLinear();
  edit(g);
  const xnn::WrittenBlob w = g.write();
  return blobInitError(w.bytes, w.named_data);
}

TEST(XnnpackBlob, ConstantsInTheBlobsOwnRegionRunAsConstantsInNamedDataDo) {
  GraphMaker g = blobTestLinear();
  const Tensor x = randomTensor({2, 3}, 9);
  std::vector<std::vector<Tensor>> results;
  for (xnn::ConstantPlacement placement : {xnn::ConstantPlacement::NamedData, xnn::ConstantPlacement::BlobRegion}) {
    absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write(placement));
    ASSERT_TRUE(d.ok()) << d.status();
    results.push_back((*d)->run(g.graph(), {x}));
  }
  ASSERT_EQ(results[0].size(), 1u);
  expectCloseTo(results[1][0], results[0][0], 0);
  // relu(x W^T + b), as written.
  const Tensor w = tensor<float>(randomUniformValues<float>(12, 5), {4, 3});
  expectCloseTo(results[0][0], ops::relu(ops::linear(x, w, tensor<float>({0.5f, -0.5f, 1, -1}, {4}))), 1e-5);
}

TEST(XnnpackBlob, InitRefusesInconsistentHeadersAndBuffersNamingWhatIsWrong) {
  const xnn::WrittenBlob good = blobTestLinear().write();
  EXPECT_EQ(blobInitError(good.bytes, good.named_data), "");
  EXPECT_THAT(blobInitError({1, 2, 3}), HasSubstr("the blob has 3 bytes"));
  std::vector<uint8_t> b = good.bytes;
  b[14] = 0xFF, b[15] = 0xFF;  // flatbuffer size
  EXPECT_THAT(blobInitError(b, good.named_data), HasSubstr("the XH00 header puts the FlatBuffers buffer at [32, +"));
  b = good.bytes;
  b[18] = 40, b[19] = b[20] = b[21] = 0;  // constant data inside the buffer
  EXPECT_THAT(blobInitError(b, good.named_data), HasSubstr("starts inside the FlatBuffers buffer"));
  b = good.bytes;
  b[32 + 4] = 'Z';
  EXPECT_THAT(blobInitError(b, good.named_data), HasSubstr("the FlatBuffers identifier is 'ZN01', not XN00 or XN01"));
  b = good.bytes;
  b.resize(40);
  b[14] = 8, b[15] = 0, b[18] = 40, b[19] = 0, b[22] = 0, b[23] = 0;
  EXPECT_THAT(blobInitError(b), HasSubstr("does not verify"));
  EXPECT_THAT(blobInitError(std::vector<uint8_t>(64, 0)), HasSubstr("not XN00 or XN01: not an XNNPACK delegate blob"));
  // A named key that no source has.
  EXPECT_THAT(blobInitError(good.bytes, {}), HasSubstr("no named data '" + good.named_data[0].first + "'"));
}

TEST(XnnpackBlob, InitRefusesAGraphWithoutNodesOrValues) {
  for (bool nodes : {false, true}) {
    flatbuffers::FlatBufferBuilder fb;
    const auto values = fb.CreateVector(std::vector<flatbuffers::Offset<xnn::fb::XValue>>{});
    const auto no_nodes = fb.CreateVector(std::vector<flatbuffers::Offset<xnn::fb::XNode>>{});
    xnn::fb::FinishXNNGraphBuffer(fb, xnn::fb::CreateXNNGraph(fb, 0, nodes ? no_nodes : 0, nodes ? 0 : values));
    const std::vector<uint8_t> bare(fb.GetBufferPointer(), fb.GetBufferPointer() + fb.GetSize());
    EXPECT_THAT(blobInitError(bare), HasSubstr(nodes ? "the graph has no xvalues" : "the graph has no xnodes"));
  }
}

TEST(XnnpackBlob, InitRefusesValuesLargerThanAnyModelBeforeAllocatingAnything) {
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[0].dims = {1u << 18, 1u << 18}; }),
              HasSubstr("value 0: fp32[262144, 262144] is larger than 2^32 bytes"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) {
                for (int i = 0; i < 6; ++i) g.internal({1u << 15, 1u << 15});
              }),
              HasSubstr("the values together are larger than 2^34 bytes"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[0].dims = {1, 1, 1, 1, 1, 1, 2}; }), HasSubstr("7 dims"));
}

TEST(XnnpackBlob, InitRefusesHostStepsWhoseFloatCopiesWouldBeLargerThanAnyModel) {
  // A qint8 value of 2^32 elements (4 GiB, within the reader's bounds) read and written by a host
  // step: its float copies would be 32 GiB. Refused at init, before allocating them.
  GraphMaker g;
  const uint32_t x = g.input({1, 1}, Datatype::QInt8), big = g.internal({1u << 16, 1u << 16}, Datatype::QInt8);
  const uint32_t tanh = g.internal({1u << 16, 1u << 16}, Datatype::QInt8), y = g.output({1, 1}, Datatype::QInt8);
  g.quantize(x, 0.1f, 0).quantize(big, 0.1f, 0).quantize(tanh, 0.1f, 0).quantize(y, 0.1f, 0);
  xnn::XnnNode& pad = g.node(NodeKind::StaticConstantPad, {x}, {big});
  pad.list_a = {0, 0}, pad.list_b = {(1u << 16) - 1, (1u << 16) - 1};
  g.node(NodeKind::Tanh, {big}, {tanh});
  xnn::XnnNode& slice = g.node(NodeKind::StaticSlice, {tanh}, {y});
  slice.list_a = {0, 0}, slice.list_b = {1, 1};
  const xnn::WrittenBlob w = g.write();
  EXPECT_THAT(blobInitError(w.bytes, w.named_data),
              HasSubstr("the host steps' float copies of values would take more than 2^34 bytes (value 2, qint8[65536, 65536])"));
}

TEST(XnnpackBlob, InitRefusesBadIdsOperandsAndShapesNamingTheNodeOrValue) {
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().nodes[0].inputs[0] = 17; }),
              HasSubstr("node 0 (XNNFullyConnected): reads value id 17, which no value has"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[3].dims = {2, 5}; }),
              HasSubstr("node 0 (XNNFullyConnected): its output value 3 is [2, 5], but the node makes [2, 4]"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[1].dims = {4, 2}; }),
              HasSubstr("does not end in the filter's 2 input channels"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[3].external_id = 9; }),
              HasSubstr("value 3: external id 9 is not below num_externs"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[3].external_id = 0; }),
              HasSubstr("value 3: external id 0 is another value's too"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().nodes[0].outputs[0] = 1; }),
              HasSubstr("node 0 (XNNFullyConnected) writes value 1, which is a constant"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) {
                const uint32_t t = g.internal({2, 4});
                g.node(NodeKind::Abs, {t}, {g.internal({2, 4})});
              }),
              HasSubstr("node 1 (XNNAbs) reads value 4 before any node writes it"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.output({3}); }),
              HasSubstr("external output value 4 (argument 2) is written by no node"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().nodes[0].window.kernel_h = 0, g.graph().nodes[0].kind = NodeKind::Conv2d; }),
              HasSubstr("node 0 (XNNConv2d): a kernel, stride or dilation of 0"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().nodes[0].flags = 0x40; }),
              HasSubstr("node 0 (XNNFullyConnected): flags 0x40 are not ones this node takes"));
  EXPECT_THAT(editedGraphError([](GraphMaker& g) { g.graph().values[0].quant.kind = xnn::QuantParams::Kind::PerTensor; }),
              HasSubstr("value 0: fp32 with quantization parameters"));
}

TEST(XnnpackBlob, AResultNobodyReadsStaysInsideItsRuntime) {
  // y = abs(x), z = sigmoid(x) with z read by nobody: z is internal, and the delegate runs.
  GraphMaker g;
  const uint32_t x = g.input({2, 3}), y = g.output({2, 3});
  g.node(NodeKind::Abs, {x}, {y});
  g.node(NodeKind::Sigmoid, {x}, {g.internal({2, 3})});
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
  ASSERT_TRUE(d.ok()) << d.status();
  const Tensor in = randomTensor({2, 3}, 3);
  const std::vector<Tensor> out = (*d)->run(g.graph(), {in});
  ASSERT_EQ(out.size(), 1u);
  expectCloseTo(out[0], ops::abs(in), 0);
}

TEST(XnnpackBlob, ExecuteRefusesArgumentsOfTheWrongCountDtypeOrShape) {
  GraphMaker g = blobTestLinear();
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
  ASSERT_TRUE(d.ok()) << d.status();
  auto error = [&](std::vector<Tensor> args) { return std::string((*d)->execute(args).message()); };
  EXPECT_THAT(error({randomTensor({2, 3}, 1)}), HasSubstr("1 arguments for a delegate with 2 external values (1 inputs, 1 outputs)"));
  EXPECT_THAT(error({sy::zeros({2, 3}, ScalarType::Int), sy::empty({2, 4})}),
              HasSubstr("argument 0 (input value 0, fp32[2, 3]) must be a Float CPU tensor, not Int"));
  EXPECT_THAT(error({randomTensor({2, 5}, 1), sy::empty({2, 4})}),
              HasSubstr("argument 0 (input value 0, fp32[2, 3]) is given dims [2, 5], past the bound [2, 3]"));
  EXPECT_THAT(error({randomTensor({6}, 1), sy::empty({2, 4})}), HasSubstr("is given a tensor of 1 dims"));
  EXPECT_TRUE((*d)->execute({randomTensor({2, 3}, 1), sy::empty({2, 4})}).ok());
}

TEST(XnnpackBlob, DestroyReleasesEachExecutableOnce) {
  const size_t before = xnn::GraphExecutable::live();
  {
    absl::StatusOr<std::unique_ptr<BlobDelegate>> a = BlobDelegate::init(blobTestLinear().write());
    absl::StatusOr<std::unique_ptr<BlobDelegate>> b = BlobDelegate::init(blobTestLinear().write());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(xnn::GraphExecutable::live(), before + 2);
  }
  EXPECT_EQ(xnn::GraphExecutable::live(), before);
}

}  // namespace
}  // namespace sy::testing
