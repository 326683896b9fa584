// Internal to the XNNPACK delegate's preprocess: builds the XnnGraph (runtime/xnnpack_graph.h) of
// one subprogram, value by value and node by node, in the layouts XNNPACK wants. Not installed.
//
//   GraphBuilder b(subprogram);
//   absl::Status s = b.build();                   // every node, then the outputs
//   const sy::xnnpack::XnnGraph& g = b.graph();   // what preprocess writes (aot/xnnpack_blob_writer.h)
//
// See Note [Channels-last values inside an XNNPACK subgraph] (xnnpack_layout.h): a value is read
// in the layout each node wants; a delegate input read channels-last is transposed by a
// StaticTranspose node (which runs on the host), a constant is stored transposed, a value whose
// bytes read the same in both layouts is re-read through a StaticReshape, and a channels-last
// result leaves the delegate through a StaticTranspose back to NCHW.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout_plan.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/export/backend_details.h"

namespace sy::xnnpack {

class GraphBuilder {
 public:
  explicit GraphBuilder(const export_::ExportedProgram& p);

  absl::Status build();
  const XnnGraph& graph() const { return g_; }
  // The XNNPACK node index -> the debug handle of the graph node it came from.
  const std::map<int64_t, std::vector<int64_t>>& debugHandleMap() const { return debug_handles_; }

 private:
  // The nodes of one operator (xnnpack_preprocess.cpp).
  absl::Status emit(const export_::Node& node, const NodePlan& plan);
  absl::Status emitConvolution(const export_::Node& node, const NodePlan& plan);

  const std::vector<int64_t>& sizesOf(export_::ValueId v) const { return p_.graph().value(v).meta.sizes; }
  absl::Status refuse(const export_::Node& node, std::string_view why) const;
  Layout preferred(export_::ValueId v) const { return layouts_->layoutOf(v); }

  uint32_t addValue(const std::vector<int64_t>& dims);
  uint32_t addConstant(const std::vector<int64_t>& dims, std::vector<float> data);
  XnnNode& addNode(NodeKind kind, std::vector<uint32_t> inputs, uint32_t output);
  // A node's result, defined in `layout`.
  uint32_t addResult(export_::ValueId v, Layout layout);
  // A parameter's or constant's values, in NCHW order.
  std::vector<float> constantData(export_::ValueId v) const;
  // The XNNPACK value holding `v` as `want` asks (lower-rank shapes padded to 4-D when `pad`).
  absl::StatusOr<uint32_t> valueAs(export_::ValueId v, Layout want, bool pad = false);
  absl::Status emitOutputs();

  const export_::ExportedProgram& p_;
  XnnGraph g_;
  std::deque<std::vector<uint8_t>> data_;  // constant bytes the graph's values point at
  std::vector<PlannedNode> plans_;
  std::unique_ptr<LayoutPlan> layouts_;
  std::map<export_::ValueId, uint32_t> user_inputs_;  // the delegate's inputs: their external values
  std::map<std::tuple<export_::ValueId, Layout, bool>, uint32_t> ids_;
  std::map<export_::ValueId, std::pair<uint32_t, Layout>> produced_;
  std::vector<bool> written_;  // by value: a node writes it
  const export_::Node* current_ = nullptr;
  std::map<int64_t, std::vector<int64_t>> debug_handles_;
};

}  // namespace sy::xnnpack
