#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_support.h"

#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

// Kinds the 2022-02 subgraph API lacks (or, for argmax pooling, cannot be trusted with).
bool missingKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::StaticTranspose:
    case NodeKind::Concatenate2:
    case NodeKind::Concatenate3:
    case NodeKind::Concatenate4:
    case NodeKind::Concatenate5:
    case NodeKind::StaticSlice:
    case NodeKind::BatchMatrixMultiply:
    case NodeKind::ScaledDotProductAttention:
    case NodeKind::Gelu:
    case NodeKind::Tanh:
    case NodeKind::Exp:
    case NodeKind::Log:
    case NodeKind::Sin:
    case NodeKind::Cos:
    case NodeKind::ReciprocalSquareRoot:
    case NodeKind::Copy:
    case NodeKind::ArgMaxPooling2d: return true;
    default: return false;
  }
}

// Kinds the probe saw run on qint8 activations (See Note [What Debian's XNNPACK runs]).
bool runsOnQint8(NodeKind kind) {
  switch (kind) {
    case NodeKind::Convert:
    case NodeKind::Add:
    case NodeKind::Subtract:
    case NodeKind::Multiply:
    case NodeKind::Clamp:
    case NodeKind::StaticReshape:
    case NodeKind::StaticConstantPad:
    case NodeKind::MaxPooling2d:
    case NodeKind::GlobalAvgPooling2d:
    case NodeKind::StaticResizeBilinear2D:
    case NodeKind::Conv2d:
    case NodeKind::DepthwiseConv2d:
    case NodeKind::FullyConnected: return true;
    default: return false;
  }
}

std::string quantizedReason(const XnnGraph& g, const XnnNode& n) {
  if (!runsOnQint8(n.kind)) return "XNNPACK 2022-02 does not run it on qint8";
  const bool weighted = n.kind == NodeKind::Conv2d || n.kind == NodeKind::DepthwiseConv2d || n.kind == NodeKind::FullyConnected;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    if (n.inputs[k] == kNoValue) continue;
    const Datatype d = g.values[n.inputs[k]].datatype;
    if (weighted && k == 1) {
      const bool per_channel_ok = n.kind == NodeKind::Conv2d && d == Datatype::QCInt8 && g.values[n.inputs[k]].quant.channel_dim == 0;
      if (d != Datatype::QInt8 && !per_channel_ok) return sy::str("XNNPACK 2022-02 does not take ", datatypeName(d), " filters here");
    } else if (weighted && k == 2) {
      if (d != Datatype::QInt32 && d != Datatype::QCInt32) return sy::str("a ", datatypeName(d), " bias");
    } else if (d != Datatype::QInt8 && !(n.kind == NodeKind::Convert && d == Datatype::Fp32)) {
      return sy::str("a ", datatypeName(d), " input");
    }
  }
  for (uint32_t o : n.outputs) {
    const Datatype d = g.values[o].datatype;
    if (d != Datatype::QInt8 && !(n.kind == NodeKind::Convert && d == Datatype::Fp32)) return sy::str("a ", datatypeName(d), " result");
  }
  return "";
}

}  // namespace

std::string hostReason(const XnnGraph& g, const XnnNode& n) {
  if (missingKind(n.kind)) return sy::str("XNNPACK 2022-02 has no ", nodeKindName(n.kind));
  bool all_fp32 = true, any_qint8 = false, empty = false;
  auto look = [&](uint32_t v) {
    if (v == kNoValue) return;
    const XnnValue& value = g.values[v];
    all_fp32 &= value.datatype == Datatype::Fp32;
    any_qint8 |= value.datatype == Datatype::QInt8;
    empty |= numelOf(value.dims) == 0;
  };
  for (uint32_t v : n.inputs) look(v);
  for (uint32_t v : n.outputs) look(v);
  if (empty) return "a value with no elements";
  if (n.kind == NodeKind::AvgPooling2d || n.kind == NodeKind::MaxPooling2d) {
    if (n.window.kernel_h * n.window.kernel_w <= 1) return "XNNPACK 2022-02 pools windows of more than one element only";
  }
  if (n.kind == NodeKind::PReLU) {
    const XnnValue& in = g.values[n.inputs[0]];
    if (in.dims.size() != 4 || numelOf(g.values[n.inputs[1]].dims) != in.dims[3]) {
      return "XNNPACK 2022-02's PReLU takes a 4-D input and one slope per channel";
    }
  }
  if (all_fp32) return "";
  if (any_qint8) return quantizedReason(g, n);
  std::string types;
  for (uint32_t v : n.inputs) {
    if (v != kNoValue && g.values[v].datatype != Datatype::Fp32) types = std::string(datatypeName(g.values[v].datatype));
  }
  for (uint32_t v : n.outputs) {
    if (g.values[v].datatype != Datatype::Fp32) types = std::string(datatypeName(g.values[v].datatype));
  }
  return sy::str("XNNPACK 2022-02 does not run ", types, " values here");
}

}  // namespace sy::xnnpack
