// The XNNPACK delegate's preprocess: each planned node of the subprogram becomes XNNPACK nodes of
// ExecuTorch's format (GraphBuilder, xnnpack_graph_builder.h), written with its constants in the
// program's named data (xnnpack_blob_writer.h).
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_preprocess.h"

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_blob_writer.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_graph_builder.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack {

using export_::Node;
using export_::NodeArgument;
using export_::ValueId;

#define SY_ASSIGN_OR_RETURN_ID(lhs, expr)       \
  absl::StatusOr<uint32_t> lhs##_or = (expr);   \
  if (!lhs##_or.ok()) return lhs##_or.status(); \
  const uint32_t lhs = *lhs##_or

// Convolution: NHWC input and result, filters stored as XNNPACK wants them. A convolution with one
// input channel per group is depthwise, as ExecuTorch's exporter decides.
absl::Status GraphBuilder::emitConvolution(const Node& node, const NodePlan& plan) {
  SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
  const std::vector<int64_t>& w = sizesOf(plan.operands[1]);
  const int64_t out_channels = w[0], in_channels = sizesOf(plan.operands[0])[1], groups = plan.groups;
  const int64_t kh = w[2], kw = w[3];
  if (in_channels % groups != 0 || out_channels % groups != 0 || w[1] * groups != in_channels) {
    return absl::InvalidArgumentError(sy::str("XnnpackBackend preprocess: node %", node.name, ": weight ",
                                              p_.graph().value(plan.operands[1]).meta.str(), " does not fit ", in_channels,
                                              " input channels in ", groups, " groups"));
  }
  const std::vector<float> oihw = constantData(plan.operands[1]);
  std::vector<float> filter(oihw.size());
  const int64_t group_in = in_channels / groups, group_out = out_channels / groups;
  const bool depthwise = group_in == 1;
  std::vector<int64_t> filter_dims;
  if (depthwise) {
    // [Cout, 1, KH, KW] -> [1, KH, KW, Cout].
    transposeBatched(oihw.data(), filter.data(), 1, out_channels, kh * kw);
    filter_dims = {1, kh, kw, out_channels};
  } else {
    // OIHW -> OHWI: per output channel, [Cin/groups, KH*KW] -> [KH*KW, Cin/groups].
    transposeBatched(oihw.data(), filter.data(), out_channels, group_in, kh * kw);
    filter_dims = {out_channels, kh, kw, group_in};
  }
  const uint32_t filter_id = addConstant(filter_dims, std::move(filter));
  uint32_t bias_id = kNoValue;
  if (plan.operands[2] != NodeArgument::kNone) bias_id = addConstant({out_channels}, constantData(plan.operands[2]));
  const uint32_t out = addResult(node.outputs[0], Layout::ChannelsLast);
  XnnNode& n = addNode(depthwise ? NodeKind::DepthwiseConv2d : NodeKind::Conv2d, {input, filter_id, bias_id}, out);
  XnnNode::Window& win = n.window;
  win.pad_top = win.pad_bottom = plan.padding[0], win.pad_left = win.pad_right = plan.padding[1];
  win.kernel_h = static_cast<uint32_t>(kh), win.kernel_w = static_cast<uint32_t>(kw);
  win.stride_h = plan.stride[0], win.stride_w = plan.stride[1];
  win.dilation_h = plan.dilation[0], win.dilation_w = plan.dilation[1];
  win.groups = static_cast<uint32_t>(groups);
  win.group_input_channels = static_cast<uint32_t>(group_in), win.group_output_channels = static_cast<uint32_t>(group_out);
  return absl::OkStatus();
}

absl::Status GraphBuilder::emit(const Node& node, const NodePlan& plan) {
  const ValueId result = node.outputs[0];
  switch (plan.op) {
    case XnnOp::Convolution: return emitConvolution(node, plan);
    case XnnOp::Linear:
    case XnnOp::Addmm: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::Logical));
      const std::vector<int64_t>& w = sizesOf(plan.operands[1]);
      std::vector<float> weight = constantData(plan.operands[1]);
      std::vector<int64_t> dims = w;
      if (plan.weight_transposed) {  // addmm's [in, out] weight, stored [out, in]
        std::vector<float> t(weight.size());
        transposeBatched(weight.data(), t.data(), 1, w[0], w[1]);
        weight = std::move(t);
        dims = {w[1], w[0]};
      }
      const uint32_t filter = addConstant(dims, std::move(weight));
      uint32_t bias = kNoValue;
      if (plan.operands[2] != NodeArgument::kNone) bias = addConstant({dims[0]}, constantData(plan.operands[2]));
      addNode(NodeKind::FullyConnected, {input, filter, bias}, addResult(result, Layout::Logical));
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
      if (plan.has_scalar_operand) inputs.push_back(addConstant({1}, {plan.scalar_operand}));
      const NodeKind kind = plan.op == XnnOp::Add   ? NodeKind::Add
                            : plan.op == XnnOp::Sub ? NodeKind::Subtract
                            : plan.op == XnnOp::Mul ? NodeKind::Multiply
                                                    : NodeKind::Div;
      addNode(kind, std::move(inputs), addResult(result, layout));
      return absl::OkStatus();
    }
    case XnnOp::Clamp:
    case XnnOp::Sigmoid:
    case XnnOp::Softmax: {
      const Layout layout = plan.op == XnnOp::Softmax ? Layout::Logical : preferred(result);
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], layout));
      const NodeKind kind = plan.op == XnnOp::Clamp     ? NodeKind::Clamp
                            : plan.op == XnnOp::Sigmoid ? NodeKind::Sigmoid
                                                        : NodeKind::Softmax;
      XnnNode& n = addNode(kind, {input}, addResult(result, layout));
      if (plan.op == XnnOp::Clamp) n.output_min = plan.output_min, n.output_max = plan.output_max;
      return absl::OkStatus();
    }
    case XnnOp::MaxPool2d:
    case XnnOp::AvgPool2d: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
      const bool max = plan.op == XnnOp::MaxPool2d;
      XnnNode& n = addNode(max ? NodeKind::MaxPooling2d : NodeKind::AvgPooling2d, {input},
                           addResult(result, Layout::ChannelsLast));
      XnnNode::Window& w = n.window;
      w.pad_top = w.pad_bottom = plan.padding[0], w.pad_left = w.pad_right = plan.padding[1];
      w.kernel_h = plan.kernel[0], w.kernel_w = plan.kernel[1], w.stride_h = plan.stride[0], w.stride_w = plan.stride[1];
      if (max) w.dilation_h = plan.dilation[0], w.dilation_w = plan.dilation[1];
      return absl::OkStatus();
    }
    case XnnOp::GlobalAvgPool: {
      SY_ASSIGN_OR_RETURN_ID(input, valueAs(plan.operands[0], Layout::ChannelsLast));
      if (sizesOf(result).size() == 4) {  // keepdim: [N, C, 1, 1], the same bytes as [N, 1, 1, C]
        addNode(NodeKind::GlobalAvgPooling2d, {input}, addResult(result, Layout::ChannelsLast));
      } else {
        const std::vector<int64_t>& in = sizesOf(plan.operands[0]);
        const uint32_t pooled = addValue({in[0], 1, 1, in[1]});
        addNode(NodeKind::GlobalAvgPooling2d, {input}, pooled);
        const uint32_t out = addResult(result, Layout::Logical);
        addNode(NodeKind::StaticReshape, {pooled}, out).list_a = graph().values[out].dims;
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
      const uint32_t out = addResult(result, Layout::Logical);
      addNode(NodeKind::StaticReshape, {input}, out).list_a = graph().values[out].dims;
      return absl::OkStatus();
    }
  }
  return absl::InternalError("XnnpackBackend preprocess: unknown plan");
}

absl::StatusOr<export_::PreprocessResult> XnnpackBackendDetails::preprocess(
    const export_::ExportedProgram& subprogram, absl::Span<const export_::CompileSpec> compile_specs) const {
  GraphBuilder builder(subprogram);
  if (absl::Status s = builder.build(); !s.ok()) return s;
  absl::StatusOr<WrittenBlob> written = writeXnnBlob(builder.graph(), ConstantPlacement::NamedData);
  if (!written.ok()) return written.status();
  export_::PreprocessResult result;
  result.processed_bytes = std::move(written->bytes);
  result.named_data = std::move(written->named_data);
  result.debug_handle_map = builder.debugHandleMap();
  return result;
}

namespace {
XnnpackBackendDetails details;
const absl::Status details_registered = export_::registerBackendDetails(kXnnpackBackendId, &details);
}  // namespace

}  // namespace sy::xnnpack
