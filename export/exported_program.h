// ExportedProgram: a captured graph plus the tensors its parameter and constant placeholders stand
// for, ready to be inspected, run, partitioned and emitted as a program file.
//
//   sy::export_::ExportedProgram ep = sy::export_::capture(model, {x}, params);
//   std::cout << ep.graph();                        // the printer (graph_printer.h)
//   std::vector<sy::Tensor> y = ep.run({x});        // every node through the dispatcher
//   const sy::Tensor& w = ep.state().at("fc1.weight");
//
// The state is keyed by each placeholder's target (a parameter's name as the caller gave it; for
// a lifted constant, "_tensor_constant0", ...). Parameters are the caller's own tensors (the
// program reads them when it is run or emitted); constants are copies taken when capture first
// saw them, so later writes to the original cannot change the program.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/export/graph.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::export_ {

struct LoweredModule;  // export/lowered_module.h

class ExportedProgram {
 public:
  // Raises sy::Error when the graph does not validate, or a parameter or constant placeholder has
  // no tensor in `state`, or one of another dtype or shape, or a delegate call names a lowered
  // module `lowered_modules` does not have (or another backend's, or with other inputs or outputs).
  ExportedProgram(Graph graph, std::map<std::string, Tensor> state,
                  std::vector<std::shared_ptr<const LoweredModule>> lowered_modules = {});

  const Graph& graph() const { return graph_; }
  const std::map<std::string, Tensor>& state() const { return state_; }
  // The tensor of a parameter or constant placeholder's value.
  const Tensor& stateOf(ValueId placeholder) const;
  // The modules the graph's delegate calls run, by their delegate_index (export/lowering.h).
  const std::vector<std::shared_ptr<const LoweredModule>>& lowered_modules() const { return lowered_modules_; }
  size_t numUserInputs() const { return graph_.placeholders(InputKind::User).size(); }
  // Tags a call_function node for a delegate (a partitioner's one change, see partitioner.h); an
  // empty tag clears it. Raises sy::Error for any other kind of node.
  void setDelegationTag(NodeId node, std::string tag);

  // Runs the graph eagerly: each call_function node is one boxed call through the dispatcher.
  // Inputs must match the user-input placeholders' dtypes and shapes (else sy::Error naming the
  // input). The graph's values are functional, so a view node's result is copied before another
  // node could write it (no node writes, see Note [Graphs are functional]). A delegate call runs
  // its lowered module through the backend's run-time half (See Note [Lowered modules run
  // directly from C++]).
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const;

 private:
  Graph graph_;
  std::map<std::string, Tensor> state_;
  std::vector<std::shared_ptr<const LoweredModule>> lowered_modules_;
};

}  // namespace sy::export_
