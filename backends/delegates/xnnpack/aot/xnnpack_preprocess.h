// The XNNPACK delegate's ahead-of-time half (registered under kXnnpackBackendId when libswitchyard
// loads): writes a subprogram of supported operators as ExecuTorch's XNNPACK blob, so that a
// program lowered by Switchyard runs in ExecuTorch's runtime as well as in ours (runtime/).
//
//   const sy::export_::BackendDetails* details = sy::export_::findBackendDetails("XnnpackBackend");
//   absl::StatusOr<sy::export_::PreprocessResult> r = details->preprocess(subprogram, {});
//   r->processed_bytes;   // XH00 header, XN01 FlatBuffers graph (schema/xnnpack_graph.fbs)
//   r->named_data;        // the weights, each under the SHA-256 of its bytes
//
// The graph (built by GraphBuilder, xnnpack_graph_builder.h, written by xnnpack_blob_writer.h)
// holds the XNNPACK values with their dims (channels-last activations, OHWI filters; See Note
// [Channels-last values inside an XNNPACK subgraph]), the delegate's inputs and outputs as
// external values numbered inputs first, then outputs, as the delegate call passes them, and the
// nodes, each with the debug handle of the graph node it came from (also in
// PreprocessResult::debug_handle_map, keyed by the node's index). Weights and constants go to
// the program's named data, as ExecuTorch's exporter puts them. A node whose results nobody
// reads, directly or through other nodes, is left out.
#pragma once

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_backend.h"
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
