// The layout of every 4-D value of one XNNPACK group (channels-last or logical NCHW), and the nodes
// of the group whose layout needs cannot be met without a transpose. One implementation, run by the
// partitioner on each group it tags (to leave such nodes out) and by preprocess on the subprogram
// it serialises (to choose each value's layout, or refuse a group the partitioner would not make).
//
//   std::vector<sy::xnnpack::PlannedNode> group = ...;   // each node's id and planNode result
//   sy::xnnpack::LayoutPlan layouts(program, group);
//   for (const auto& c : layouts.conflicts()) std::cout << c.reason;  // "aten::view: reads %relu ..."
//   sy::xnnpack::Layout l = layouts.layoutOf(value);
//
// See Note [Channels-last values inside an XNNPACK subgraph] (xnnpack_layout.h).
#pragma once

#include <string>
#include <vector>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_node_plan.h"

namespace sy::xnnpack {

struct PlannedNode {
  export_::NodeId id;
  NodePlan plan;
};

class LayoutPlan {
 public:
  // `group`: the nodes of one group of `program`, in graph order. A value no node of the group
  // makes (an input of the group, a constant) is read in whichever layout each node asks for: the
  // delegate transposes it at its edge, or preprocess stores it transposed.
  LayoutPlan(const export_::ExportedProgram& program, const std::vector<PlannedNode>& group);

  // Channels-last for a 4-D value made in the group whose class has a channels-last need;
  // Logical for everything else.
  Layout layoutOf(export_::ValueId value) const;

  struct Conflict {
    export_::NodeId node;
    std::string reason;  // "aten::linear: reads %relu Float[2, 8, 5, 5] in NCHW order but ..."
  };
  // Each node (once, in graph order) that needs a value in NCHW order while the value is
  // channels-last: leaving it out of the group is what makes the rest serialisable.
  const std::vector<Conflict>& conflicts() const { return conflicts_; }

 private:
  struct Need {
    export_::NodeId node;
    export_::ValueId value;  // the value whose class must have the layout
    std::string how;         // for an NCHW need: "reads %x Float[...] in NCHW order"
  };
  export_::ValueId find(export_::ValueId v) const;
  void need(const PlannedNode& n, export_::ValueId v, Layout layout, bool makes);

  const export_::ExportedProgram& program_;
  mutable std::vector<export_::ValueId> parent_;  // union-find over values, path-halving in find()
  std::vector<bool> made_inside_;
  std::vector<Need> channels_last_needs_, logical_needs_;
  std::vector<bool> channels_last_root_;
  std::vector<Conflict> conflicts_;
};

}  // namespace sy::xnnpack
