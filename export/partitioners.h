// Ready-made partitioners: everything for one backend, groups of supported operators, or groups of
// nodes named by the caller. A backend's own partitioner is usually an OperatorSupportPartitioner
// with its own IsSupported.
//
//   sy::export_::DelegationSpec demo{"BackendWithCompilerDemo", {}};
//   sy::export_::WholeProgramPartitioner whole(demo);             // every call node, one tag
//   sy::export_::OperatorSupportPartitioner by_ops(
//       demo, sy::export_::OperatorSupportPartitioner::byOperatorNames({"aten::add.Tensor", "aten::sin"}));
//   sy::export_::NodeGroupsPartitioner groups(demo, {{"add", "mul"}, {"sin"}});   // tags group0, group1
//   sy::export_::ExportedProgram lowered = sy::export_::to_backend(ep, by_ops);
//
// None of them tags a delegate call already in the program (a lowered module is not lowered again)
// or anything but call_function nodes.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "switchyard/export/partitioner.h"

namespace sy::export_ {

// Every call_function node (but earlier delegate calls) under one tag, "tag0", for `spec`.
class WholeProgramPartitioner final : public Partitioner {
 public:
  explicit WholeProgramPartitioner(DelegationSpec spec);
  PartitionResult partition(const ExportedProgram& program) const override;

 private:
  DelegationSpec spec_;
};

// Groups of supported call nodes, each connected and as large as it can be without a path that
// leaves the group and re-enters it (See Note [A partition must not leave and re-enter itself]),
// tagged "<prefix>0", "<prefix>1", ... in the order of each group's first node.
//
// Note [Supported nodes are grouped by merging along edges]
// Each supported node starts as a group of its own. Two groups joined by an edge (one reads the
// other's value) merge unless the merged group would have a path leaving and re-entering it;
// passes over the graph repeat until no merge happens, since a merge can make a refused one
// possible (the outside node on the path may itself have joined). Groups are therefore connected
// and maximal: no two adjacent groups could be merged.
class OperatorSupportPartitioner final : public Partitioner {
 public:
  using IsSupported = std::function<bool(const ExportedProgram& program, NodeId node)>;
  OperatorSupportPartitioner(DelegationSpec spec, IsSupported is_supported, std::string tag_prefix = "tag");
  // A node is supported when its operator's name with the overload ("aten::add.Tensor") or
  // without it ("aten::add") is in `names`; an operator without an overload name matches itself
  // only ("aten::sin").
  static IsSupported byOperatorNames(std::set<std::string> names);

  PartitionResult partition(const ExportedProgram& program) const override;

 private:
  DelegationSpec spec_;
  IsSupported is_supported_;
  std::string tag_prefix_;
};

// Groups of nodes named by the caller, each its own tag ("<prefix>0", ...) and backend. Raises
// sy::Error for a name the graph does not have, a node in two groups, an empty group, or a node
// that is not a call (all named in the message). Whether each group can be lowered (no path
// leaving and re-entering it) is to_backend's check.
class NodeGroupsPartitioner final : public Partitioner {
 public:
  struct Group {
    std::vector<std::string> nodes;
    DelegationSpec spec;
  };
  // Every group for the same backend.
  NodeGroupsPartitioner(DelegationSpec spec, std::vector<std::vector<std::string>> groups, std::string tag_prefix = "group");
  // Each group for its own backend.
  explicit NodeGroupsPartitioner(std::vector<Group> groups, std::string tag_prefix = "group");

  PartitionResult partition(const ExportedProgram& program) const override;

 private:
  std::vector<Group> groups_;
  std::string tag_prefix_;
};

}  // namespace sy::export_
