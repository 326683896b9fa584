#include "switchyard/export/partitioner.h"

namespace sy::export_ {

PartitionResult PartitionResult::copyOf(const ExportedProgram& program) {
  PartitionResult result{program, {}};
  const Graph& graph = result.tagged_exported_program.graph();
  for (NodeId id = 0; id < static_cast<NodeId>(graph.nodes().size()); ++id) {
    if (graph.node(id).kind == NodeKind::CallFunction) result.tagged_exported_program.setDelegationTag(id, "");
  }
  return result;
}

}  // namespace sy::export_
