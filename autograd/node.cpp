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

// A long chain of nodes (a loop of thousands of recorded calls) would otherwise be freed by
// recursion as deep as the chain: a node holds the nodes of its inputs through its edges, and
// through the AutogradMeta of the input tensors it saved. The nodes a dying node holds last are
// taken over here and freed one by one, so destruction uses constant stack depth.
namespace {

void takeOverLastReference(Tensor& saved, std::vector<std::shared_ptr<Node>>& pending) {
  if (!saved.defined() || saved.use_count() != 1) return;
  if (AutogradMeta* meta = metaOf(saved); meta != nullptr && meta->grad_fn != nullptr) {
    pending.push_back(std::move(meta->grad_fn));
  }
}

}  // namespace

void Node::handOverInputs(std::vector<std::shared_ptr<Node>>& pending) {
  for (InputSlot& slot : inputs_) {
    if (slot.edge.node) pending.push_back(std::move(slot.edge.node));
  }
  for (SavedArgument& argument : arguments_) {
    for (SavedTensor& saved : argument.tensors) takeOverLastReference(saved.tensor, pending);
  }
}

Node::~Node() {
  std::vector<std::shared_ptr<Node>> pending;
  handOverInputs(pending);
  while (!pending.empty()) {
    std::shared_ptr<Node> next = std::move(pending.back());
    pending.pop_back();
    if (next.use_count() == 1) next->handOverInputs(pending);
  }
}

void Node::release() {
  arguments_.clear();
  results_.clear();
  released_ = true;
}

}  // namespace sy::autograd
