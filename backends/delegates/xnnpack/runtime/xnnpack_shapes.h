// The shape rule of every XNNPACK node kind: the dims of a node's outputs from the dims of its
// inputs, or what does not fit. The reader checks each node's declared output dims against it
// (Debian's XNNPACK takes dims as given and trusts them to fit, so a blob whose dims did not fit
// would make it read or write outside its buffers), and execute re-derives every shape from it
// when a dynamic input changes size.
//
//   absl::StatusOr<sy::xnnpack::OutputDims> out = sy::xnnpack::inferOutputDims(node, {&x, &w, &b});
//
// Layouts are XNNPACK's: convolution and pooling read and write NHWC, a convolution filter is
// [output channels, kernel h, kernel w, input channels per group] (depthwise: [1, kh, kw, C * M]).
#pragma once

#include <optional>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

namespace sy::xnnpack {

using OutputDims = absl::InlinedVector<Dims, 2>;

// `inputs` holds the node's input dims in operand order (null for an absent bias). The error
// message says what does not fit, without naming the node (the caller does).
absl::StatusOr<OutputDims> inferOutputDims(const XnnNode& node, absl::Span<const Dims* const> inputs);

// The dims `a` and `b` broadcast to (numpy rules, aligned from the right), or nullopt.
std::optional<Dims> broadcastDims(const Dims& a, const Dims& b);

}  // namespace sy::xnnpack
