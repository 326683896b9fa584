#include "switchyard/backends/xnnpack/aot/xnnpack_preprocess.h"

#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "switchyard/backends/xnnpack/schema/syxn_graph_generated.h"
#include "switchyard/backends/xnnpack/aot/xnnpack_layout.h"
#include "switchyard/backends/xnnpack/aot/xnnpack_layout_plan.h"
#include "switchyard/backends/xnnpack/aot/xnnpack_node_plan.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::xnnpack {
namespace {

using export_::ExportedProgram;
using export_::InputKind;
using export_::Node;
using export_::NodeArgument;
using export_::NodeKind;
using export_::ValueId;

constexpr float kInf = std::numeric_limits<float>::infinity();

struct BlobValue {
  std::vector<int64_t> dims;
  std::vector<float> data;
};
struct BlobEdge {
  uint32_t arg = 0, value = 0;
  syxn::EdgeLayout layout = syxn::EdgeLayout::Same;
};
struct BlobNode {
  syxn::NodeKind kind = syxn::NodeKind::Clamp;
  std::vector<uint32_t> inputs, outputs;
  std::vector<uint64_t> params;
  float output_min = -kInf, output_max = kInf;
  int64_t graph_debug_handle = 0;
  std::string operator_name;
};

absl::string_view nameOf(Layout l) { return l == Layout::ChannelsLast ? "channels-last (NHWC)" : "NCHW"; }

// Builds the blob of one subprogram. See Note [Channels-last values inside an XNNPACK subgraph].
class BlobBuilder {
 public:
  explicit BlobBuilder(const ExportedProgram& p) : p_(p) {
    const std::vector<ValueId> users = p.graph().placeholders(InputKind::User);
    for (size_t i = 0; i < users.size(); ++i) user_input_index_[users[i]] = static_cast<uint32_t>(i);
  }

