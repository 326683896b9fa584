// The XNNPACK delegate's ahead-of-time half: serialises a subprogram of supported operators into
// the blob the run-time half (xnnpack_backend.h) builds an XNNPACK runtime from.
//
//   const sy::export_::BackendDetails* details = sy::export_::findBackendDetails("XnnpackBackend");
//   absl::StatusOr<sy::export_::PreprocessResult> r = details->preprocess(subprogram, {});
//
// The blob (schema/xnnpack_graph.fbs) holds the XNNPACK values with their dims (channels-last
// activations, OHWI filters; See Note [Channels-last values inside an XNNPACK subgraph]), the
// weights already in XNNPACK's layout, which values are the delegate's inputs and outputs and how
// each crosses the edge, and the node list; each node's own number maps to the debug handles of
// the graph nodes it came from (PreprocessResult::debug_handle_map).
#pragma once

#include <cstdint>

#include "switchyard/export/backend_details.h"

namespace sy::xnnpack {

// The id both halves register under.
inline constexpr const char* kXnnpackBackendId = "XnnpackBackend";
// The blob's format version; init refuses any other.
inline constexpr uint32_t kXnnpackBlobVersion = 1;
// The value id a blob's node gives an absent optional input (a fully connected or convolution
// node's bias); see schema/xnnpack_graph.fbs.
inline constexpr uint32_t kNoValue = 0xFFFFFFFFu;

class XnnpackBackendDetails final : public export_::BackendDetails {
 public:
  // An error naming the node (and why) for anything planNode refuses (xnnpack_node_plan.h), and
  // for a node whose layout needs conflict in the subprogram (LayoutPlan, xnnpack_layout_plan.h).
  absl::StatusOr<export_::PreprocessResult> preprocess(const export_::ExportedProgram& subprogram,
                                                       absl::Span<const export_::CompileSpec> compile_specs) const override;
};

}  // namespace sy::xnnpack
