// Internal to the XNNPACK blob reader (xnnpack_graph_reader.cpp, xnnpack_node_reader.cpp): the
// pieces its two files share. Not installed: it includes flatc's output.
#pragma once

#include <algorithm>
#include <functional>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/backends/delegates/xnnpack/schema/xnnpack_graph_generated.h"

namespace sy::xnnpack::reader {

absl::Status malformed(std::string what);

// The blob's value ids (id_out) to positions in xvalues: sorted once, then binary searched, so a
// blob of n values costs O(n log n) whatever ids it uses.
class IdResolver {
 public:
  void add(uint32_t id, uint32_t index) { ids_.emplace_back(id, index); }
  // Sorts; an error naming the id when two values share it.
  absl::Status finish();
  // The value index of blob id `id`, or kNoValue.
  uint32_t find(uint32_t id) const;

 private:
  std::vector<std::pair<uint32_t, uint32_t>> ids_;
};

// Decodes node `index` of the blob into `out`: its kind, flags, clamp bounds, operands (resolved
// to value indices) and parameters, each checked for range. Shapes are checked afterwards.
absl::Status decodeNode(const fb::XNode& node, size_t index, const IdResolver& ids, XnnNode& out);

// The bytes of constant_data[index] (or constant_buffer[index]), checked and aligned.
using ConstantLookup = std::function<absl::StatusOr<absl::Span<const uint8_t>>(uint32_t index)>;

// Value `index`'s quantization parameters into `v` (its datatype and dims already read): the kind
// its datatype takes, positive finite scales, zero points in range, one scale per channel or
// group. `scales_read` counts the scales of every value, bounded to 2^28.
absl::Status readQuantization(const fb::XNNQuantizedTensorValue& q, uint32_t index, XnnValue& v, const ConstantLookup& constant,
                              uint64_t& scales_read);

// "node 3 (XNNConv2d)": how errors name a node.
std::string nodeName(size_t index, NodeKind kind);

}  // namespace sy::xnnpack::reader
