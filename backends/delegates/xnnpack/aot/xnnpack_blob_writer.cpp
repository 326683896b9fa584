#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_blob_writer.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "switchyard/backends/delegates/xnnpack/aot/sha256.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_header.h"
#include "switchyard/backends/delegates/xnnpack/schema/xnnpack_graph_generated.h"
#include "switchyard/core/bfloat16.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

using flatbuffers::Offset;

constexpr uint32_t kInternal = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kNamed = std::numeric_limits<uint64_t>::max();

class BlobWriter {
 public:
  BlobWriter(const XnnGraph& g, ConstantPlacement placement) : g_(g), placement_(placement) {
    constant_data_.push_back(fb::CreateConstantDataOffset(b_, 0, 0, b_.CreateString("")));
  }

  absl::StatusOr<WrittenBlob> write() {
    std::vector<Offset<fb::XValue>> values;
    std::vector<uint32_t> input_ids, output_ids;
    for (uint32_t i = 0; i < g_.values.size(); ++i) {
      values.push_back(value(g_.values[i], i));
      if (g_.values[i].is_input) input_ids.push_back(i);
      if (g_.values[i].is_output) output_ids.push_back(i);
    }
    std::vector<Offset<fb::XNode>> nodes;
    for (const XnnNode& n : g_.nodes) {
      absl::StatusOr<Offset<fb::XNode>> node = this->node(n);
      if (!node.ok()) return node.status();
      nodes.push_back(*node);
    }
    const auto root = fb::CreateXNNGraph(b_, b_.CreateString(g_.version.empty() ? "0" : g_.version), b_.CreateVector(nodes),
                                         b_.CreateVector(values), g_.num_externs, b_.CreateVector(input_ids),
                                         b_.CreateVector(output_ids), 0, 0, b_.CreateVector(constant_data_));
    fb::FinishXNNGraphBuffer(b_, root);
    WrittenBlob out;
    out.bytes = joinBlob(absl::Span<const uint8_t>(b_.GetBufferPointer(), b_.GetSize()), region_);
    out.named_data = std::move(named_);
    return out;
  }

 private:
  // A constant_data entry for `bytes`: named by digest (with `prefix`) or placed in the region.
  uint32_t constant(absl::Span<const uint8_t> bytes, const std::string& prefix = "") {
    if (placement_ == ConstantPlacement::BlobRegion) {
      region_.resize((region_.size() + 15) / 16 * 16, 0);
      const uint64_t offset = region_.size();
      region_.insert(region_.end(), bytes.begin(), bytes.end());
      constant_data_.push_back(fb::CreateConstantDataOffset(b_, offset, bytes.size()));
    } else {
      const std::string key = prefix + sha256Hex(bytes);
      if (named_index_.emplace(key, named_.size()).second) named_.emplace_back(key, std::vector<uint8_t>(bytes.begin(), bytes.end()));
      constant_data_.push_back(fb::CreateConstantDataOffset(b_, kNamed, bytes.size(), b_.CreateString(key)));
    }
    return static_cast<uint32_t>(constant_data_.size() - 1);
  }

