#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_node_plan.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sy::xnnpack {
namespace {

using export_::ExportedProgram;
using export_::Node;
using export_::NodeArgument;
using export_::ValueId;

absl::Status unsupported(const Node& node, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat(node.op->operator_name().toString(), ": ", why));
}

const std::map<std::string, XnnOp, std::less<>>& operatorTable() {
  static const auto* table = new std::map<std::string, XnnOp, std::less<>>{
      {"aten::convolution", XnnOp::Convolution}, {"aten::linear", XnnOp::Linear},
      {"aten::addmm", XnnOp::Addmm},             {"aten::add.Tensor", XnnOp::Add},
      {"aten::add.Scalar", XnnOp::Add},          {"aten::sub.Tensor", XnnOp::Sub},
      {"aten::sub.Scalar", XnnOp::Sub},          {"aten::mul.Tensor", XnnOp::Mul},
      {"aten::mul.Scalar", XnnOp::Mul},          {"aten::div.Tensor", XnnOp::Div},
      {"aten::div.Scalar", XnnOp::Div},          {"aten::div.Tensor_mode", XnnOp::Div},
      {"aten::relu", XnnOp::Clamp},              {"aten::clamp", XnnOp::Clamp},
      {"aten::hardtanh", XnnOp::Clamp},          {"aten::adaptive_avg_pool2d", XnnOp::GlobalAvgPool},
      {"aten::_adaptive_avg_pool2d", XnnOp::GlobalAvgPool},
      {"aten::sigmoid", XnnOp::Sigmoid},         {"aten::softmax.int", XnnOp::Softmax},
      {"aten::_softmax", XnnOp::Softmax},        {"aten::max_pool2d", XnnOp::MaxPool2d},
      {"aten::avg_pool2d", XnnOp::AvgPool2d},    {"aten::mean.dim", XnnOp::GlobalAvgPool},
      {"aten::view", XnnOp::Reshape},            {"aten::reshape", XnnOp::Reshape},
      {"aten::squeeze", XnnOp::Reshape},         {"aten::squeeze.dim", XnnOp::Reshape},
      {"aten::squeeze.dims", XnnOp::Reshape},    {"aten::unsqueeze", XnnOp::Reshape},
      {"aten::permute", XnnOp::Reshape},
  };
  return *table;
}

bool isNumber(const IValue& v) { return v.isInt() || v.isDouble(); }

const std::vector<int64_t>& sizesOf(const ExportedProgram& p, ValueId v) { return p.graph().value(v).meta.sizes; }

// A [h, w] attribute given as one or two non-negative 32-bit numbers (an empty list means
// `fallback`, as max_pool2d's default stride does).
absl::StatusOr<std::array<uint32_t, 2>> pairOf(const Node& node, size_t arg, absl::string_view what,
                                               std::array<uint32_t, 2> fallback, int64_t minimum) {
  const IValue& c = node.args.at(arg).constant;
  std::vector<int64_t> v;
  if (c.isInt()) {
    v = {c.toInt()};
  } else if (c.isIntList()) {
    v = c.toIntVector();
  } else {
    return unsupported(node, absl::StrCat(what, " is not an int list"));
  }
  if (v.empty()) return fallback;
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2) return unsupported(node, absl::StrCat(what, " has ", v.size(), " values; XNNPACK takes 2-D only"));
  for (int64_t x : v) {
    if (x < minimum || x > (int64_t{1} << 24)) {
      return unsupported(node, absl::StrCat(what, " [", absl::StrJoin(v, ", "), "] is out of range"));
    }
  }
  return std::array<uint32_t, 2>{static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1])};
}

// Every tensor the node reads and returns is Float.
absl::Status checkFloat(const ExportedProgram& p, const Node& node) {
  std::vector<ValueId> values;
  for (const NodeArgument& a : node.args) {
    for (ValueId v : a.readValues()) values.push_back(v);
  }
  values.insert(values.end(), node.outputs.begin(), node.outputs.end());
  for (ValueId v : values) {
    const export_::TensorMeta& m = p.graph().value(v).meta;
    if (m.dtype != ScalarType::Float) {
      return unsupported(node, absl::StrCat("%", p.graph().value(v).name, " is ", m.str(), "; XNNPACK takes Float only"));
    }
  }
  return absl::OkStatus();
}

