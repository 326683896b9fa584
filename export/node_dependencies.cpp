#include "switchyard/export/node_dependencies.h"

#include <algorithm>

#include "switchyard/core/error.h"

namespace sy::export_ {

NodeDependencies::NodeDependencies(const Graph& graph)
    : users_(graph.nodes().size()), producers_(graph.nodes().size()) {
  for (NodeId id = 0; id < static_cast<NodeId>(graph.nodes().size()); ++id) {
    std::vector<NodeId>& from = producers_[static_cast<size_t>(id)];
    for (const NodeArgument& a : graph.node(id).args) {
      for (ValueId v : a.readValues()) from.push_back(graph.producer(v));
    }
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    for (NodeId p : from) users_[static_cast<size_t>(p)].push_back(id);
  }
}

std::vector<NodeId> NodeDependencies::pathLeavingAndReentering(const std::vector<bool>& in_group) const {
  SY_CHECK(in_group.size() == users_.size(), "NodeDependencies: a group mask of ", in_group.size(),
           " entries for a graph of ", users_.size(), " nodes");
  // Graph order is a topological order (a node reads only values defined before it), so one sweep
  // finds, for every node outside the group, a node of the group it depends on through outside
  // nodes only (its "via": the producer the dependency came through).
  constexpr NodeId kUnreached = -1;
  std::vector<NodeId> via(users_.size(), kUnreached);
  for (size_t n = 0; n < users_.size(); ++n) {
    for (NodeId p : producers_[n]) {
      const size_t pi = static_cast<size_t>(p);
      if (in_group[n]) {
        if (!in_group[pi] && via[pi] != kUnreached) {
          // Back in the group: walk the chain of outside nodes back to where it left.
          std::vector<NodeId> path{static_cast<NodeId>(n)};
          NodeId at = p;
          while (!in_group[static_cast<size_t>(at)]) {
            path.push_back(at);
            at = via[static_cast<size_t>(at)];
          }
          path.push_back(at);
          std::reverse(path.begin(), path.end());
          return path;
        }
      } else if (in_group[pi] || via[pi] != kUnreached) {
        via[n] = p;
        break;
      }
    }
  }
  return {};
}

}  // namespace sy::export_