  absl::Status build() {
    const std::vector<Node>& nodes = p_.graph().nodes();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].kind != NodeKind::CallFunction) continue;
      absl::StatusOr<NodePlan> plan = planNode(p_, static_cast<export_::NodeId>(i));
      if (!plan.ok()) return refuse(nodes[i], plan.status().message());
      plans_.push_back({static_cast<export_::NodeId>(i), *std::move(plan)});
    }
    // The partitioner leaves out every node LayoutPlan finds in conflict, so a conflict here is
    // a group it did not make (a hand-made partition, or the whole program lowered at once).
    layouts_ = std::make_unique<LayoutPlan>(p_, plans_);
    if (!layouts_->conflicts().empty()) {
      const LayoutPlan::Conflict& c = layouts_->conflicts()[0];
      return refuse(p_.graph().node(c.node), absl::StrCat(c.reason, "; partition with XnnpackPartitioner"));
    }
    for (const PlannedNode& n : plans_) {
      current_ = &p_.graph().node(n.id);
      if (absl::Status s = emit(*current_, n.plan); !s.ok()) return s;
    }
    current_ = nullptr;
    return emitOutputs();
  }

  export_::PreprocessResult finish() const;

 private:
  const std::vector<int64_t>& sizesOf(ValueId v) const { return p_.graph().value(v).meta.sizes; }
  absl::Status refuse(const Node& node, absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend preprocess: node %", node.name, " (",
                                                   node.op->operator_name().toString(), ") cannot be delegated: ", why));
  }
  Layout preferred(ValueId v) const { return layouts_->layoutOf(v); }

  uint32_t addValue(std::vector<int64_t> dims, std::vector<float> data = {}) {
    values_.push_back({std::move(dims), std::move(data)});
    return static_cast<uint32_t>(values_.size() - 1);
  }
  void addNode(syxn::NodeKind kind, std::vector<uint32_t> inputs, uint32_t output, std::vector<uint64_t> params = {},
               float output_min = -kInf, float output_max = kInf) {
    BlobNode n{kind, std::move(inputs), {output}, std::move(params), output_min, output_max, 0, "copy"};
    written_.insert(output);
    if (current_ != nullptr) {
      n.graph_debug_handle = current_->meta.debug_handle;
      n.operator_name = current_->op->operator_name().toString();
    }
    nodes_.push_back(std::move(n));
  }
  // A node's result, defined in `layout`.
  uint32_t addResult(ValueId v, Layout layout) {
    const uint32_t id = addValue(layout == Layout::ChannelsLast ? channelsLast(sizesOf(v)) : sizesOf(v));
    produced_[v] = {id, layout};
    ids_[{v, layout, false}] = id;
    return id;
  }

  // A parameter's or constant's values, in NCHW order.
  std::vector<float> constantData(ValueId v) const {
    const Tensor t = ops::contiguous(p_.stateOf(v));
    const float* f = t.data_ptr<float>();
    return std::vector<float>(f, f + t.numel());
  }

  // The XNNPACK value holding `v` as `want` asks (with lower-rank shapes padded to 4-D when
  // `pad`): the value itself, a static reshape of it when the bytes are the same, an input bound
  // again with a transpose at the edge, a constant stored transposed, or an error.
  absl::StatusOr<uint32_t> valueAs(ValueId v, Layout want, bool pad = false) {
    const std::vector<int64_t> shape = pad ? paddedTo4(sizesOf(v)) : sizesOf(v);
    if (shape.size() != 4) want = Layout::Logical;
    const auto key = std::make_tuple(v, want, pad);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const std::vector<int64_t> dims = want == Layout::ChannelsLast ? channelsLast(shape) : shape;
    uint32_t id;
    if (auto in = user_input_index_.find(v); in != user_input_index_.end()) {
      id = addValue(dims);
      const bool transpose = want == Layout::ChannelsLast && !sameMemoryInBothLayouts(shape);
      inputs_.push_back({in->second, id, transpose ? syxn::EdgeLayout::NchwToNhwc : syxn::EdgeLayout::Same});
    } else if (isConstantValue(p_, v)) {
      std::vector<float> data = constantData(v);
      if (want == Layout::ChannelsLast) {
        std::vector<float> nhwc(data.size());
        transposeBatched(data.data(), nhwc.data(), shape[0], shape[1], shape[2] * shape[3]);
        data = std::move(nhwc);
      }
      id = addValue(dims, std::move(data));
    } else {
      const auto [base, base_layout] = produced_.at(v);
      if (base_layout != want && !sameMemoryInBothLayouts(shape)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "XnnpackBackend preprocess: node %", current_->name, " reads %", p_.graph().value(v).name, " ",
            p_.graph().value(v).meta.str(), " as ", nameOf(want), " but it is ", nameOf(base_layout),
            " inside the delegate, and XNNPACK 2022-02 has no transpose; partition with XnnpackPartitioner"));
      }
      if (values_[base].dims == dims) {
        id = base;
      } else {
        id = addValue(dims);
        addNode(syxn::NodeKind::StaticReshape, {base}, id, std::vector<uint64_t>(dims.begin(), dims.end()));
      }
    }
    ids_[key] = id;
    return id;
  }

  absl::Status emit(const Node& node, const NodePlan& plan);
  absl::Status emitConvolution(const Node& node, const NodePlan& plan);
  absl::Status emitOutputs();

  const ExportedProgram& p_;
  std::vector<PlannedNode> plans_;
  std::unique_ptr<LayoutPlan> layouts_;
  std::map<ValueId, uint32_t> user_input_index_;
  std::map<std::tuple<ValueId, Layout, bool>, uint32_t> ids_;
  std::map<ValueId, std::pair<uint32_t, Layout>> produced_;
  const Node* current_ = nullptr;

  std::vector<BlobValue> values_;
  std::vector<BlobEdge> inputs_, outputs_;
  std::vector<BlobNode> nodes_;
  std::set<uint32_t> written_;  // the values a node writes
};