absl::Status planConvolution(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  const ValueId input = node.args[0].value, weight = node.args[1].value, bias = node.args[2].value;
  if (sizesOf(p, input).size() != 4) return unsupported(node, "XNNPACK convolves 4-D (NCHW) inputs only");
  if (!isConstantValue(p, weight)) return unsupported(node, "the weight is not a parameter or constant");
  if (bias != NodeArgument::kNone && !isConstantValue(p, bias)) {
    return unsupported(node, "the bias is not a parameter or constant");
  }
  if (node.args[6].constant.isBool() && node.args[6].constant.toBool()) {
    return unsupported(node, "transposed convolution is not supported");
  }
  absl::StatusOr<std::array<uint32_t, 2>> stride = pairOf(node, 3, "stride", {1, 1}, 1);
  absl::StatusOr<std::array<uint32_t, 2>> padding = pairOf(node, 4, "padding", {0, 0}, 0);
  absl::StatusOr<std::array<uint32_t, 2>> dilation = pairOf(node, 5, "dilation", {1, 1}, 1);
  for (const auto* s : {&stride, &padding, &dilation}) {
    if (!s->ok()) return s->status();
  }
  if (!node.args[8].constant.isInt() || node.args[8].constant.toInt() < 1) return unsupported(node, "bad groups");
  const std::vector<int64_t>& w = sizesOf(p, weight);
  if (w.size() != 4) return unsupported(node, "the weight is not 4-D");
  plan.operands = {input, weight, bias};
  plan.kernel = {static_cast<uint32_t>(w[2]), static_cast<uint32_t>(w[3])};
  plan.stride = *stride;
  plan.padding = *padding;
  plan.dilation = *dilation;
  plan.groups = static_cast<uint32_t>(node.args[8].constant.toInt());
  return absl::OkStatus();
}

absl::Status planFullyConnected(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  ValueId input, weight, bias;
  if (plan.op == XnnOp::Linear) {
    input = node.args[0].value, weight = node.args[1].value, bias = node.args[2].value;
  } else {
    bias = node.args[0].value, input = node.args[1].value, weight = node.args[2].value;
    for (size_t i : {3, 4}) {
      if (node.args[i].constant.toDouble() != 1.0) return unsupported(node, "beta and alpha other than 1");
    }
    plan.weight_transposed = true;
    const int64_t out = sizesOf(p, weight).size() == 2 ? sizesOf(p, weight)[1] : -1;
    if (sizesOf(p, bias).empty() || sizesOf(p, bias).back() != out || p.graph().value(bias).meta.numel() != out) {
      return unsupported(node, "the bias is not one value per output feature");
    }
  }
  if (!isConstantValue(p, weight) || sizesOf(p, weight).size() != 2) {
    return unsupported(node, "the weight is not a 2-D parameter or constant");
  }
  if (bias != NodeArgument::kNone && !isConstantValue(p, bias)) {
    return unsupported(node, "the bias is not a parameter or constant");
  }
  if (sizesOf(p, input).empty()) return unsupported(node, "a 0-D input");
  plan.operands = {input, weight, bias};
  return absl::OkStatus();
}

absl::Status planBinary(const Node& node, NodePlan& plan) {
  const std::string name = node.op->operator_name().toString();
  if (name == "aten::div.Tensor_mode" && !node.args[2].constant.isNone()) {
    return unsupported(node, "a rounding mode");
  }
  if ((plan.op == XnnOp::Add || plan.op == XnnOp::Sub) && node.args[2].constant.toDouble() != 1.0) {
    return unsupported(node, "alpha other than 1");
  }
  plan.operands = {node.args[0].value};
  if (node.args[1].kind == NodeArgument::Kind::Value) {
    plan.operands.push_back(node.args[1].value);
  } else {
    if (!isNumber(node.args[1].constant)) return unsupported(node, "the other operand is not a number");
    plan.has_scalar_operand = true;
    plan.scalar_operand = static_cast<float>(node.args[1].constant.toDouble());
  }
  return absl::OkStatus();
}

