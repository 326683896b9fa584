#include "switchyard/autograd/node.h"

#include <atomic>
#include <utility>

#include "switchyard/autograd/autograd_meta.h"
#include "switchyard/autograd/formula.h"

namespace sy::autograd {

uint64_t nextSequenceNr() {
  static std::atomic<uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

SavedTensor SavedTensor::of(Tensor t) {
  SavedTensor saved;
  if (t.defined() && t.storage()) saved.version = t.storage()->version();
  saved.tensor = std::move(t);
  return saved;
}

const Tensor& SavedTensor::unpack(const OperatorName& op, const std::string& what) const {
  if (tensor.defined() && tensor.storage()) {
    const uint64_t now = tensor.storage()->version();
    SY_CHECK(now == version, "backward: ", what, " of ", op, ", saved for its backward formula, was modified by an "
             "in-place operation after it was saved (its memory's version went from ", version, " to ", now,
             "). Use the out-of-place form of that operation, or clone the tensor before writing into it");
  }
  return tensor;
}

Node::Node(OperatorHandle op, std::shared_ptr<const FormulaEntry> formula, uint64_t sequence_nr)
    : op_(op), formula_(std::move(formula)), sequence_nr_(sequence_nr) {}

// Note [A graph of any depth is freed without recursion]
// A node owns what leads to the nodes recorded before it: the nodes of its inputs (its edges), and
// tensors (the ones it saved, the leaves its edges accumulate into) whose AutogradMeta owns a
// grad_fn of its own. Left to the members' destructors, freeing a chain of n recorded calls
// recurses n deep (y = mul(y, y) 1e5 times overflowed the stack), through edges, saved tensors,
// views and saved tensors that took a new grad_fn from an in-place write alike. So ~Node moves
// every such reference out of the node, into the worklist of the teardown already running on this
// thread if there is one, or else into a new one that it then drains. Draining drops one
// reference at a time; when that was the last reference, the object's destructor runs right
// there, and a node's destructor only moves its references into the same worklist and returns, its
// members left owning nothing. So the stack stays a few destructors deep whatever the depth and
// the sharing (a tensor saved twice, a node with several parents, a graph partly reachable from
// tensors still alive, which keep what they reach). Nothing reads a reference count: every object
// is freed by the ordinary release of its last reference, on whichever thread drops it.
class GraphTeardown {
 public:
  static void release(Node& node) {
    if (active_ != nullptr) {
      active_->takeFrom(node);
      return;
    }
    GraphTeardown teardown;
    active_ = &teardown;
    teardown.takeFrom(node);
    teardown.drain();
    active_ = nullptr;
  }

 private:
  void takeFrom(Node& node) {
    for (InputSlot& slot : node.inputs_) {
      if (slot.edge.node != nullptr) nodes_.push_back(std::move(slot.edge.node));
      if (slot.edge.leaf) tensors_.emplace_back(std::move(slot.edge.leaf));
    }
    for (SavedArgument& argument : node.arguments_) {
      for (SavedTensor& saved : argument.tensors) take(saved.tensor);
    }
    for (SavedTensor& saved : node.results_) take(saved.tensor);
  }

  void take(Tensor& t) {
    if (t.defined()) tensors_.push_back(std::move(t));
  }

  // Each reference leaves the worklist before it is dropped, so that the destructor it may run
  // can add to the worklist.
  void drain() {
    while (!tensors_.empty() || !nodes_.empty()) {
      if (!tensors_.empty()) {
        const Tensor dropped = std::move(tensors_.back());
        tensors_.pop_back();
      } else {
        const std::shared_ptr<Node> dropped = std::move(nodes_.back());
        nodes_.pop_back();
      }
    }
  }

  // The teardown draining on this thread (a plain pointer: no destructor to outlive at exit).
  static thread_local GraphTeardown* active_;

  std::vector<std::shared_ptr<Node>> nodes_;
  std::vector<Tensor> tensors_;
};

thread_local GraphTeardown* GraphTeardown::active_ = nullptr;

Node::~Node() { GraphTeardown::release(*this); }

// Note [A backward that frees the graph claims it]
// sy::backward without retain_graph frees every node's saved values once it is done, and another
// thread's backward through the same nodes may be reading them then. So each backward registers as
// a reader of every node it will run before it runs any (beginReading), and one that will free the
// saved values also claims the nodes. A node already claimed takes no new reader: that backward
// fails, naming the node, as a second backward through a freed graph does. Nodes are claimed
// before any formula runs, the loss's own node first, so of two backwards from one loss without
// retain_graph exactly one runs, however their steps interleave. The saved values are freed by
// whichever reader of a claimed node finishes last, so a backward that registered before the
// claim still reads them. A backward that fails withdraws its claims, leaving the graph as it was.
// The state is one atomic word per node, the readers and the claim bit: beginReading is one
// compare-exchange, endReading one subtraction.
bool Node::beginReading(bool free_after) {
  uint32_t state = reading_.load(std::memory_order_relaxed);
  do {
    if ((state & kClaimed) != 0) return false;
  } while (!reading_.compare_exchange_weak(state, (state + 1) | (free_after ? kClaimed : 0), std::memory_order_acquire,
                                           std::memory_order_relaxed));
  return true;
}

void Node::endReading(bool withdraw_claim) {
  const uint32_t taken = 1 + (withdraw_claim ? kClaimed : 0);
  const uint32_t before = reading_.fetch_sub(taken, std::memory_order_acq_rel);
  if (before - taken == kClaimed) {  // claimed, and this was the last reader
    arguments_.clear();
    results_.clear();
  }
}

}  // namespace sy::autograd