#define SY_ASSIGN_OR_RETURN_ID(lhs, expr)      \
  absl::StatusOr<uint32_t> lhs##_or = (expr); \
  if (!lhs##_or.ok()) return lhs##_or.status(); \
  const uint32_t lhs = *lhs##_or

absl::Status BlobBuilder::emitConvolution(const Node& node, const NodePlan& plan) {
  SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
  const std::vector<int64_t>& w = sizesOf(plan.operands[1]);
  const uint64_t out_channels = w[0], in_channels = sizesOf(plan.operands[0])[1], groups = plan.groups;
  const uint64_t kh = w[2], kw = w[3];
  if (in_channels % groups != 0 || out_channels % groups != 0 || static_cast<uint64_t>(w[1]) * groups != in_channels) {
    return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend preprocess: node %", node.name, ": weight ",
                                                   p_.graph().value(plan.operands[1]).meta.str(), " does not fit ",
                                                   in_channels, " input channels in ", groups, " groups"));
  }
  const std::vector<float> oihw = constantData(plan.operands[1]);
  std::vector<float> filter(oihw.size());
  const bool depthwise = groups > 1 && groups == in_channels;
  std::vector<int64_t> filter_dims;
  if (depthwise) {
    // [Cout, 1, KH, KW] -> XNNPACK's [1, KH, KW, Cout].
    transposeBatched(oihw.data(), filter.data(), 1, out_channels, kh * kw);
    filter_dims = {1, static_cast<int64_t>(kh), static_cast<int64_t>(kw), static_cast<int64_t>(out_channels)};
  } else {
    // OIHW -> OHWI: per output channel, [Cin/groups, KH*KW] -> [KH*KW, Cin/groups].
    transposeBatched(oihw.data(), filter.data(), out_channels, in_channels / groups, kh * kw);
    filter_dims = {static_cast<int64_t>(out_channels), static_cast<int64_t>(kh), static_cast<int64_t>(kw),
                   static_cast<int64_t>(in_channels / groups)};
  }
  const uint32_t filter_id = addValue(filter_dims, std::move(filter));
  uint32_t bias_id = kNoValue;
  if (plan.operands[2] != NodeArgument::kNone) {
    bias_id = addValue({static_cast<int64_t>(out_channels)}, constantData(plan.operands[2]));
  }
  const uint32_t out = addResult(node.outputs[0], Layout::ChannelsLast);
  std::vector<uint64_t> params = {plan.padding[0], plan.padding[1], plan.padding[0], plan.padding[1],
                                  kh,  kw, plan.stride[0], plan.stride[1], plan.dilation[0], plan.dilation[1]};
  if (depthwise) {
    params.insert(params.end(), {out_channels / groups, in_channels});
    addNode(syxn::NodeKind::DepthwiseConvolution2d, {input, filter_id, bias_id}, out, std::move(params));
  } else {
    params.insert(params.end(), {groups, in_channels / groups, out_channels / groups});
    addNode(syxn::NodeKind::Convolution2d, {input, filter_id, bias_id}, out, std::move(params));
  }
  return absl::OkStatus();
}

