#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_subgraph.h"

#include <xnnpack.h>

#include <unordered_map>
#include <unordered_set>

#include "switchyard/core/error.h"

namespace sy::xnnpack {

const char* xnnStatusName(int status) {
  switch (static_cast<xnn_status>(status)) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid_parameter";
    case xnn_status_invalid_state: return "invalid_state";
    case xnn_status_unsupported_parameter: return "unsupported_parameter";
    case xnn_status_unsupported_hardware: return "unsupported_hardware";
    case xnn_status_out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

namespace {

static_assert(static_cast<int>(Datatype::QCInt32) == xnn_datatype_qcint32, "the blob numbers datatypes as XNNPACK does");

class SubgraphBuilder {
 public:
  SubgraphBuilder(const XnnGraph& g, const std::vector<Dims>& dims, const std::vector<const void*>& constants)
      : g_(g), dims_(dims), constants_(constants) {}
  ~SubgraphBuilder() {
    if (subgraph_ != nullptr) xnn_delete_subgraph(subgraph_);
  }

  xnn_status start(absl::Span<const uint32_t> nodes, absl::Span<const SubgraphRuntime::External> externals) {
    for (size_t k = 0; k < externals.size(); ++k) external_[externals[k].value] = static_cast<uint32_t>(k);
    for (uint32_t n : nodes) {
      for (uint32_t out : g_.nodes[n].outputs) written_.insert(out);
    }
    return xnn_create_subgraph(static_cast<uint32_t>(externals.size()), 0, &subgraph_);
  }

  xnn_status value(uint32_t v, uint32_t* id) {
    if (v == kNoValue) return *id = XNN_INVALID_VALUE_ID, xnn_status_success;
    if (auto it = ids_.find(v); it != ids_.end()) return *id = it->second, xnn_status_success;
    const XnnValue& value = g_.values[v];
    const Dims& d = dims_[v];
    const std::vector<size_t> shape(d.begin(), d.end());
    uint32_t external_id = XNN_INVALID_VALUE_ID, flags = 0;
    if (auto it = external_.find(v); it != external_.end()) {
      external_id = it->second;
      flags = written_.count(v) ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT : XNN_VALUE_FLAG_EXTERNAL_INPUT;
    }
    const void* data = value.isConstant() ? constants_[v] : nullptr;
    const auto type = static_cast<xnn_datatype>(value.datatype);
    xnn_status s;
    switch (value.datatype) {
      case Datatype::Fp32:
        s = xnn_define_tensor_value(subgraph_, type, shape.size(), shape.data(), data, external_id, flags, id);
        break;
      case Datatype::QInt8:
      case Datatype::QUInt8:
      case Datatype::QInt32:
        s = xnn_define_quantized_tensor_value(subgraph_, type, value.quant.zero_point, value.quant.scale, shape.size(),
                                              shape.data(), data, external_id, flags, id);
        break;
      case Datatype::QCInt8:
      case Datatype::QCInt32:
        s = xnn_define_channelwise_quantized_tensor_value(subgraph_, type, value.quant.scales.data(), shape.size(),
                                                          value.quant.channel_dim, shape.data(), data, external_id,
                                                          flags, id);
        break;
      default: s = xnn_status_unsupported_parameter; break;
    }
    if (s == xnn_status_success) ids_[v] = *id;
    return s;
  }

  xnn_status node(const XnnNode& n) {
    uint32_t in[5] = {XNN_INVALID_VALUE_ID, XNN_INVALID_VALUE_ID, XNN_INVALID_VALUE_ID, XNN_INVALID_VALUE_ID,
                      XNN_INVALID_VALUE_ID};
    uint32_t out = XNN_INVALID_VALUE_ID;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      if (xnn_status s = value(n.inputs[k], &in[k]); s != xnn_status_success) return s;
    }
    if (xnn_status s = value(n.outputs[0], &out); s != xnn_status_success) return s;
    const float lo = n.output_min, hi = n.output_max;
    const XnnNode::Window& w = n.window;
    xnn_subgraph_t g = subgraph_;
    switch (n.kind) {
      case NodeKind::Add: return xnn_define_add2(g, lo, hi, in[0], in[1], out, 0);
      case NodeKind::Subtract: return xnn_define_subtract(g, lo, hi, in[0], in[1], out, 0);
      case NodeKind::Multiply: return xnn_define_multiply2(g, lo, hi, in[0], in[1], out, 0);
      case NodeKind::Div: return xnn_define_divide(g, lo, hi, in[0], in[1], out, 0);
      case NodeKind::Minimum: return xnn_define_minimum2(g, in[0], in[1], out, 0);
      case NodeKind::Maximum: return xnn_define_maximum2(g, in[0], in[1], out, 0);
      case NodeKind::PReLU: return xnn_define_prelu(g, in[0], in[1], out, 0);
      case NodeKind::FullyConnected: return xnn_define_fully_connected(g, lo, hi, in[0], in[1], in[2], out, n.flags);
      case NodeKind::Conv2d:
        return xnn_define_convolution_2d(g, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w,
                                         w.stride_h, w.stride_w, w.dilation_h, w.dilation_w, w.groups,
                                         w.group_input_channels, w.group_output_channels, lo, hi, in[0], in[1], in[2],
                                         out, 0);
      case NodeKind::DepthwiseConv2d:
        return xnn_define_depthwise_convolution_2d(g, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h,
                                                   w.kernel_w, w.stride_h, w.stride_w, w.dilation_h, w.dilation_w,
                                                   w.group_output_channels / w.group_input_channels, w.groups, lo, hi,
                                                   in[0], in[1], in[2], out, 0);
      case NodeKind::ConvTranspose2d:
        return xnn_define_deconvolution_2d(g, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.adjustment_h,
                                           w.adjustment_w, w.kernel_h, w.kernel_w, w.stride_h, w.stride_w, w.dilation_h,
                                           w.dilation_w, w.groups, w.group_input_channels, w.group_output_channels, lo,
                                           hi, in[0], in[1], in[2], out, 0);
      case NodeKind::AvgPooling2d:
        return xnn_define_average_pooling_2d(g, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w,
                                             w.stride_h, w.stride_w, lo, hi, in[0], out, 0);
      case NodeKind::MaxPooling2d:
        return xnn_define_max_pooling_2d(g, w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w,
                                         w.stride_h, w.stride_w, w.dilation_h, w.dilation_w, lo, hi, in[0], out, 0);
      case NodeKind::GlobalAvgPooling2d: return xnn_define_global_average_pooling_2d(g, lo, hi, in[0], out, 0);
      case NodeKind::Softmax: return xnn_define_softmax(g, in[0], out, 0);
      case NodeKind::Sigmoid: return xnn_define_sigmoid(g, in[0], out, 0);
      case NodeKind::Clamp: return xnn_define_clamp(g, lo, hi, in[0], out, 0);
      case NodeKind::Floor: return xnn_define_floor(g, in[0], out, 0);
      case NodeKind::Ceiling: return xnn_define_ceiling(g, in[0], out, 0);
      case NodeKind::SquareRoot: return xnn_define_square_root(g, in[0], out, 0);
      case NodeKind::Square: return xnn_define_square(g, in[0], out, 0);
      case NodeKind::Abs: return xnn_define_abs(g, in[0], out, 0);
      case NodeKind::Negate: return xnn_define_negate(g, in[0], out, 0);
      case NodeKind::Hardswish: return xnn_define_hardswish(g, in[0], out, 0);
      case NodeKind::ELU: return xnn_define_elu(g, n.scalar, in[0], out, 0);
      case NodeKind::LeakyReLU: return xnn_define_leaky_relu(g, n.scalar, in[0], out, 0);
      case NodeKind::Convert: return xnn_define_convert(g, in[0], out, 0);
      case NodeKind::StaticReshape: {
        const std::vector<size_t> shape(dims_[n.outputs[0]].begin(), dims_[n.outputs[0]].end());
        return xnn_define_static_reshape(g, shape.size(), shape.data(), in[0], out, 0);
      }
      case NodeKind::StaticConstantPad: {
        const std::vector<size_t> pre(n.list_a.begin(), n.list_a.end()), post(n.list_b.begin(), n.list_b.end());
        return xnn_define_static_constant_pad(g, pre.data(), post.data(), n.scalar, in[0], out, 0);
      }
      case NodeKind::StaticResizeBilinear2D:
        return xnn_define_static_resize_bilinear_2d(g, n.new_height, n.new_width, in[0], out, n.flags);
      default: return xnn_status_unsupported_parameter;  // not in the support table
    }
  }

  xnn_subgraph_t subgraph() const { return subgraph_; }

 private:
  const XnnGraph& g_;
  const std::vector<Dims>& dims_;
  const std::vector<const void*>& constants_;
  xnn_subgraph_t subgraph_ = nullptr;
  std::unordered_map<uint32_t, uint32_t> external_, ids_;
  std::unordered_set<uint32_t> written_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<SubgraphRuntime>> SubgraphRuntime::create(
    const XnnGraph& graph, const std::vector<Dims>& dims, absl::Span<const uint32_t> nodes,
    const std::vector<const void*>& constants, absl::Span<const External> externals, pthreadpool* pool,
    size_t* refused) {
  *refused = SIZE_MAX;
  SubgraphBuilder builder(graph, dims, constants);
  if (xnn_status s = builder.start(nodes, externals); s != xnn_status_success) {
    return absl::InternalError(sy::str("xnn_create_subgraph failed: ", xnnStatusName(s)));
  }
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (xnn_status s = builder.node(graph.nodes[nodes[k]]); s != xnn_status_success) {
      *refused = k;
      return absl::InvalidArgumentError(sy::str("XNNPACK refused the node: ", xnnStatusName(s)));
    }
  }
  std::unique_ptr<SubgraphRuntime> r(new SubgraphRuntime());
  if (xnn_status s = xnn_create_runtime_v2(builder.subgraph(), pool, 0, &r->runtime_); s != xnn_status_success) {
    *refused = nodes.size();
    return absl::InvalidArgumentError(sy::str("XNNPACK could not create the runtime: ", xnnStatusName(s)));
  }
  std::vector<xnn_external_value> bound;
  for (size_t k = 0; k < externals.size(); ++k) bound.push_back({static_cast<uint32_t>(k), externals[k].data});
  if (xnn_status s = xnn_setup_runtime(r->runtime_, bound.size(), bound.data()); s != xnn_status_success) {
    *refused = nodes.size();
    return absl::InvalidArgumentError(sy::str("xnn_setup_runtime failed: ", xnnStatusName(s)));
  }
  return r;
}

SubgraphRuntime::~SubgraphRuntime() {
  if (runtime_ != nullptr) xnn_delete_runtime(runtime_);
}

absl::Status SubgraphRuntime::invoke() {
  if (xnn_status s = xnn_invoke_runtime(runtime_); s != xnn_status_success) {
    return absl::InternalError(sy::str("xnn_invoke_runtime failed: ", xnnStatusName(s)));
  }
  return absl::OkStatus();
}

}  // namespace sy::xnnpack