  Offset<fb::XValue> value(const XnnValue& v, uint32_t id) {
    const uint32_t buffer = v.isConstant() ? constant(absl::Span<const uint8_t>(v.data, storageBytes(v.datatype, v.dims))) : 0;
    const std::vector<uint32_t> dims(v.dims.begin(), v.dims.end());
    const uint32_t flags = v.is_input ? 1 : v.is_output ? 2 : 0;
    const auto tensor = fb::CreateXNNTensorValue(b_, static_cast<fb::XNNDatatype>(v.datatype), static_cast<uint32_t>(dims.size()),
                                                 b_.CreateVector(dims), buffer, v.isExternal() ? v.external_id : kInternal,
                                                 flags, id);
    const QuantParams& q = v.quant;
    if (q.kind == QuantParams::Kind::None) return fb::CreateXValue(b_, fb::XValueUnion::XNNTensorValue, tensor.Union());
    fb::XNNQuantParams type = fb::XNNQuantParams::PerTensorQuant;
    flatbuffers::Offset<void> params;
    const absl::Span<const uint8_t> scale_bytes(reinterpret_cast<const uint8_t*>(q.scales.data()), q.scales.size() * sizeof(float));
    switch (q.kind) {
      case QuantParams::Kind::PerTensor: params = fb::CreatePerTensorQuant(b_, q.scale, q.zero_point).Union(); break;
      case QuantParams::Kind::PerChannel: {
        type = fb::XNNQuantParams::PerChannelQuant;
        const uint32_t scales = constant(scale_bytes, "scale_");
        params = fb::CreatePerChannelQuant(b_, b_.CreateVector(std::vector<float>{}), static_cast<int32_t>(q.channel_dim),
                                           scales, static_cast<uint32_t>(q.scales.size()))
                     .Union();
        break;
      }
      case QuantParams::Kind::PerChannelGroup: {
        // See Note [Block scales are bfloat16] in runtime/xnnpack_quant_reader.cpp: written as
        // ExecuTorch's exporter writes them, rounded to nearest, in named data or the region.
        type = fb::XNNQuantParams::PerChannelGroupQuant;
        std::vector<uint8_t> bf16(q.scales.size() * 2);
        for (size_t k = 0; k < q.scales.size(); ++k) {
          const uint16_t bits = BFloat16(q.scales[k]).bits();
          bf16[2 * k] = static_cast<uint8_t>(bits & 0xff), bf16[2 * k + 1] = static_cast<uint8_t>(bits >> 8);
        }
        const uint32_t scales = constant(bf16, "scale_");
        params = fb::CreatePerChannelGroupQuant(b_, b_.CreateVector(std::vector<float>{}), static_cast<int32_t>(q.channel_dim),
                                                static_cast<int32_t>(q.group_size), scales,
                                                static_cast<uint32_t>(q.scales.size()))
                     .Union();
        break;
      }
      default:
        type = fb::XNNQuantParams::PerTokenDynamicQuant;
        params = fb::CreatePerTokenDynamicQuant(b_, q.num_nonbatch_dims).Union();
        break;
    }
    const auto quantized = fb::CreateXNNQuantizedTensorValue(b_, tensor, type, params);
    return fb::CreateXValue(b_, fb::XValueUnion::XNNQuantizedTensorValue, quantized.Union());
  }

  absl::StatusOr<Offset<fb::XNode>> node(const XnnNode& n);

  flatbuffers::FlatBufferBuilder b_;
  const XnnGraph& g_;
  ConstantPlacement placement_;
  std::vector<Offset<fb::ConstantDataOffset>> constant_data_;
  std::vector<uint8_t> region_;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_;
  std::map<std::string, size_t> named_index_;
};

