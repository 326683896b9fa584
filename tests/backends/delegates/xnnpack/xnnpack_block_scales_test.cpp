// The scales of 4-bit blockwise weights (qbint4) are bfloat16 (See Note [Block scales are bfloat16]
// in runtime/xnnpack_quant_reader.cpp): the writer stores them as ExecuTorch's exporter does, and a
// blob from before that, with float scales in the table, reads into the values ExecuTorch's runtime
// gives them.
#include <cstring>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/backends/delegates/xnnpack/aot/sha256.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_header.h"
#include "switchyard/backends/delegates/xnnpack/schema/xnnpack_graph_generated.h"
#include "switchyard/core/bfloat16.h"
#include "xnnpack_blob_support.h"

namespace sy::testing {
namespace {

using xnn::Datatype;
using xnn::NodeKind;

// Scales that bfloat16 cannot hold exactly, so that rounding them shows.
std::vector<float> blockScales() {
  std::vector<float> s;
  for (int i = 0; i < 8; ++i) s.push_back(0.0123f + 0.00171f * static_cast<float>(i));
  return s;
}

// PyTorch's to(torch.bfloat16): round to nearest, ties to even (sy::BFloat16, tested exhaustively).
float roundedToNearest(float x) { return static_cast<float>(BFloat16(x)); }

// ExecuTorch's runtime on float block scales, written out here as its source describes it
// (XNNCompiler.cpp, convertF32TensorToBF16): scale by 1.00389105, keep the top 16 bits.
float executorchInlineRounding(float x) {
  const float adjusted = x * 1.00389105f;
  uint32_t bits = 0;
  std::memcpy(&bits, &adjusted, 4);
  return static_cast<float>(BFloat16::fromBits(static_cast<uint16_t>(bits >> 16)));
}

// y = x W^T for dynamically quantized x and 4-bit weights W [4, 64] in groups of 32 (value 3).
constexpr uint32_t kWeights = 3;
GraphMaker blockQuantizedLinear() {
  GraphMaker g;
  const uint32_t x = g.input({3, 64}), q = g.internal({3, 64}, Datatype::QDInt8), y = g.output({3, 4});
  g.graph().values[q].quant.kind = xnn::QuantParams::Kind::PerToken;
  g.graph().values[q].quant.num_nonbatch_dims = 1;
  xnn::QuantParams wq;
  wq.kind = xnn::QuantParams::Kind::PerChannelGroup, wq.group_size = 32, wq.zero_point = 8;
  wq.scales = blockScales();
  const uint32_t w = g.constantBytes({4, 64}, Datatype::QBInt4, std::vector<uint8_t>(4 * 32, 0x9a), wq);
  EXPECT_EQ(w, kWeights);
  g.node(NodeKind::Convert, {x}, {q});
  g.node(NodeKind::FullyConnected, {q, w}, {y});
  return g;
}

TEST(XnnpackBlockScales, TheWriterStoresThemAsBfloat16ConstantDataAsExecuTorchsExporterDoes) {
  const xnn::WrittenBlob w = blockQuantizedLinear().write();
  std::vector<uint8_t> expected_bytes;
  for (float s : blockScales()) {
    const uint16_t bits = BFloat16(s).bits();
    expected_bytes.push_back(static_cast<uint8_t>(bits & 0xff));
    expected_bytes.push_back(static_cast<uint8_t>(bits >> 8));
  }
  const std::string key = "scale_" + xnn::sha256Hex(expected_bytes);
  bool found = false;
  for (const auto& [name, bytes] : w.named_data) {
    if (name != key) continue;
    found = true;
    EXPECT_EQ(bytes, expected_bytes);
  }
  EXPECT_TRUE(found) << "no named data under " << key;

  // The table names that entry and holds no float scales of its own.
  absl::StatusOr<xnn::BlobRegions> regions = xnn::splitBlob(w.bytes);
  ASSERT_TRUE(regions.ok()) << regions.status();
  const xnn::fb::XNNGraph* root = xnn::fb::GetXNNGraph(regions->flatbuffer.data());
  const auto* quantized = root->xvalues()->Get(kWeights)->xvalue_union_as_XNNQuantizedTensorValue();
  ASSERT_NE(quantized, nullptr);
  const xnn::fb::PerChannelGroupQuant* group = quantized->quant_params_as_PerChannelGroupQuant();
  ASSERT_NE(group, nullptr);
  EXPECT_TRUE(group->scale() == nullptr || group->scale()->size() == 0);
  EXPECT_EQ(group->num_scales(), 8u);
  ASSERT_NE(group->scale_buffer_idx(), 0u);
  EXPECT_EQ(root->constant_data()->Get(group->scale_buffer_idx())->named_key()->str(), key);

  // Read back, the scales are the rounded ones, in named data or in the blob's own region alike.
  for (const xnn::ConstantPlacement placement : {xnn::ConstantPlacement::NamedData, xnn::ConstantPlacement::BlobRegion}) {
    const xnn::WrittenBlob written = blockQuantizedLinear().write(placement);
    InMemoryNamedData named(written.named_data);
    absl::StatusOr<xnn::XnnGraph> read = xnn::readXnnGraph(written.bytes, &named);
    ASSERT_TRUE(read.ok()) << read.status();
    std::vector<float> expected;
    for (float s : blockScales()) expected.push_back(roundedToNearest(s));
    EXPECT_EQ(read->values[kWeights].quant.scales, expected);
  }
}

// A blob as older exporters wrote it: the block scales as floats in the table's `scale` vector.
std::vector<uint8_t> blobWithFloatBlockScales() {
  namespace fb = xnn::fb;
  flatbuffers::FlatBufferBuilder b;
  constexpr uint32_t kInternal = std::numeric_limits<uint32_t>::max();
  auto tensor = [&](Datatype d, std::vector<uint32_t> dims, uint32_t buffer, uint32_t external, uint32_t flags, uint32_t id) {
    return fb::CreateXNNTensorValue(b, static_cast<fb::XNNDatatype>(d), static_cast<uint32_t>(dims.size()),
                                    b.CreateVector(dims), buffer, external, flags, id);
  };
  std::vector<flatbuffers::Offset<fb::XValue>> values;
  values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNTensorValue, tensor(Datatype::Fp32, {3, 64}, 0, 0, 1, 0).Union()));
  const auto q = fb::CreateXNNQuantizedTensorValue(b, tensor(Datatype::QDInt8, {3, 64}, 0, kInternal, 0, 1),
                                                    fb::XNNQuantParams::PerTokenDynamicQuant,
                                                    fb::CreatePerTokenDynamicQuant(b, 1).Union());
  values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNQuantizedTensorValue, q.Union()));
  const auto w = fb::CreateXNNQuantizedTensorValue(b, tensor(Datatype::QBInt4, {4, 64}, 1, kInternal, 0, 2),
                                                    fb::XNNQuantParams::PerChannelGroupQuant,
                                                    fb::CreatePerChannelGroupQuant(b, b.CreateVector(blockScales()), 0, 32).Union());
  values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNQuantizedTensorValue, w.Union()));
  values.push_back(fb::CreateXValue(b, fb::XValueUnion::XNNTensorValue, tensor(Datatype::Fp32, {3, 4}, 0, 1, 2, 3).Union()));
  std::vector<flatbuffers::Offset<fb::XNode>> nodes;
  nodes.push_back(fb::CreateXNode(b, fb::XNodeUnion::XNNConvert, fb::Create_XNNNode1x1(b, 0, 1, 0).Union()));
  nodes.push_back(fb::CreateXNode(b, fb::XNodeUnion::XNNFullyConnected,
                                  fb::CreateXNNFullyConnected(b, 1, 2, kInternal, 3, 0).Union()));
  std::vector<flatbuffers::Offset<fb::ConstantDataOffset>> constants = {fb::CreateConstantDataOffset(b, 0, 0),
                                                                         fb::CreateConstantDataOffset(b, 0, 128)};
  const std::vector<uint32_t> inputs = {0}, outputs = {3};
  const auto root = fb::CreateXNNGraph(b, b.CreateString("0"), b.CreateVector(nodes), b.CreateVector(values), 2,
                                       b.CreateVector(inputs), b.CreateVector(outputs), 0, 0, b.CreateVector(constants));
  fb::FinishXNNGraphBuffer(b, root);
  const std::vector<uint8_t> weights(128, 0x9a);
  return xnn::joinBlob(absl::Span<const uint8_t>(b.GetBufferPointer(), b.GetSize()), weights);
}

