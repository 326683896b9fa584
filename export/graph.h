// Graph: the ahead-of-time intermediate representation of a captured model, in torch.fx's shape.
//
//   sy::export_::Graph g;
//   ValueId x = g.addPlaceholder("x", InputKind::User, "", {ScalarType::Float, {2, 3}});
//   NodeId n = g.addCall(relu, {NodeArgument::value(x)}, {{ScalarType::Float, {2, 3}}}, meta);
//   g.setOutputs({g.node(n).outputs[0]});
//   std::cout << g;   // the printer (graph_printer.h)
//
// Three kinds of node: placeholders (one per user input, parameter or lifted constant; each
// defines one value), call_function nodes (one operator call through the dispatcher, with one
// argument per schema argument and one value per schema return), and the one output node, last.
// Every value is a tensor, defined by exactly one node; non-tensor arguments (ints, lists, dtypes,
// None) are stored in the argument itself.
//
// Note [Graphs are functional]
// A value is never written after the node that defines it: capture turns in-place and out=
// calls into their functional forms (or refuses them) and records views as values of their own,
// not as aliases (See Note [Capture functionalises what it records]). So a value's contents are
// fixed by its node and its arguments, nodes can be reordered along their data dependencies, and
// the emitter may give any two values with disjoint lifetimes the same memory.
//
// Placeholders always come first, in kind order (user inputs, then parameters, then constants);
// adding a placeholder after call nodes inserts it there, so NodeIds of later nodes shift, while
// ValueIds never change. Hold on to ValueIds, not NodeIds, across addPlaceholder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/core/scalar_type.h"

namespace sy::export_ {

using ValueId = int32_t;
using NodeId = int32_t;

// One frame of the C++ call stack that made a node: the outermost is where capture started,
// the innermost the statement whose operator call made the node (See Note [Source locations of
// captured operators] in export/source_scope.h).
struct SourceFrame {
  std::string file;
  uint32_t line = 0;
  std::string function;
  // "model.cpp:42 (in forward)"; "model.cpp:42" when the function is unknown.
  std::string str() const;
};

struct NodeMeta {
  // Set by a partitioner: the partition this node is lowered with; empty when it is not tagged.
  std::string delegation_tag;
  // Unique among a graph's call_function nodes, from 1; 0 for placeholders and the output. A
  // delegate reports errors with it, and the emitter maps it back to this node.
  int64_t debug_handle = 0;
  // Outermost first; empty when the node was made outside every source scope.
  std::vector<SourceFrame> stack;

  // The innermost frame, or nullptr.
  const SourceFrame* location() const { return stack.empty() ? nullptr : &stack.back(); }
};

// The dtype and shape of a value (its layout is contiguous wherever the graph runs or is emitted).
struct TensorMeta {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  // Per dimension, whether its size changes from run to run, `sizes` being its upper bound (See
  // Note [Dynamic dimensions are found by capturing twice] in capture_dynamic.cpp); empty when no
  // dimension does.
  std::vector<bool> dynamic;

  int64_t numel() const;
  // numel * element size; raises sy::Error on overflow.
  uint64_t nbytes() const;
  bool isDynamic() const;
  bool isDynamic(size_t dim) const { return dim < dynamic.size() && dynamic[dim]; }
  // Whether a tensor of `actual`'s dtype and sizes may stand for this value: the same dtype and
  // rank, each dimension equal to its size or, for a dynamic one, at most it.
  bool admits(const TensorMeta& actual) const;
  // "Float[2, 3]"; a dynamic dimension as "<=8": "Float[<=8, 3]"
  std::string str() const;
  static TensorMeta of(const Tensor& t);
  friend bool operator==(const TensorMeta& a, const TensorMeta& b) { return a.dtype == b.dtype && a.sizes == b.sizes; }
};

// One argument of a call_function node, in schema order (or one result of the output node).
struct NodeArgument {
  enum class Kind : uint8_t {
    Value,              // Tensor, or Tensor? holding a tensor
    ValueList,          // Tensor[]
    OptionalValueList,  // Tensor?[]: kNone marks an absent element
    Constant,           // anything else, held as an IValue (None, int, float, bool, str, lists, dtype)
  };
  static constexpr ValueId kNone = -1;

  Kind kind = Kind::Constant;
  ValueId value = kNone;
  std::vector<ValueId> values;
  IValue constant;

