// What one graph node becomes in XNNPACK: the operator it is, its attributes read and checked, or
// the reason XNNPACK cannot take it. The one reading of a node's arguments, shared by the
// partitioner's support check (xnnpack_partitioner.h) and by preprocess (xnnpack_preprocess.h), so
// a node the partitioner tags is a node preprocess can serialise.
//
//   absl::StatusOr<sy::xnnpack::NodePlan> plan = sy::xnnpack::planNode(program, node);
//   if (!plan.ok()) std::cout << plan.status().message();   // "max_pool2d with ceil_mode=True: ..."
//
// XNNPACK here is Debian's 2022-02 snapshot: its subgraph API has convolution (grouped and
// depthwise), fully connected, the binary arithmetic operators, clamp, sigmoid, softmax over the
// innermost dimension, max/average/global-average pooling and static reshape, but no transpose, so
// the only permutes planNode takes are those that move no bytes: ones that move dimensions of size
// 1, and the two that turn a channels-last value into its NHWC tensor and back. planNode does not
// look at layouts: whether a node's layout needs fit its group is LayoutPlan's question
// (xnnpack_layout_plan.h; See Note [Channels-last values inside an XNNPACK subgraph]).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/export/exported_program.h"

namespace sy::xnnpack {

enum class XnnOp : uint8_t {
  Convolution,   // aten::convolution (what conv2d is captured as), not transposed
  Linear,        // aten::linear with a constant weight (and bias)
  Addmm,         // aten::addmm(bias, x, weight^T) with constants, beta = alpha = 1
  Add,           // add.Tensor / add.Scalar, alpha = 1
  Sub,           // sub.Tensor / sub.Scalar, alpha = 1
  Mul,           // mul.Tensor / mul.Scalar
  Div,           // div.Tensor / div.Scalar (no rounding mode)
  Clamp,         // relu, hardtanh, clamp with scalar bounds
  Sigmoid,
  Softmax,       // softmax.int / _softmax over the last dimension
  MaxPool2d,
  AvgPool2d,
  GlobalAvgPool, // mean.dim over both spatial dimensions of a 4-D tensor, _adaptive_avg_pool2d to 1x1
  Reshape,       // view, reshape, squeeze, unsqueeze, and permutes that keep the memory order
  // The two permutes that only relabel bytes (See Note [Channels-last values inside an XNNPACK
  // subgraph]): permute(x, [0, 2, 3, 1]) of a 4-D x read channels-last is a logical NHWC tensor
  // with the same bytes, and permute(y, [0, 3, 1, 2]) of a logical y is channels-last.
  ChannelsLastToNhwc,
  NhwcToChannelsLast,
};

struct NodePlan {
  XnnOp op = XnnOp::Clamp;
  // The node's tensor operands XNNPACK reads, in XNNPACK's order: the activation first, then
  // (for convolution and fully connected) the weight and the bias (kNone when absent).
  std::vector<export_::ValueId> operands;
  // A Scalar operand of a binary operator (add.Scalar, ...), as a one-element constant.
  bool has_scalar_operand = false;
  float scalar_operand = 0.0f;
  // Convolution and pooling, as [height, width].
  std::array<uint32_t, 2> kernel{1, 1}, stride{1, 1}, padding{0, 0}, dilation{1, 1};
  uint32_t groups = 1;
  // Clamp bounds (relu: [0, inf); hardtanh: [min_val, max_val]).
  float output_min = -std::numeric_limits<float>::infinity();
  float output_max = std::numeric_limits<float>::infinity();
  // addmm: the weight is [in, out] and is transposed when serialised.
  bool weight_transposed = false;
};

// The plan for a call_function node, or an error saying why XNNPACK cannot take it (the
// operator, a dtype other than Float, an attribute XNNPACK lacks, a weight that is not a
// constant of the program, a permute that moves data).
absl::StatusOr<NodePlan> planNode(const export_::ExportedProgram& program, export_::NodeId node);

// True when `sizes`, read as NCHW, has the same memory order as its NHWC form: a 4-D shape with
// one channel or a 1x1 image (and any shape of another rank).
bool sameMemoryInBothLayouts(const std::vector<int64_t>& sizes);

// The placeholder kinds preprocess can bake into the blob: parameters and constants.
bool isConstantValue(const export_::ExportedProgram& program, export_::ValueId value);

}  // namespace sy::xnnpack
