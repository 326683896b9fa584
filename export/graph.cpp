#include "switchyard/export/graph.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/core/error.h"

namespace sy::export_ {

std::string SourceFrame::str() const {
  std::string out = sy::str(file, ":", line);
  if (!function.empty()) out += sy::str(" (in ", function, ")");
  return out;
}

int64_t TensorMeta::numel() const { return checkedNumel("export graph value", sizes); }

uint64_t TensorMeta::nbytes() const {
  return checkedStorageBytes("export graph value", 0, numel(), dtype, sizes);
}

bool TensorMeta::isDynamic() const { return std::find(dynamic.begin(), dynamic.end(), true) != dynamic.end(); }

bool TensorMeta::admits(const TensorMeta& actual) const {
  if (actual.dtype != dtype || actual.sizes.size() != sizes.size()) return false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (actual.sizes[d] != sizes[d] && !(isDynamic(d) && actual.sizes[d] <= sizes[d])) return false;
  }
  return true;
}

std::string TensorMeta::str() const {
  std::string out = sy::str(toString(dtype), "[");
  for (size_t i = 0; i < sizes.size(); ++i) out += sy::str(i == 0 ? "" : ", ", isDynamic(i) ? "<=" : "", sizes[i]);
  return out + "]";
}

TensorMeta TensorMeta::of(const Tensor& t) {
  TensorMeta m;
  m.dtype = t.scalar_type();
  m.sizes.assign(t.sizes().begin(), t.sizes().end());
  return m;
}

NodeArgument NodeArgument::ofValue(ValueId v) {
  NodeArgument a;
  a.kind = Kind::Value;
  a.value = v;
  return a;
}

NodeArgument NodeArgument::ofValues(std::vector<ValueId> vs, bool optional_elements) {
  NodeArgument a;
  a.kind = optional_elements ? Kind::OptionalValueList : Kind::ValueList;
  a.values = std::move(vs);
  return a;
}

NodeArgument NodeArgument::ofConstant(IValue c) {
  NodeArgument a;
  a.kind = Kind::Constant;
  c.makeOwned();
  a.constant = std::move(c);
  return a;
}

std::vector<ValueId> NodeArgument::readValues() const {
  switch (kind) {
    case Kind::Value: return {value};
    case Kind::ValueList: return values;
    case Kind::OptionalValueList: {
      std::vector<ValueId> out;
      for (ValueId v : values) {
        if (v != kNone) out.push_back(v);
      }
      return out;
    }
    case Kind::Constant: return {};
  }
  return {};
}

std::string_view toString(NodeKind kind) {
  switch (kind) {
    case NodeKind::Placeholder: return "placeholder";
    case NodeKind::CallFunction: return "call_function";
    case NodeKind::Output: return "output";
  }
  return "?";
}

std::string_view toString(InputKind kind) {
  switch (kind) {
    case InputKind::User: return "user input";
    case InputKind::Parameter: return "parameter";
    case InputKind::Constant: return "constant";
  }
  return "?";
}

bool isDelegateCall(const Node& node) {
  return node.kind == NodeKind::CallFunction && node.op &&
         node.op->operator_name() == OperatorName{"higher_order::executorch_call_delegate", ""};
}

std::string Graph::uniqueName(std::string base) {
  for (char& c : base) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) c = '_';
  }
  if (base.empty()) base = "v";
  std::string name = base;
  for (int i = 1; names_.count(name) != 0; ++i) name = sy::str(base, "_", i);
  names_.insert(name);
  return name;
}

ValueId Graph::addPlaceholder(std::string name, InputKind kind, std::string target, TensorMeta meta) {
  meta.nbytes();  // refuses sizes that overflow
  size_t position = 0;
  while (position < nodes_.size() && nodes_[position].kind == NodeKind::Placeholder &&
         nodes_[position].input_kind <= kind) {
    ++position;
  }
  Node node;
  node.kind = NodeKind::Placeholder;
  node.name = uniqueName(std::move(name));
  node.input_kind = kind;
  node.target = std::move(target);
  const ValueId id = static_cast<ValueId>(values_.size());
  node.outputs = {id};
  values_.push_back(Value{std::move(meta), id, 0, node.name});
  nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(position), std::move(node));
  for (NodeId& p : producers_) {
    if (p >= static_cast<NodeId>(position)) ++p;
  }
  producers_.push_back(static_cast<NodeId>(position));
  return id;
}