absl::StatusOr<Offset<fb::XNode>> BlobWriter::node(const XnnNode& n) {
  auto in = [&](size_t k) { return k < n.inputs.size() ? n.inputs[k] : kInternal; };
  const uint32_t out = n.outputs.empty() ? kInternal : n.outputs[0];
  const XnnNode::Window& w = n.window;
  auto list = [&](const Dims& d) { return b_.CreateVector(std::vector<uint32_t>(d.begin(), d.end())); };
  flatbuffers::Offset<void> u;
  if (isBinaryElementwise(n.kind) || n.kind == NodeKind::PReLU || n.kind == NodeKind::BatchMatrixMultiply) {
    u = fb::Create_XNNNode2x1(b_, in(0), in(1), out, n.flags).Union();
  } else if (concatenatedInputs(n.kind) != 0) {
    u = fb::Create_XNNCat(b_, n.axis, in(0), in(1), in(2), in(3), out, n.flags, in(4)).Union();
  } else {
    switch (n.kind) {
      case NodeKind::FullyConnected: u = fb::CreateXNNFullyConnected(b_, in(0), in(1), in(2), out, n.flags).Union(); break;
      case NodeKind::Conv2d:
      case NodeKind::DepthwiseConv2d:
      case NodeKind::ConvTranspose2d:
        u = fb::Create_XNNNodeConv(b_, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w, w.stride_h,
                                   w.stride_w, w.dilation_h, w.dilation_w, w.group_input_channels,
                                   w.group_output_channels, w.groups, w.adjustment_h, w.adjustment_w, in(0), in(1), in(2),
                                   out, n.flags)
                .Union();
        break;
      case NodeKind::AvgPooling2d:
      case NodeKind::MaxPooling2d:
        u = fb::Create_XNNPooling2D(b_, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w, w.stride_h,
                                    w.stride_w, w.dilation_h, w.dilation_w, in(0), out, n.flags)
                .Union();
        break;
      case NodeKind::ArgMaxPooling2d:
        u = fb::CreateXNNArgMaxPooling2d(b_, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w, in(0),
                                         out, n.outputs.size() > 1 ? n.outputs[1] : kInternal, n.flags)
                .Union();
        break;
      case NodeKind::StaticTranspose:
        u = fb::CreateXNNStaticTranspose(b_, static_cast<uint32_t>(n.list_a.size()), list(n.list_a), in(0), out, n.flags).Union();
        break;
      case NodeKind::StaticReshape:
        u = fb::CreateXNNStaticReshape(b_, static_cast<uint32_t>(n.list_a.size()), list(n.list_a), in(0), out, n.flags).Union();
        break;
      case NodeKind::StaticSlice:
        u = fb::CreateXNNStaticSlice(b_, static_cast<uint32_t>(n.list_a.size()), list(n.list_a), list(n.list_b), in(0), out,
                                     n.flags)
                .Union();
        break;
      case NodeKind::StaticConstantPad:
        u = fb::CreateXNNStaticConstantPad(b_, list(n.list_a), list(n.list_b), n.scalar, in(0), out, n.flags).Union();
        break;
      case NodeKind::StaticResizeBilinear2D:
        u = fb::CreateXNNStaticResizeBilinear2D(b_, n.new_height, n.new_width, in(0), out, n.flags).Union();
        break;
      case NodeKind::ELU: u = fb::CreateXNNELU(b_, n.scalar, in(0), out, n.flags).Union(); break;
      case NodeKind::LeakyReLU: u = fb::CreateXNNLeakyReLU(b_, n.scalar, in(0), out, n.flags).Union(); break;
      case NodeKind::ScaledDotProductAttention:
        u = fb::CreateXNNScaledDotProductAttention(b_, in(0), in(1), in(2), in(3), in(4), out, n.flags).Union();
        break;
      default:
        if (!isUnaryElementwise(n.kind) && n.kind != NodeKind::Softmax && n.kind != NodeKind::GlobalAvgPooling2d) {
          return absl::InternalError(sy::str("the blob writer has no case for ", nodeKindName(n.kind)));
        }
        u = fb::Create_XNNNode1x1(b_, in(0), out, n.flags).Union();
        break;
    }
  }
  const bool clamped = !(std::isinf(n.output_min) && n.output_min < 0 && std::isinf(n.output_max) && n.output_max > 0);
  const auto bounds = clamped ? fb::CreateOutputMinMax(b_, n.output_min, n.output_max) : 0;
  return fb::CreateXNode(b_, static_cast<fb::XNodeUnion>(n.kind), u, n.debug_handle, bounds);
}

}  // namespace

absl::StatusOr<WrittenBlob> writeXnnBlob(const XnnGraph& graph, ConstantPlacement placement) {
  BlobWriter writer(graph, placement);
  return writer.write();
}

}  // namespace sy::xnnpack