absl::Status planPool(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  if (sizesOf(p, node.args[0].value).size() != 4) return unsupported(node, "XNNPACK pools 4-D (NCHW) inputs only");
  plan.operands = {node.args[0].value};
  absl::StatusOr<std::array<uint32_t, 2>> kernel = pairOf(node, 1, "kernel_size", {0, 0}, 1);
  if (!kernel.ok()) return kernel.status();
  absl::StatusOr<std::array<uint32_t, 2>> stride = pairOf(node, 2, "stride", *kernel, 1);
  absl::StatusOr<std::array<uint32_t, 2>> padding = pairOf(node, 3, "padding", {0, 0}, 0);
  if (!stride.ok()) return stride.status();
  if (!padding.ok()) return padding.status();
  plan.kernel = *kernel;
  plan.stride = *stride;
  plan.padding = *padding;
  if (uint64_t{(*kernel)[0]} * (*kernel)[1] <= 1) return unsupported(node, "a 1x1 pooling window");
  const bool max = plan.op == XnnOp::MaxPool2d;
  const size_t ceil_arg = max ? 5 : 4;
  if (max) {
    absl::StatusOr<std::array<uint32_t, 2>> dilation = pairOf(node, 4, "dilation", {1, 1}, 1);
    if (!dilation.ok()) return dilation.status();
    plan.dilation = *dilation;
  }
  if (node.args[ceil_arg].constant.toBool()) return unsupported(node, "ceil_mode=True");
  if (!max) {
    // XNNPACK averages over the window's pixels inside the image: PyTorch's count_include_pad=False.
    const bool include_pad = node.args[5].constant.toBool();
    if (include_pad && (plan.padding[0] != 0 || plan.padding[1] != 0)) {
      return unsupported(node, "padding with count_include_pad=True");
    }
    if (!node.args[6].constant.isNone()) return unsupported(node, "a divisor_override");
  }
  return absl::OkStatus();
}

// (_)adaptive_avg_pool2d to 1x1 is global average pooling; other output sizes have windows of
// varying size, which no XNNPACK operator computes. (Capture records adaptive_avg_pool2d, which has
// an out variant; ExecuTorch's programs name _adaptive_avg_pool2d.)
absl::Status planAdaptiveAvgPool(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  if (sizesOf(p, node.args[0].value).size() != 4) return unsupported(node, "XNNPACK pools 4-D (NCHW) inputs only");
  absl::StatusOr<std::array<uint32_t, 2>> size = pairOf(node, 1, "output_size", {0, 0}, 0);
  if (!size.ok()) return size.status();
  if (*size != std::array<uint32_t, 2>{1, 1}) {
    return unsupported(node, "only an output_size of 1x1 (global average pooling)");
  }
  plan.operands = {node.args[0].value};
  return absl::OkStatus();
}

absl::Status planGlobalAvgPool(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  if (node.op->operator_name().name != "aten::mean") return planAdaptiveAvgPool(p, node, plan);
  const std::vector<int64_t>& in = sizesOf(p, node.args[0].value);
  if (in.size() != 4) return unsupported(node, "only the mean over H and W of a 4-D tensor (global average pooling)");
  std::set<int64_t> dims;
  if (node.args[1].constant.isIntList()) {
    for (int64_t d : node.args[1].constant.toIntList()) dims.insert(d < 0 ? d + 4 : d);
  }
  if (dims != std::set<int64_t>{2, 3}) {
    return unsupported(node, "only the mean over H and W of a 4-D tensor (global average pooling)");
  }
  if (!node.args[3].constant.isNone()) return unsupported(node, "a dtype argument");
  plan.operands = {node.args[0].value};
  return absl::OkStatus();
}

// relu is clamp to [0, inf); clamp and hardtanh (min_val, max_val) give their bounds (clamp's may
// be None). Float self only, so hardtanh's bounds are used as they are.
absl::Status planClamp(const Node& node, NodePlan& plan) {
  plan.operands = {node.args[0].value};
  if (node.op->operator_name().toString() == "aten::relu") {
    plan.output_min = 0.0f;
    return absl::OkStatus();
  }
  for (size_t i : {1, 2}) {
    const IValue& bound = node.args[i].constant;
    if (bound.isNone()) continue;
    if (!isNumber(bound)) return unsupported(node, "a bound that is not a number");
    (i == 1 ? plan.output_min : plan.output_max) = static_cast<float>(bound.toDouble());
  }
  // XNNPACK's clamp refuses min == max (a constant result) as well as min > max.
  if (!(plan.output_min < plan.output_max)) return unsupported(node, "min not below max");
  return absl::OkStatus();
}

absl::Status planSoftmax(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  const std::vector<int64_t>& in = sizesOf(p, node.args[0].value);
  const int64_t rank = static_cast<int64_t>(in.size());
  const int64_t dim = node.args[1].constant.toInt();
  if (rank == 0 || (dim != -1 && dim != rank - 1)) return unsupported(node, "XNNPACK's softmax is over the last dimension only");
  const IValue& extra = node.args[2].constant;
  if (!(extra.isNone() || (extra.isBool() && !extra.toBool()) ||
        (extra.isScalarType() && extra.toScalarType() == ScalarType::Float))) {
    return unsupported(node, "a dtype conversion");
  }
  plan.operands = {node.args[0].value};
  return absl::OkStatus();
}

