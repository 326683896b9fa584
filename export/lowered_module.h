// LoweredModule: one partition of a program after to_backend, as its delegate call runs it: the
// backend's id, the bytes its preprocess made, the compile specs, the debug-handle map, and the
// partition itself as preprocess saw it (for printing, and for naming the operators behind a
// delegate's debug handle).
//
//   sy::export_::ExportedProgram lowered = sy::export_::to_backend(ep, partitioner);
//   for (const auto& m : lowered.lowered_modules()) {
//     std::cout << m->backend_id << ": " << m->processed_bytes.size() << " bytes\n" << m->original_program->graph();
//   }
//
// A program's delegate call nodes name their module by index (their `delegate_index` argument,
// See Note [A delegate call defines its outputs] in export/graph.h); modules are shared, never
// changed, between programs that to_backend made from one another.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/export/backend_details.h"

namespace sy::export_ {

struct LoweredModule {
  std::string backend_id;
  std::vector<uint8_t> processed_bytes;
  std::vector<CompileSpec> compile_specs;
  // The delegate's own identifier -> debug handles of nodes of `original_program` (which keep the
  // debug handles and source stacks the nodes had before lowering). See Note [Delegate debug
  // handles map back to graph nodes] in export/backend_details.h.
  std::map<int64_t, std::vector<int64_t>> debug_handle_map;
  // What preprocess put aside for the program's named data (PreprocessResult::named_data).
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_data;
  std::shared_ptr<const ExportedProgram> original_program;

  // For each of the delegate's debug handles: "aten::add.Tensor (node 'add') at model.cpp:12 (in
  // forward)", several joined by "; " when the delegate fused nodes.
  std::map<int64_t, std::string> debugHandleSources() const;
};

// One original node behind a delegate's debug handle, as the messages above and the emitted
// stack traces (export/emit.cpp) describe it: "aten::add.Tensor (node 'add')".
std::string describeLoweredNode(const Node& node);

}  // namespace sy::export_
