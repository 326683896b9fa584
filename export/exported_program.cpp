#include "switchyard/export/exported_program.h"

#include "switchyard/ivalue/error.h"
#include "switchyard/ivalue/stack.h"

namespace sy::export_ {

ExportedProgram::ExportedProgram(Graph graph, std::map<std::string, Tensor> state)
    : graph_(std::move(graph)), state_(std::move(state)) {
  graph_.validate();
  for (const Node& n : graph_.nodes()) {
    if (n.kind != NodeKind::Placeholder || n.input_kind == InputKind::User) continue;
    auto it = state_.find(n.target);
    SY_CHECK(it != state_.end() && it->second.defined(), toString(n.input_kind), " placeholder '", n.name,
             "' stands for '", n.target, "', which the program's state does not hold");
    const TensorMeta& expected = graph_.value(n.outputs[0]).meta;
    SY_CHECK(TensorMeta::of(it->second) == expected, toString(n.input_kind), " '", n.target, "' is a ",
             TensorMeta::of(it->second).str(), " tensor, but its placeholder '", n.name, "' is ", expected.str());
  }
}

const Tensor& ExportedProgram::stateOf(ValueId placeholder) const {
  const Node& n = graph_.node(graph_.producer(placeholder));
  SY_CHECK(n.kind == NodeKind::Placeholder && n.input_kind != InputKind::User, "%", graph_.value(placeholder).name,
           " is not a parameter or constant placeholder");
  return state_.at(n.target);
}

void ExportedProgram::setDelegationTag(NodeId node, std::string tag) {
  Node& n = graph_.mutableNode(node);
  SY_CHECK(n.kind == NodeKind::CallFunction, "only call_function nodes can be delegated, but '", n.name, "' is a ",
           toString(n.kind), " node");
  n.meta.delegation_tag = std::move(tag);
}

std::vector<Tensor> ExportedProgram::run(const std::vector<Tensor>& inputs) const {
  const std::vector<ValueId> user = graph_.placeholders(InputKind::User);
  SY_CHECK(inputs.size() == user.size(), "ExportedProgram::run: the program takes ", user.size(), " inputs, but ",
           inputs.size(), " were given");
  std::vector<Tensor> values(graph_.numValues());
  for (size_t i = 0; i < user.size(); ++i) {
    const TensorMeta& expected = graph_.value(user[i]).meta;
    SY_CHECK(inputs[i].defined() && TensorMeta::of(inputs[i]) == expected, "ExportedProgram::run: input ", i, " ('",
             graph_.value(user[i]).name, "') must be ", expected.str(), ", but is ",
             inputs[i].defined() ? TensorMeta::of(inputs[i]).str() : std::string("undefined"));
    values[static_cast<size_t>(user[i])] = inputs[i];
  }
  Stack stack;
  for (const Node& n : graph_.nodes()) {
    if (n.kind == NodeKind::Placeholder) {
      if (n.input_kind != InputKind::User) values[static_cast<size_t>(n.outputs[0])] = state_.at(n.target);
      continue;
    }
    if (n.kind == NodeKind::Output) break;
    stack.clear();
    for (const NodeArgument& a : n.args) {
      switch (a.kind) {
        case NodeArgument::Kind::Value: stack.push_back(values[static_cast<size_t>(a.value)]); break;
        case NodeArgument::Kind::ValueList: {
          std::vector<Tensor> list;
          for (ValueId v : a.values) list.push_back(values[static_cast<size_t>(v)]);
          stack.push_back(IValue(std::move(list)));
          break;
        }
        case NodeArgument::Kind::OptionalValueList: {
          std::vector<IValue> list;
          for (ValueId v : a.values) list.push_back(v == NodeArgument::kNone ? IValue() : IValue(values[static_cast<size_t>(v)]));
          stack.push_back(IValue(std::move(list)));
          break;
        }
        case NodeArgument::Kind::Constant: stack.push_back(a.constant); break;
      }
    }
    n.op->callBoxed(&stack);
    SY_CHECK(stack.size() == n.outputs.size(), "ExportedProgram::run: node '", n.name, "' (", n.op->operator_name(),
             ") left ", stack.size(), " values where its schema returns ", n.outputs.size());
    for (size_t r = 0; r < n.outputs.size(); ++r) {
      SY_CHECK(stack[r].isTensor(), "ExportedProgram::run: node '", n.name, "' returned a ", stack[r].typeName(),
               " where the graph expects a tensor");
      values[static_cast<size_t>(n.outputs[r])] = std::move(stack[r]).toTensor();
    }
  }
  std::vector<Tensor> out;
  for (ValueId v : graph_.outputs()) out.push_back(values[static_cast<size_t>(v)]);
  return out;
}

}  // namespace sy::export_