void Graph::checkArgumentValues(const std::vector<NodeArgument>& args, const std::string& what) const {
  for (const NodeArgument& a : args) {
    for (ValueId v : a.readValues()) {
      SY_CHECK(v >= 0 && static_cast<size_t>(v) < values_.size(), what, " reads value ", v, ", but the graph has ",
               values_.size(), " values");
    }
  }
}

NodeId Graph::addCall(OperatorHandle op, std::vector<NodeArgument> args, std::vector<TensorMeta> results, NodeMeta meta,
                      std::string name) {
  SY_CHECK(op.hasSchema(), "Graph::addCall: operator ", op.operator_name(), " has no schema");
  const FunctionSchema& schema = op.schema();
  const std::string what = sy::str("a call of ", schema.operator_name());
  SY_CHECK(args.size() == schema.arguments().size(), what, " has ", args.size(), " arguments, but its schema takes ",
           schema.arguments().size(), ": ", schema);
  SY_CHECK(results.size() == schema.returns().size(), what, " has ", results.size(), " results, but its schema returns ",
           schema.returns().size(), ": ", schema);
  checkArgumentValues(args, what);
  SY_CHECK(nodes_.empty() || nodes_.back().kind != NodeKind::Output, what, " added after the output node");
  Node node;
  node.kind = NodeKind::CallFunction;
  if (name.empty()) {
    name = schema.name();
    if (const size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  }
  node.name = uniqueName(std::move(name));
  node.op = op;
  node.args = std::move(args);
  node.meta = std::move(meta);
  return appendCall(std::move(node), std::move(results));
}

// Note [A delegate call defines its outputs]
// higher_order::executorch_call_delegate's schema returns nothing: at run time its tensor list
// holds the inputs and then the outputs, which the backend writes in place. A graph is functional
// (See Note [Graphs are functional]), so there the node reads only the inputs and defines one new
// value per output of the lowered module; the emitter lists inputs then outputs in the
// DelegateCall instruction, and ExportedProgram::run allocates the outputs before the call.
NodeId Graph::addDelegateCall(std::string backend_id, int64_t delegate_index, std::vector<ValueId> inputs,
                              std::vector<TensorMeta> results, NodeMeta meta, std::string name) {
  static const OperatorHandle delegate_call =
      Dispatcher::singleton().findSchemaOrThrow("higher_order::executorch_call_delegate", "");
  std::vector<NodeArgument> args{NodeArgument::ofConstant(IValue(std::move(backend_id))),
                                 NodeArgument::ofConstant(IValue(delegate_index)), NodeArgument::ofValues(std::move(inputs))};
  checkArgumentValues(args, "a delegate call");
  SY_CHECK(nodes_.empty() || nodes_.back().kind != NodeKind::Output, "a delegate call added after the output node");
  Node node;
  node.kind = NodeKind::CallFunction;
  node.name = uniqueName(name.empty() ? sy::str("executorch_call_delegate_", delegate_index) : std::move(name));
  node.op = delegate_call;
  node.args = std::move(args);
  node.meta = std::move(meta);
  return appendCall(std::move(node), std::move(results));
}

NodeId Graph::appendCall(Node node, std::vector<TensorMeta> results) {
  if (node.meta.debug_handle == 0) node.meta.debug_handle = next_debug_handle_++;
  else next_debug_handle_ = std::max(next_debug_handle_, node.meta.debug_handle + 1);
  const NodeId id = static_cast<NodeId>(nodes_.size());
  for (size_t i = 0; i < results.size(); ++i) {
    results[i].nbytes();
    const ValueId v = static_cast<ValueId>(values_.size());
    node.outputs.push_back(v);
    values_.push_back(Value{std::move(results[i]), v, static_cast<int>(i),
                            results.size() == 1 ? node.name : sy::str(node.name, ".", i)});
    producers_.push_back(id);
  }
  nodes_.push_back(std::move(node));
  return id;
}

void Graph::setOutputs(std::vector<ValueId> outputs) {
  std::vector<NodeArgument> args;
  for (ValueId v : outputs) args.push_back(NodeArgument::ofValue(v));
  checkArgumentValues(args, "the output node");
  if (!nodes_.empty() && nodes_.back().kind == NodeKind::Output) {
    names_.erase(nodes_.back().name);
    nodes_.pop_back();
  }
  Node node;
  node.kind = NodeKind::Output;
  node.name = uniqueName("output");
  node.args = std::move(args);
  nodes_.push_back(std::move(node));
}

const Node& Graph::node(NodeId id) const {
  SY_CHECK_INDEX(id >= 0 && static_cast<size_t>(id) < nodes_.size(), "node ", id, " is out of range: the graph has ",
                 nodes_.size(), " nodes");
  return nodes_[static_cast<size_t>(id)];
}

Node& Graph::mutableNode(NodeId id) { return const_cast<Node&>(std::as_const(*this).node(id)); }

const Value& Graph::value(ValueId id) const {
  SY_CHECK_INDEX(id >= 0 && static_cast<size_t>(id) < values_.size(), "value ", id,
                 " is out of range: the graph has ", values_.size(), " values");
  return values_[static_cast<size_t>(id)];
}

void Graph::setDynamicDims(ValueId id, std::vector<bool> dynamic) {
  Value& v = const_cast<Value&>(value(id));
  SY_CHECK_VALUE(dynamic.empty() || dynamic.size() == v.meta.sizes.size(), "setDynamicDims: ", dynamic.size(),
                 " flags for value ", v.name, " of ", v.meta.sizes.size(), " dimensions");
  v.meta.dynamic = std::move(dynamic);
}

NodeId Graph::producer(ValueId id) const {
  value(id);
  return producers_[static_cast<size_t>(id)];
}

std::optional<NodeId> Graph::findNode(std::string_view name) const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].name == name) return static_cast<NodeId>(i);
  }
  return std::nullopt;
}