  static NodeArgument ofValue(ValueId v);
  static NodeArgument ofValues(std::vector<ValueId> vs, bool optional_elements = false);
  static NodeArgument ofConstant(IValue c);
  // Every value this argument reads.
  std::vector<ValueId> readValues() const;
};

enum class NodeKind : uint8_t { Placeholder, CallFunction, Output };
// What a placeholder stands for. Parameters and constants have their tensors in the
// ExportedProgram beside the graph; user inputs are given at each run.
enum class InputKind : uint8_t { User, Parameter, Constant };
std::string_view toString(NodeKind kind);
std::string_view toString(InputKind kind);

struct Node {
  NodeKind kind = NodeKind::CallFunction;
  std::string name;            // unique in the graph: "x", "fc1_weight", "linear", "linear_1", "output"
  InputKind input_kind = InputKind::User;  // placeholders only
  std::string target;          // placeholders: the parameter's or constant's name ("fc1.weight")
  std::optional<OperatorHandle> op;        // call_function only
  std::vector<NodeArgument> args;          // call_function: one per schema argument; output: one Value each
  std::vector<ValueId> outputs;            // placeholder: one; call_function: one per schema return
  NodeMeta meta;
};

// Whether `node` is a call of higher_order::executorch_call_delegate: a lowered module that
// to_backend put in place of a partition (export/lowering.h).
bool isDelegateCall(const Node& node);

struct Value {
  TensorMeta meta;
  ValueId id = 0;
  int output_index = 0;  // which of its node's results
  std::string name;      // the defining node's name, with ".1" etc. for a node's later results
};

class Graph {
 public:
  // A placeholder of `kind`, inserted after the last placeholder of its kind or earlier kinds.
  // `target` names a parameter or constant (empty for user inputs).
  ValueId addPlaceholder(std::string name, InputKind kind, std::string target, TensorMeta meta);
  // A call of `op` (which has a schema) with one argument per schema argument and one result meta
  // per schema return; raises sy::Error when the arguments do not fit the schema or read a value
  // the graph does not have. Gives the node the next debug handle unless `meta` has one, and a
  // name made from the operator's unless `name` is given (made unique either way).
  NodeId addCall(OperatorHandle op, std::vector<NodeArgument> args, std::vector<TensorMeta> results, NodeMeta meta,
                 std::string name = {});
  // A call of higher_order::executorch_call_delegate running lowered module `delegate_index` of
  // the program (export/lowering.h) on `inputs`; unlike other calls it defines one value per
  // result of the lowered module, though the operator's schema returns nothing (at run time the
  // delegate writes its outputs in place: See Note [A delegate call defines its outputs]). Named
  // "executorch_call_delegate_<delegate_index>" unless `name` is given.
  NodeId addDelegateCall(std::string backend_id, int64_t delegate_index, std::vector<ValueId> inputs,
                         std::vector<TensorMeta> results, NodeMeta meta, std::string name = {});
  // Sets (or replaces) the output node, last.
  void setOutputs(std::vector<ValueId> outputs);

  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(NodeId id) const;
  Node& mutableNode(NodeId id);
  size_t numValues() const { return values_.size(); }
  const Value& value(ValueId id) const;
  // Marks dimensions of `id` as dynamic (TensorMeta::dynamic: one flag per dimension, or empty).
  void setDynamicDims(ValueId id, std::vector<bool> dynamic);
  // The node that defines `id`.
  NodeId producer(ValueId id) const;
  // The node called `name`, or nullopt.
  std::optional<NodeId> findNode(std::string_view name) const;
  // The call_function node with this debug handle, or nullopt.
  std::optional<NodeId> findByDebugHandle(int64_t handle) const;
  // Placeholders of one kind, in order (their values).
  std::vector<ValueId> placeholders(InputKind kind) const;
  // The output node's values (empty before setOutputs).
  std::vector<ValueId> outputs() const;
  // The call_function and output nodes that read `id`, in graph order.
  std::vector<NodeId> usersOf(ValueId id) const;

  // Raises sy::Error naming the node when a node reads a value defined after it, names repeat,
  // or the output node is missing or not last.
  void validate() const;

 private:
  std::string uniqueName(std::string base);
  NodeId appendCall(Node node, std::vector<TensorMeta> results);
  void checkArgumentValues(const std::vector<NodeArgument>& args, const std::string& what) const;

  std::vector<Node> nodes_;
  std::vector<Value> values_;
  std::vector<NodeId> producers_;  // by ValueId; kept right when placeholders are inserted
  std::unordered_set<std::string> names_;  // every node's name
  int64_t next_debug_handle_ = 1;
};

}  // namespace sy::export_
