// The node kinds of ExecuTorch's XNNPACK blob, numbered as the schema's XNodeUnion numbers them
// (schema/xnnpack_graph.fbs), with each kind's name and operands.
//
//   sy::xnnpack::nodeKindName(sy::xnnpack::NodeKind::Conv2d);   // "XNNConv2d"
//   sy::xnnpack::nodeOperands(sy::xnnpack::NodeKind::Conv2d);   // 3 inputs (the last optional), 1 output
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sy::xnnpack {

enum class NodeKind : uint8_t {
  Add = 1,
  FullyConnected = 2,
  Softmax = 3,
  Sigmoid = 4,
  StaticTranspose = 5,
  Clamp = 6,
  Conv2d = 7,
  Div = 8,
  StaticResizeBilinear2D = 9,
  StaticConstantPad = 10,
  AvgPooling2d = 11,
  Minimum = 12,
  DepthwiseConv2d = 13,
  MaxPooling2d = 14,
  Multiply = 15,
  Subtract = 16,
  Floor = 17,
  Convert = 18,
  GlobalAvgPooling2d = 19,
  StaticReshape = 20,
  ArgMaxPooling2d = 21,
  SquareRoot = 22,
  Ceiling = 23,
  Hardswish = 24,
  LeakyReLU = 25,
  Maximum = 26,
  Negate = 27,
  Square = 28,
  ELU = 29,
  Abs = 30,
  PReLU = 31,
  Concatenate2 = 32,
  Concatenate3 = 33,
  Concatenate4 = 34,
  StaticSlice = 35,
  ScaledDotProductAttention = 36,
  BatchMatrixMultiply = 37,
  Concatenate5 = 38,
  ConvTranspose2d = 39,
  ReciprocalSquareRoot = 40,
  Log = 41,
  Gelu = 42,
  Tanh = 43,
  Exp = 44,
  Sin = 45,
  Copy = 46,
  Cos = 47,
};
inline constexpr uint8_t kMinNodeKind = 1, kMaxNodeKind = 47;

// "XNNAdd", as the schema names the union member.
std::string_view nodeKindName(NodeKind kind);

struct NodeOperands {
  uint8_t inputs = 1;
  uint8_t outputs = 1;
  bool last_input_optional = false;  // a bias, absent as 0xFFFFFFFF
};
NodeOperands nodeOperands(NodeKind kind);

// Element-wise kinds of one input whose result has the input's shape.
bool isUnaryElementwise(NodeKind kind);
// Add, Subtract, Multiply, Div, Minimum, Maximum: two inputs broadcast against each other.
bool isBinaryElementwise(NodeKind kind);
// The kinds whose result XNNPACK clamps to the node's output_min_max.
bool clampsOutput(NodeKind kind);
// Concatenate2 to Concatenate5: how many inputs (0 for another kind).
size_t concatenatedInputs(NodeKind kind);

}  // namespace sy::xnnpack
