// NodeDependencies: which nodes of a graph read which others' values, and whether a group of nodes
// can become one delegate call without a path that leaves it and comes back.
//
//   sy::export_::NodeDependencies deps(ep.graph());
//   std::vector<bool> group(ep.graph().nodes().size(), false);
//   group[a] = group[c] = true;
//   if (std::vector<sy::export_::NodeId> path = deps.pathLeavingAndReentering(group); !path.empty()) {
//     // path = {a, b, c}: a's result reaches c through b, which is outside the group
//   }
//
// Note [A partition must not leave and re-enter itself]
// A partition becomes one delegate call, which reads all its inputs before it writes any output.
// If a path of data dependencies goes from a node of the partition to a node outside it and back
// to a node of the partition, that outside node would have to run both after the call (it reads
// a partition result) and before it (the partition reads its result): no order of instructions
// can run it, so such a group is refused, naming the path. Partitioners that build groups (the
// supported-operators partitioner) only merge groups while no such path appears.
#pragma once

#include <vector>

#include "switchyard/export/graph.h"

namespace sy::export_ {

class NodeDependencies {
 public:
  explicit NodeDependencies(const Graph& graph);

  // The nodes that read a value `node` defines (call_function and output nodes, in graph order,
  // each once).
  const std::vector<NodeId>& users(NodeId node) const { return users_[static_cast<size_t>(node)]; }
  // The nodes whose values `node` reads (in graph order, each once).
  const std::vector<NodeId>& producers(NodeId node) const { return producers_[static_cast<size_t>(node)]; }

  // A shortest-found path {first, outside..., last} from a node of the group through nodes outside
  // it back to a node of it (See Note [A partition must not leave and re-enter itself]); empty
  // when the group is self-contained. `in_group` has one entry per node of the graph.
  std::vector<NodeId> pathLeavingAndReentering(const std::vector<bool>& in_group) const;

 private:
  std::vector<std::vector<NodeId>> users_;
  std::vector<std::vector<NodeId>> producers_;
};

}  // namespace sy::export_
