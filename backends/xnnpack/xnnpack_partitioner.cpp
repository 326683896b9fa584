#include "switchyard/backends/xnnpack/xnnpack_partitioner.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "switchyard/backends/xnnpack/xnnpack_node_plan.h"
#include "switchyard/backends/xnnpack/xnnpack_preprocess.h"
#include "switchyard/export/partitioners.h"

namespace sy::xnnpack {

XnnpackPartitioner::XnnpackPartitioner(std::vector<export_::CompileSpec> compile_specs, bool verbose,
                                       std::ostream* report)
    : compile_specs_(std::move(compile_specs)), verbose_(verbose), report_(report == nullptr ? &std::cerr : report) {}

export_::PartitionResult XnnpackPartitioner::partition(const export_::ExportedProgram& program) const {
  if (verbose_) {
    for (const LeftOut& left : leftOut(program)) *report_ << "XnnpackPartitioner: " << left.str() << "\n";
  }
  const export_::OperatorSupportPartitioner by_support(
      {kXnnpackBackendId, compile_specs_},
      [](const export_::ExportedProgram& p, export_::NodeId node) { return planNode(p, node).ok(); }, "xnnpack_");
  return by_support.partition(program);
}

std::vector<XnnpackPartitioner::LeftOut> XnnpackPartitioner::leftOut(const export_::ExportedProgram& program) {
  std::vector<LeftOut> out;
  const std::vector<export_::Node>& nodes = program.graph().nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != export_::NodeKind::CallFunction) continue;
    absl::StatusOr<NodePlan> plan = planNode(program, static_cast<export_::NodeId>(i));
    if (plan.ok()) continue;
    out.push_back({nodes[i].name, nodes[i].op->operator_name().toString(), std::string(plan.status().message())});
  }
  return out;
}

std::string XnnpackPartitioner::LeftOut::str() const {
  return absl::StrCat("left %", node, " (", op, ") to the portable kernels: ", reason);
}

}  // namespace sy::xnnpack