TEST(XnnpackBlockScales, FloatScalesInTheTableReadAsExecuTorchsRuntimeRoundsThem) {
  const std::vector<uint8_t> blob = blobWithFloatBlockScales();
  absl::StatusOr<xnn::XnnGraph> read = xnn::readXnnGraph(blob, nullptr);
  ASSERT_TRUE(read.ok()) << read.status();
  std::vector<float> expected;
  for (float s : blockScales()) expected.push_back(executorchInlineRounding(s));
  EXPECT_EQ(read->values[2].quant.scales, expected);
  // Not the float as written: the two runtimes would compute apart.
  EXPECT_NE(read->values[2].quant.scales, blockScales());

  // And the graph runs: the host path against the float layer on those scales.
  xnn::WrittenBlob w;
  w.bytes = blob;
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(w);
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<float> dequantized(4 * 64);
  for (int n = 0; n < 4; ++n) {
    for (int k = 0; k < 64; ++k) {
      const int nibble = k % 2 == 0 ? 0xa : 0x9;  // 0x9a: low nibble first
      dequantized[n * 64 + k] = static_cast<float>(nibble - 8) * expected[n * 2 + k / 32];
    }
  }
  const Tensor in = randomTensor({3, 64}, 71);
  const std::vector<Tensor> out = (*d)->run(read.value(), {in});
  ASSERT_EQ(out.size(), 1u);
  expectCloseTo(out[0], ops::linear(in, tensor<float>(dequantized, {4, 64})), 0.02);
}

}  // namespace
}  // namespace sy::testing
