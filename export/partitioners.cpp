#include "switchyard/export/partitioners.h"

#include <map>

#include "switchyard/export/node_dependencies.h"
#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

bool isPartitionable(const Node& n) { return n.kind == NodeKind::CallFunction && !isDelegateCall(n); }

}  // namespace

WholeProgramPartitioner::WholeProgramPartitioner(DelegationSpec spec) : spec_(std::move(spec)) {}

PartitionResult WholeProgramPartitioner::partition(const ExportedProgram& program) const {
  PartitionResult result = PartitionResult::copyOf(program);
  const Graph& g = program.graph();
  for (NodeId id = 0; id < static_cast<NodeId>(g.nodes().size()); ++id) {
    if (!isPartitionable(g.node(id))) continue;
    result.tagged_exported_program.setDelegationTag(id, "tag0");
    result.partition_tags.emplace("tag0", spec_);
  }
  return result;
}

OperatorSupportPartitioner::OperatorSupportPartitioner(DelegationSpec spec, IsSupported is_supported, std::string tag_prefix)
    : spec_(std::move(spec)), is_supported_(std::move(is_supported)), tag_prefix_(std::move(tag_prefix)) {
  SY_CHECK(is_supported_ != nullptr, "OperatorSupportPartitioner: no IsSupported function given");
}

OperatorSupportPartitioner::IsSupported OperatorSupportPartitioner::byOperatorNames(std::set<std::string> names) {
  return [names = std::move(names)](const ExportedProgram& program, NodeId node) {
    const OperatorName& op = program.graph().node(node).op->operator_name();
    return names.count(op.toString()) != 0 || names.count(op.name) != 0;
  };
}

PartitionResult OperatorSupportPartitioner::partition(const ExportedProgram& program) const {
  const Graph& g = program.graph();
  const size_t n = g.nodes().size();
  constexpr int kNoGroup = -1;
  std::vector<int> group(n, kNoGroup);  // See Note [Supported nodes are grouped by merging along edges]
  for (NodeId id = 0; id < static_cast<NodeId>(n); ++id) {
    if (isPartitionable(g.node(id)) && is_supported_(program, id)) group[static_cast<size_t>(id)] = id;
  }
  const NodeDependencies deps(g);
  std::vector<bool> mask(n);
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t a = 0; a < n; ++a) {
      if (group[a] == kNoGroup) continue;
      for (NodeId user : deps.users(static_cast<NodeId>(a))) {
        const int ga = group[a], gb = group[static_cast<size_t>(user)];
        if (gb == kNoGroup || gb == ga) continue;
        for (size_t i = 0; i < n; ++i) mask[i] = group[i] == ga || group[i] == gb;
        if (!deps.pathLeavingAndReentering(mask).empty()) continue;
        for (int& x : group) {
          if (x == gb) x = ga;
        }
        merged = true;
      }
    }
  }
  PartitionResult result = PartitionResult::copyOf(program);
  std::map<int, std::string> tag_of;
  for (size_t i = 0; i < n; ++i) {
    if (group[i] == kNoGroup) continue;
    auto [it, fresh] = tag_of.emplace(group[i], "");
    if (fresh) {
      it->second = sy::str(tag_prefix_, tag_of.size() - 1);
      result.partition_tags.emplace(it->second, spec_);
    }
    result.tagged_exported_program.setDelegationTag(static_cast<NodeId>(i), it->second);
  }
  return result;
}

NodeGroupsPartitioner::NodeGroupsPartitioner(DelegationSpec spec, std::vector<std::vector<std::string>> groups,
                                             std::string tag_prefix)
    : tag_prefix_(std::move(tag_prefix)) {
  for (std::vector<std::string>& nodes : groups) groups_.push_back(Group{std::move(nodes), spec});
}

NodeGroupsPartitioner::NodeGroupsPartitioner(std::vector<Group> groups, std::string tag_prefix)
    : groups_(std::move(groups)), tag_prefix_(std::move(tag_prefix)) {}

PartitionResult NodeGroupsPartitioner::partition(const ExportedProgram& program) const {
  PartitionResult result = PartitionResult::copyOf(program);
  const Graph& g = program.graph();
  std::map<NodeId, std::string> taken;  // node -> the tag it already has
  for (size_t i = 0; i < groups_.size(); ++i) {
    const std::string tag = sy::str(tag_prefix_, i);
    SY_CHECK(!groups_[i].nodes.empty(), "NodeGroupsPartitioner: group ", i, " names no nodes");
    for (const std::string& name : groups_[i].nodes) {
      std::optional<NodeId> id = g.findNode(name);
      SY_CHECK(id.has_value(), "NodeGroupsPartitioner: group ", i, " names node '", name, "', which the graph does not have");
      SY_CHECK(!isDelegateCall(g.node(*id)), "NodeGroupsPartitioner: node '", name,
               "' is a delegate call already; a lowered module cannot be lowered again");
      auto [it, fresh] = taken.emplace(*id, tag);
      SY_CHECK(fresh, "NodeGroupsPartitioner: node '", name, "' is in two groups (", it->second, " and ", tag, ")");
      result.tagged_exported_program.setDelegationTag(*id, tag);
    }
    result.partition_tags.emplace(tag, groups_[i].spec);
  }
  return result;
}

}  // namespace sy::export_
