// XnnpackPartitioner: tags the largest groups of nodes the XNNPACK delegate can take (nodes
// planNode accepts: the operator, Float tensors, attributes XNNPACK has, constant weights;
// xnnpack_node_plan.h), each group connected and never leaving and re-entering itself
// (OperatorSupportPartitioner, export/partitioners.h), and none needing a transpose: the nodes
// whose layout needs conflict inside their group (LayoutPlan, xnnpack_layout_plan.h) are left out
// and the rest grouped again. The rest stays with the portable kernels.
//
//   sy::xnnpack::XnnpackPartitioner partitioner({sy::export_::CompileSpec::ofString("num_threads", "2")});
//   sy::export_::PartitionResult tagged = partitioner.partition(ep);     // tags "xnnpack_0", "xnnpack_1", ...
//   for (const auto& left : sy::xnnpack::XnnpackPartitioner::leftOut(ep)) std::cout << left.str() << "\n";
//
// With `verbose`, partition() also writes what it left out, one line per node, to `report`:
//   XnnpackPartitioner: left %neg (aten::neg) to the portable kernels: aten::neg: not an operator ...
//   XnnpackPartitioner: left %view (aten::view) to the portable kernels: aten::view: reads %relu ...
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "switchyard/export/partitioner.h"

namespace sy::xnnpack {

class XnnpackPartitioner final : public export_::Partitioner {
 public:
  explicit XnnpackPartitioner(std::vector<export_::CompileSpec> compile_specs = {}, bool verbose = false,
                              std::ostream* report = nullptr);
  export_::PartitionResult partition(const export_::ExportedProgram& program) const override;

  struct LeftOut {
    std::string node;       // "neg"
    std::string op;         // "aten::neg"
    std::string reason;
    std::string str() const;
  };
  // Every call node partition() leaves out, in graph order, with the reason.
  static std::vector<LeftOut> leftOut(const export_::ExportedProgram& program);

 private:
  std::vector<export_::CompileSpec> compile_specs_;
  bool verbose_;
  std::ostream* report_;
};

}  // namespace sy::xnnpack
