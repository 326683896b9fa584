// Node: one recorded operator call, the unit of the autograd tape. It keeps what the call's
// backward formula needs (the arguments it declared, its results), where each input's gradient
// goes next (the node that made the input, or the leaf to accumulate into), and the shapes of
// inputs and outputs so gradients can be checked and missing ones filled with zeros.
//
// The tape is the graph these nodes form: each result points at its node (AutogradMeta::grad_fn),
// each node at the nodes of its inputs. It lives exactly as long as the tensors that can reach it,
// so dropping a loss frees everything recorded for it. How nodes are recorded:
// see Note [Only tensors that require grad carry an autograd key] (autograd/autograd.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::autograd {

struct FormulaEntry;
class Node;

// Shape, dtype and device of a tensor the call read or made.
struct TensorGeometry {
  SizesVector sizes;
  ScalarType dtype = ScalarType::Undefined;
  Device device;

  static TensorGeometry of(const Tensor& t) { return {SizesVector(t.sizes().begin(), t.sizes().end()), t.scalar_type(), t.device()}; }
};

// Where one input's gradient goes: into output `output_nr` of the node that made the input, or
// into the grad() of a leaf. Neither, for an input that does not require grad.
struct Edge {
  std::shared_ptr<Node> node;
  uint32_t output_nr = 0;
  TensorImplPtr leaf;

  bool isLeaf() const { return static_cast<bool>(leaf); }
  bool defined() const { return node != nullptr || isLeaf(); }
};

// One tensor the call read: an argument, or one element of a Tensor[] argument.
struct InputSlot {
  uint32_t argument = 0;
  uint32_t element = 0;
  TensorGeometry geometry;
  Edge edge;
};

// A saved tensor and the version of its memory when it was saved
// (see Note [Version counters live on the Storage], ivalue/storage.h).
struct SavedTensor {
  Tensor tensor;
  uint64_t version = 0;

  static SavedTensor of(Tensor t);
  // The tensor, after checking nothing wrote into it since; `what` and `op` name it in the error.
  const Tensor& unpack(const OperatorName& op, const std::string& what) const;
};

// A schema argument as the node kept it: every non-tensor value, and the tensors (one, or one per
// list element) its formula declared it reads.
struct SavedArgument {
  IValue value;
  absl::InlinedVector<SavedTensor, 1> tensors;
  bool saved = false;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node(OperatorHandle op, std::shared_ptr<const FormulaEntry> formula, uint64_t sequence_nr);
  // Frees the graph behind this node with constant stack depth
  // (see Note [A graph of any depth is freed without recursion]).
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const OperatorHandle& op() const { return op_; }
  const OperatorName& name() const { return op_.operator_name(); }
  // Null when no formula was registered for the operator (backward then raises, naming it).
  const std::shared_ptr<const FormulaEntry>& formula() const { return formula_; }
  uint64_t sequenceNr() const { return sequence_nr_; }

  std::vector<SavedArgument>& arguments() { return arguments_; }
  const std::vector<SavedArgument>& arguments() const { return arguments_; }
  std::vector<InputSlot>& inputs() { return inputs_; }
  const std::vector<InputSlot>& inputs() const { return inputs_; }
  std::vector<TensorGeometry>& outputs() { return outputs_; }
  const std::vector<TensorGeometry>& outputs() const { return outputs_; }
  // Detached aliases of the results (see detachedAlias), when the formula saves them.
  std::vector<SavedTensor>& results() { return results_; }
  const std::vector<SavedTensor>& results() const { return results_; }

  // How a backward reads the saved values (See Note [A backward that frees the graph claims it]).
  // Counts the caller as a reader and returns true, unless a backward that frees the saved values
  // has claimed the node (then false, and nothing changed). With `free_after`, the caller claims
  // the node: the saved values are freed when its last reader is done.
  bool beginReading(bool free_after);
  // Ends one beginReading; the last reader of a claimed node frees the saved values. With
  // `withdraw_claim`, the caller (which claimed the node, and failed) takes its claim back.
  void endReading(bool withdraw_claim = false);
  // True once a backward that frees the saved values claimed the node.
  bool released() const { return (reading_.load(std::memory_order_acquire) & kClaimed) != 0; }

 private:
  friend class GraphTeardown;

  // reading_: the number of backwards reading the saved values, and kClaimed.
  static constexpr uint32_t kClaimed = uint32_t{1} << 31;

  OperatorHandle op_;
  std::shared_ptr<const FormulaEntry> formula_;
  uint64_t sequence_nr_;
  std::vector<SavedArgument> arguments_;
  std::vector<InputSlot> inputs_;
  std::vector<TensorGeometry> outputs_;
  std::vector<SavedTensor> results_;
  std::atomic<uint32_t> reading_{0};
};

// Numbers nodes in the order they were recorded (for messages and a deterministic backward order).
uint64_t nextSequenceNr();

}  // namespace sy::autograd