absl::Status BlobBuilder::emit(const Node& node, const NodePlan& plan) {
  const ValueId result = node.outputs[0];
  switch (plan.op) {
    case XnnOp::Convolution: return emitConvolution(node, plan);
    case XnnOp::Linear:
    case XnnOp::Addmm: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::Logical));
      const std::vector<int64_t>& w = sizesOf(plan.operands[1]);
      std::vector<float> weight = constantData(plan.operands[1]);
      std::vector<int64_t> dims = w;
      if (plan.weight_transposed) {
        std::vector<float> t(weight.size());
        transposeBatched(weight.data(), t.data(), 1, w[0], w[1]);
        weight = std::move(t);
        dims = {w[1], w[0]};
      }
      const uint32_t filter = addValue(dims, std::move(weight));
      uint32_t bias = kNoValue;
      if (plan.operands[2] != NodeArgument::kNone) bias = addValue({dims[0]}, constantData(plan.operands[2]));
      addNode(syxn::NodeKind::FullyConnected, {input, filter, bias}, addResult(result, Layout::Logical));
      return absl::OkStatus();
    }
    case XnnOp::Add:
    case XnnOp::Sub:
    case XnnOp::Mul:
    case XnnOp::Div: {
      const Layout layout = preferred(result);
      std::vector<uint32_t> inputs;
      for (ValueId v : plan.operands) {
        SY_ASSIGN_OR_RETURN_ID(id, valueAs(v, layout, layout == Layout::ChannelsLast && sizesOf(v).size() < 4));
        inputs.push_back(id);
      }
      if (plan.has_scalar_operand) inputs.push_back(addValue({1}, {plan.scalar_operand}));
      const syxn::NodeKind kind = plan.op == XnnOp::Add   ? syxn::NodeKind::Add
                                : plan.op == XnnOp::Sub ? syxn::NodeKind::Subtract
                                : plan.op == XnnOp::Mul ? syxn::NodeKind::Multiply
                                                        : syxn::NodeKind::Divide;
      addNode(kind, std::move(inputs), addResult(result, layout));
      return absl::OkStatus();
    }
    case XnnOp::Clamp:
    case XnnOp::Sigmoid:
    case XnnOp::Softmax: {
      const Layout layout = plan.op == XnnOp::Softmax ? Layout::Logical : preferred(result);
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], layout));
      const syxn::NodeKind kind = plan.op == XnnOp::Clamp     ? syxn::NodeKind::Clamp
                                : plan.op == XnnOp::Sigmoid ? syxn::NodeKind::Sigmoid
                                                            : syxn::NodeKind::Softmax;
      addNode(kind, {input}, addResult(result, layout), {}, plan.output_min, plan.output_max);
      return absl::OkStatus();
    }
    case XnnOp::MaxPool2d:
    case XnnOp::AvgPool2d: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
      std::vector<uint64_t> params = {plan.padding[0], plan.padding[1], plan.padding[0], plan.padding[1],
                                      plan.kernel[0],  plan.kernel[1],  plan.stride[0],  plan.stride[1]};
      if (plan.op == XnnOp::MaxPool2d) params.insert(params.end(), {plan.dilation[0], plan.dilation[1]});
      addNode(plan.op == XnnOp::MaxPool2d ? syxn::NodeKind::MaxPooling2d : syxn::NodeKind::AveragePooling2d, {input},
              addResult(result, Layout::ChannelsLast), std::move(params));
      return absl::OkStatus();
    }
    case XnnOp::GlobalAvgPool: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
      if (sizesOf(result).size() == 4) {  // keepdim: [N, C, 1, 1], the same bytes as [N, 1, 1, C]
        addNode(syxn::NodeKind::GlobalAveragePooling2d, {input}, addResult(result, Layout::ChannelsLast));
      } else {
        const std::vector<int64_t>& in = sizesOf(plan.operands[0]);
        const uint32_t pooled = addValue({in[0], 1, 1, in[1]});
        addNode(syxn::NodeKind::GlobalAveragePooling2d, {input}, pooled);
        const uint32_t out = addResult(result, Layout::Logical);
        addNode(syxn::NodeKind::StaticReshape, {pooled}, out,
                std::vector<uint64_t>(sizesOf(result).begin(), sizesOf(result).end()));
      }
      return absl::OkStatus();
    }
    case XnnOp::ChannelsLastToNhwc:
    case XnnOp::NhwcToChannelsLast: {
      // The same XNNPACK value, relabelled: its dims are the result's in the result's layout.
      const bool to_nhwc = plan.op == XnnOp::ChannelsLastToNhwc;
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], to_nhwc ? Layout::ChannelsLast : Layout::Logical));
      const Layout layout = to_nhwc ? Layout::Logical : Layout::ChannelsLast;
      produced_[result] = {input, layout};
      ids_[{result, layout, false}] = input;
      return absl::OkStatus();
    }
    case XnnOp::Reshape: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::Logical));
      addNode(syxn::NodeKind::StaticReshape, {input}, addResult(result, Layout::Logical),
              std::vector<uint64_t>(sizesOf(result).begin(), sizesOf(result).end()));
      return absl::OkStatus();
    }
  }
  return absl::InternalError("XnnpackBackend preprocess: unknown plan");
}

