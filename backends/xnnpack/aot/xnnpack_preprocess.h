// The XNNPACK delegate's ahead-of-time half (registered under kXnnpackBackendId when libswitchyard
// loads): serialises a subprogram of supported operators into
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

#include "switchyard/backends/xnnpack/runtime/xnnpack_backend.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_executable.h"
#include "switchyard/export/backend_details.h"

namespace sy::xnnpack {

class XnnpackBackendDetails final : public export_::BackendDetails {
 public:
  // An error naming the node (and why) for anything planNode refuses (xnnpack_node_plan.h), and
  // for a node whose layout needs conflict in the subprogram (LayoutPlan, xnnpack_layout_plan.h).
  absl::StatusOr<export_::PreprocessResult> preprocess(const export_::ExportedProgram& subprogram,
                                                       absl::Span<const export_::CompileSpec> compile_specs) const override;
};

}  // namespace sy::xnnpack