absl::Status planReshape(const ExportedProgram& p, const Node& node, NodePlan& plan) {
  plan.operands = {node.args[0].value};
  if (node.op->operator_name().toString() != "aten::permute") return absl::OkStatus();
  const std::vector<int64_t>& in = sizesOf(p, node.args[0].value);
  const int64_t rank = static_cast<int64_t>(in.size());
  if (!node.args[1].constant.isIntList()) return unsupported(node, "dims is not an int list");
  std::vector<int64_t> dims, moved;  // dims wrapped; moved: those of size other than 1
  for (int64_t d : node.args[1].constant.toIntList()) {
    const int64_t w = d < 0 ? d + rank : d;
    if (w < 0 || w >= rank) return unsupported(node, "a bad permutation");
    dims.push_back(w);
    if (in[w] != 1) moved.push_back(w);
  }
  std::vector<int64_t> sorted = dims, identity(in.size());
  std::sort(sorted.begin(), sorted.end());
  std::iota(identity.begin(), identity.end(), int64_t{0});
  if (sorted != identity) return unsupported(node, "a bad permutation");
  if (std::is_sorted(moved.begin(), moved.end())) return absl::OkStatus();  // the bytes keep their order
  if (dims == std::vector<int64_t>{0, 2, 3, 1}) {
    plan.op = XnnOp::ChannelsLastToNhwc;
  } else if (dims == std::vector<int64_t>{0, 3, 1, 2}) {
    plan.op = XnnOp::NhwcToChannelsLast;
  } else {
    return unsupported(node, absl::StrCat("permute [", absl::StrJoin(dims, ", "),
                                          "] moves data, which needs a transpose, and XNNPACK 2022-02 has none"));
  }
  return absl::OkStatus();
}

}  // namespace

bool sameMemoryInBothLayouts(const std::vector<int64_t>& sizes) {
  return sizes.size() != 4 || sizes[1] == 1 || sizes[2] * sizes[3] == 1;
}

bool isConstantValue(const ExportedProgram& program, ValueId value) {
  if (value == NodeArgument::kNone) return false;
  const Node& producer = program.graph().node(program.graph().producer(value));
  return producer.kind == export_::NodeKind::Placeholder && producer.input_kind != export_::InputKind::User;
}

absl::StatusOr<NodePlan> planNode(const ExportedProgram& program, export_::NodeId id) {
  const Node& node = program.graph().node(id);
  if (node.kind != export_::NodeKind::CallFunction) {
    return absl::InvalidArgumentError(absl::StrCat("%", node.name, " is not an operator call"));
  }
  const std::string name = node.op->operator_name().toString();
  const auto found = operatorTable().find(name);
  if (found == operatorTable().end()) {
    return absl::UnimplementedError(absl::StrCat(name, ": not an operator the XNNPACK delegate takes"));
  }
  if (node.outputs.size() != 1) return unsupported(node, "more than one result");
  if (absl::Status s = checkFloat(program, node); !s.ok()) return s;
  NodePlan plan;
  plan.op = found->second;
  absl::Status status;
  switch (plan.op) {
    case XnnOp::Convolution: status = planConvolution(program, node, plan); break;
    case XnnOp::Linear:
    case XnnOp::Addmm: status = planFullyConnected(program, node, plan); break;
    case XnnOp::Add:
    case XnnOp::Sub:
    case XnnOp::Mul:
    case XnnOp::Div: status = planBinary(node, plan); break;
    case XnnOp::Clamp: status = planClamp(node, plan); break;
    case XnnOp::Sigmoid: plan.operands = {node.args[0].value}; break;
    case XnnOp::Softmax: status = planSoftmax(program, node, plan); break;
    case XnnOp::MaxPool2d:
    case XnnOp::AvgPool2d: status = planPool(program, node, plan); break;
    case XnnOp::GlobalAvgPool: status = planGlobalAvgPool(program, node, plan); break;
    case XnnOp::Reshape:
    case XnnOp::ChannelsLastToNhwc:
    case XnnOp::NhwcToChannelsLast: status = planReshape(program, node, plan); break;
  }
  if (!status.ok()) return status;
  return plan;
}

}  // namespace sy::xnnpack
