#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"

#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout_plan.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_node_plan.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_preprocess.h"
#include "switchyard/export/partitioners.h"

namespace sy::xnnpack {
namespace {

struct Decision {
  export_::PartitionResult result;
  std::vector<XnnpackPartitioner::LeftOut> left;
};

// Tags the groups of nodes planNode takes, runs LayoutPlan on each, leaves out every node in
// conflict and partitions again, until no group has a conflict. Each round but the last leaves out
// at least one more node, so this ends. See Note [Channels-last values inside an XNNPACK subgraph].
Decision decide(const export_::ExportedProgram& program, const export_::DelegationSpec& spec) {
  const std::vector<export_::Node>& nodes = program.graph().nodes();
  std::vector<absl::StatusOr<NodePlan>> plans;
  for (size_t i = 0; i < nodes.size(); ++i) {
    plans.push_back(nodes[i].kind == export_::NodeKind::CallFunction
                        ? planNode(program, static_cast<export_::NodeId>(i))
                        : absl::StatusOr<NodePlan>(absl::InvalidArgumentError("not a call")));
  }
  std::map<export_::NodeId, std::string> layout_refused;
  const export_::OperatorSupportPartitioner by_support(
      spec,
      [&](const export_::ExportedProgram&, export_::NodeId node) {
        return plans[static_cast<size_t>(node)].ok() && !layout_refused.count(node);
      },
      "xnnpack_");
  for (;;) {
    Decision d{by_support.partition(program), {}};
    std::map<std::string, std::vector<PlannedNode>> groups;
    const std::vector<export_::Node>& tagged = d.result.tagged_exported_program.graph().nodes();
    for (size_t i = 0; i < tagged.size(); ++i) {
      if (tagged[i].meta.delegation_tag.empty()) continue;
      groups[tagged[i].meta.delegation_tag].push_back({static_cast<export_::NodeId>(i), *plans[i]});
    }
    bool left_out_more = false;
    for (const auto& [tag, group] : groups) {
      const LayoutPlan layouts(program, group);
      for (const LayoutPlan::Conflict& c : layouts.conflicts()) {
        left_out_more |= layout_refused.emplace(c.node, c.reason).second;
      }
    }
    if (left_out_more) continue;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].kind != export_::NodeKind::CallFunction) continue;
      const auto refused = layout_refused.find(static_cast<export_::NodeId>(i));
      if (plans[i].ok() && refused == layout_refused.end()) continue;
      d.left.push_back({nodes[i].name, nodes[i].op->operator_name().toString(),
                        plans[i].ok() ? refused->second : std::string(plans[i].status().message())});
    }
    return d;
  }
}

}  // namespace

XnnpackPartitioner::XnnpackPartitioner(std::vector<export_::CompileSpec> compile_specs, bool verbose,
                                       std::ostream* report)
    : compile_specs_(std::move(compile_specs)), verbose_(verbose), report_(report == nullptr ? &std::cerr : report) {}

export_::PartitionResult XnnpackPartitioner::partition(const export_::ExportedProgram& program) const {
  Decision d = decide(program, {kXnnpackBackendId, compile_specs_});
  if (verbose_) {
    for (const LeftOut& left : d.left) *report_ << "XnnpackPartitioner: " << left.str() << "\n";
  }
  return std::move(d.result);
}

std::vector<XnnpackPartitioner::LeftOut> XnnpackPartitioner::leftOut(const export_::ExportedProgram& program) {
  return decide(program, {kXnnpackBackendId, {}}).left;
}

std::string XnnpackPartitioner::LeftOut::str() const {
  return absl::StrCat("left %", node, " (", op, ") to the portable kernels: ", reason);
}

}  // namespace sy::xnnpack