// Each graph output becomes an external output. One that is not made by a node here (an input or
// constant passed through) or that is already another output gets a copy (a clamp to
// [-inf, inf]): an XNNPACK value is one external value at most.
absl::Status BlobBuilder::emitOutputs() {
  const std::vector<ValueId> outs = p_.graph().outputs();
  const uint32_t num_inputs = static_cast<uint32_t>(user_input_index_.size());
  std::set<uint32_t> taken;
  for (size_t k = 0; k < outs.size(); ++k) {
    const ValueId v = outs[k];
    const uint32_t arg = num_inputs + static_cast<uint32_t>(k);
    auto produced = produced_.find(v);
    if (produced != produced_.end()) {
      const auto [id, layout] = produced->second;
      const bool transpose = layout == Layout::ChannelsLast && !sameMemoryInBothLayouts(sizesOf(v));
      const syxn::EdgeLayout edge = transpose ? syxn::EdgeLayout::NchwToNhwc : syxn::EdgeLayout::Same;
      uint32_t external = id;
      if (taken.count(id) || !written_.count(id)) {  // another output, or a relabelled input or constant
        external = addValue(values_[id].dims);
        addNode(syxn::NodeKind::Clamp, {id}, external);
      }
      outputs_.push_back({arg, external, edge});
      taken.insert(external);
      continue;
    }
    absl::StatusOr<uint32_t> source = valueAs(v, Layout::Logical);
    if (!source.ok()) return source.status();
    const uint32_t copy = addValue(sizesOf(v));
    addNode(syxn::NodeKind::Clamp, {*source}, copy);
    outputs_.push_back({arg, copy, syxn::EdgeLayout::Same});
    taken.insert(copy);
  }
  return absl::OkStatus();
}

export_::PreprocessResult BlobBuilder::finish() const {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<syxn::Value>> values;
  for (const BlobValue& v : values_) {
    const std::vector<uint64_t> dims(v.dims.begin(), v.dims.end());
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
    if (!v.data.empty()) {
      data = b.CreateVector(reinterpret_cast<const uint8_t*>(v.data.data()), v.data.size() * sizeof(float));
    }
    values.push_back(syxn::CreateValue(b, b.CreateVector(dims), data));
  }
  auto edges = [&](const std::vector<BlobEdge>& list) {
    std::vector<flatbuffers::Offset<syxn::ExternalValue>> out;
    for (const BlobEdge& e : list) out.push_back(syxn::CreateExternalValue(b, e.arg, e.value, e.layout));
    return b.CreateVector(out);
  };
  auto inputs = edges(inputs_);
  auto outputs = edges(outputs_);
  export_::PreprocessResult result;
  std::vector<flatbuffers::Offset<syxn::Node>> nodes;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const BlobNode& n = nodes_[i];
    nodes.push_back(syxn::CreateNode(b, n.kind, b.CreateVector(n.inputs), b.CreateVector(n.outputs),
                                   b.CreateVector(n.params), n.output_min, n.output_max, static_cast<int64_t>(i),
                                   b.CreateString(n.operator_name)));
    if (n.graph_debug_handle != 0) result.debug_handle_map[static_cast<int64_t>(i)] = {n.graph_debug_handle};
  }
  b.Finish(syxn::CreateGraph(b, kXnnpackBlobVersion, static_cast<uint32_t>(user_input_index_.size()),
                           static_cast<uint32_t>(p_.graph().outputs().size()), b.CreateVector(values), inputs, outputs,
                           b.CreateVector(nodes)),
           syxn::GraphIdentifier());
  result.processed_bytes.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  return result;
}

}  // namespace

absl::StatusOr<export_::PreprocessResult> XnnpackBackendDetails::preprocess(
    const ExportedProgram& subprogram, absl::Span<const export_::CompileSpec> compile_specs) const {
  BlobBuilder builder(subprogram);
  if (absl::Status s = builder.build(); !s.ok()) return s;
  return builder.finish();
}

namespace {
XnnpackBackendDetails details;
const absl::Status details_registered = export_::registerBackendDetails(kXnnpackBackendId, &details);
}  // namespace

}  // namespace sy::xnnpack