std::optional<NodeId> Graph::findByDebugHandle(int64_t handle) const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].kind == NodeKind::CallFunction && nodes_[i].meta.debug_handle == handle) return static_cast<NodeId>(i);
  }
  return std::nullopt;
}

std::vector<ValueId> Graph::placeholders(InputKind kind) const {
  std::vector<ValueId> out;
  for (const Node& n : nodes_) {
    if (n.kind == NodeKind::Placeholder && n.input_kind == kind) out.push_back(n.outputs[0]);
  }
  return out;
}

std::vector<ValueId> Graph::outputs() const {
  if (nodes_.empty() || nodes_.back().kind != NodeKind::Output) return {};
  std::vector<ValueId> out;
  for (const NodeArgument& a : nodes_.back().args) out.push_back(a.value);
  return out;
}

std::vector<NodeId> Graph::usersOf(ValueId id) const {
  std::vector<NodeId> out;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    for (const NodeArgument& a : nodes_[i].args) {
      std::vector<ValueId> read = a.readValues();
      if (std::find(read.begin(), read.end(), id) != read.end()) {
        out.push_back(static_cast<NodeId>(i));
        break;
      }
    }
  }
  return out;
}

void Graph::validate() const {
  SY_CHECK(!nodes_.empty() && nodes_.back().kind == NodeKind::Output, "the graph has no output node");
  std::vector<bool> defined(values_.size(), false);
  std::unordered_set<std::string_view> names;
  bool past_placeholders = false;
  for (const Node& n : nodes_) {
    SY_CHECK(names.insert(n.name).second, "two nodes are called '", n.name, "'");
    if (n.kind == NodeKind::Placeholder) {
      SY_CHECK(!past_placeholders, "placeholder '", n.name, "' comes after call nodes");
    } else {
      past_placeholders = true;
    }
    if (n.kind == NodeKind::Output && &n != &nodes_.back()) SY_ERROR("output node '", n.name, "' is not the last node");
    for (const NodeArgument& a : n.args) {
      for (ValueId v : a.readValues()) {
        SY_CHECK(defined[static_cast<size_t>(v)], "node '", n.name, "' reads %", values_[static_cast<size_t>(v)].name,
                 ", which is defined after it");
      }
    }
    for (ValueId v : n.outputs) defined[static_cast<size_t>(v)] = true;
  }
}

}  // namespace sy::export_
