#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_node_kind.h"

namespace sy::xnnpack {

std::string_view nodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::Add: return "XNNAdd";
    case NodeKind::FullyConnected: return "XNNFullyConnected";
    case NodeKind::Softmax: return "XNNSoftmax";
    case NodeKind::Sigmoid: return "XNNSigmoid";
    case NodeKind::StaticTranspose: return "XNNStaticTranspose";
    case NodeKind::Clamp: return "XNNClamp";
    case NodeKind::Conv2d: return "XNNConv2d";
    case NodeKind::Div: return "XNNDiv";
    case NodeKind::StaticResizeBilinear2D: return "XNNStaticResizeBilinear2D";
    case NodeKind::StaticConstantPad: return "XNNStaticConstantPad";
    case NodeKind::AvgPooling2d: return "XNNAvgPooling2d";
    case NodeKind::Minimum: return "XNNMinimum";
    case NodeKind::DepthwiseConv2d: return "XNNDepthwiseConv2d";
    case NodeKind::MaxPooling2d: return "XNNMaxPooling2d";
    case NodeKind::Multiply: return "XNNMultiply";
    case NodeKind::Subtract: return "XNNSubtract";
    case NodeKind::Floor: return "XNNFloor";
    case NodeKind::Convert: return "XNNConvert";
    case NodeKind::GlobalAvgPooling2d: return "XNNGlobalAvgPooling2d";
    case NodeKind::StaticReshape: return "XNNStaticReshape";
    case NodeKind::ArgMaxPooling2d: return "XNNArgMaxPooling2d";
    case NodeKind::SquareRoot: return "XNNSquareRoot";
    case NodeKind::Ceiling: return "XNNCeiling";
    case NodeKind::Hardswish: return "XNNHardswish";
    case NodeKind::LeakyReLU: return "XNNLeakyReLU";
    case NodeKind::Maximum: return "XNNMaximum";
    case NodeKind::Negate: return "XNNNegate";
    case NodeKind::Square: return "XNNSquare";
    case NodeKind::ELU: return "XNNELU";
    case NodeKind::Abs: return "XNNAbs";
    case NodeKind::PReLU: return "XNNPReLU";
    case NodeKind::Concatenate2: return "XNNConcatenate2";
    case NodeKind::Concatenate3: return "XNNConcatenate3";
    case NodeKind::Concatenate4: return "XNNConcatenate4";
    case NodeKind::StaticSlice: return "XNNStaticSlice";
    case NodeKind::ScaledDotProductAttention: return "XNNScaledDotProductAttention";
    case NodeKind::BatchMatrixMultiply: return "XNNBatchMatrixMultiply";
    case NodeKind::Concatenate5: return "XNNConcatenate5";
    case NodeKind::ConvTranspose2d: return "XNNConvTranspose2d";
    case NodeKind::ReciprocalSquareRoot: return "XNNReciprocalSquareRoot";
    case NodeKind::Log: return "XNNLog";
    case NodeKind::Gelu: return "XNNGelu";
    case NodeKind::Tanh: return "XNNTanh";
    case NodeKind::Exp: return "XNNExp";
    case NodeKind::Sin: return "XNNSin";
    case NodeKind::Copy: return "XNNCopy";
    case NodeKind::Cos: return "XNNCos";
  }
  return "XNN?";
}

NodeOperands nodeOperands(NodeKind kind) {
  switch (kind) {
    case NodeKind::FullyConnected:
    case NodeKind::Conv2d:
    case NodeKind::DepthwiseConv2d:
    case NodeKind::ConvTranspose2d: return {3, 1, true};
    case NodeKind::ArgMaxPooling2d: return {1, 2, false};
    case NodeKind::ScaledDotProductAttention: return {5, 1, false};
    case NodeKind::Concatenate2: return {2, 1, false};
    case NodeKind::Concatenate3: return {3, 1, false};
    case NodeKind::Concatenate4: return {4, 1, false};
    case NodeKind::Concatenate5: return {5, 1, false};
    default: break;
  }
  if (isBinaryElementwise(kind) || kind == NodeKind::PReLU || kind == NodeKind::BatchMatrixMultiply) return {2, 1, false};
  return {1, 1, false};
}

bool isUnaryElementwise(NodeKind kind) {
  switch (kind) {
    case NodeKind::Sigmoid:
    case NodeKind::Clamp:
    case NodeKind::Floor:
    case NodeKind::Convert:
    case NodeKind::SquareRoot:
    case NodeKind::Ceiling:
    case NodeKind::Hardswish:
    case NodeKind::LeakyReLU:
    case NodeKind::Negate:
    case NodeKind::Square:
    case NodeKind::ELU:
    case NodeKind::Abs:
    case NodeKind::ReciprocalSquareRoot:
    case NodeKind::Log:
    case NodeKind::Gelu:
    case NodeKind::Tanh:
    case NodeKind::Exp:
    case NodeKind::Sin:
    case NodeKind::Copy:
    case NodeKind::Cos: return true;
    default: return false;
  }
}

bool isBinaryElementwise(NodeKind kind) {
  switch (kind) {
    case NodeKind::Add:
    case NodeKind::Subtract:
    case NodeKind::Multiply:
    case NodeKind::Div:
    case NodeKind::Minimum:
    case NodeKind::Maximum: return true;
    default: return false;
  }
}

bool clampsOutput(NodeKind kind) {
  switch (kind) {
    case NodeKind::Add:
    case NodeKind::Subtract:
    case NodeKind::Multiply:
    case NodeKind::Div:
    case NodeKind::FullyConnected:
    case NodeKind::Conv2d:
    case NodeKind::DepthwiseConv2d:
    case NodeKind::ConvTranspose2d:
    case NodeKind::AvgPooling2d:
    case NodeKind::MaxPooling2d:
    case NodeKind::GlobalAvgPooling2d:
    case NodeKind::Clamp: return true;
    default: return false;
  }
}

size_t concatenatedInputs(NodeKind kind) {
  switch (kind) {
    case NodeKind::Concatenate2: return 2;
    case NodeKind::Concatenate3: return 3;
    case NodeKind::Concatenate4: return 4;
    case NodeKind::Concatenate5: return 5;
    default: return 0;
  }
}

}  // namespace sy::xnnpack
