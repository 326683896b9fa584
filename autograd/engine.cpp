// sy::backward: walks the recorded graph from a loss, in dependency order, running each node's
// backward formula.
// See Note [Only tensors that require grad carry an autograd key] (autograd/autograd.h).
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/autograd_meta.h"
#include "switchyard/autograd/formula.h"
#include "switchyard/autograd/formula_helpers.h"
#include "switchyard/autograd/node.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/shape_ops.h"
#include "tsl/robin_map.h"

namespace sy {
namespace autograd {
namespace {

// Every node backward will run, with how many edges from other such nodes point at it.
struct GraphTask {
  explicit GraphTask(std::shared_ptr<Node> root_node, bool retain_graph)
      : root(std::move(root_node)), frees_graph(!retain_graph) {}
  GraphTask(const GraphTask&) = delete;
  GraphTask& operator=(const GraphTask&) = delete;
  // See Note [A backward that frees the graph claims it]: the last reader of a node a backward
  // claimed frees its saved values; a backward that failed withdraws its claims.
  ~GraphTask() {
    for (Node* node : reading) node->endReading(/*withdraw_claim=*/frees_graph && !finished);
  }

  std::shared_ptr<Node> root;  // keeps the graph alive while backward runs
  bool frees_graph;
  bool finished = false;
  std::vector<Node*> reading;  // the nodes this backward registered as a reader of
  tsl::robin_map<Node*, int64_t> dependencies;
  tsl::robin_map<Node*, std::vector<Tensor>> output_grads;
  // Gradients for leaves, summed, applied only when every formula has run.
  std::vector<std::pair<TensorImplPtr, Tensor>> leaf_grads;
  tsl::robin_map<TensorImpl*, size_t> leaf_index;
};

void collectGraph(GraphTask& task) {
  Node* root = task.root.get();
  std::vector<Node*> stack{root};
  task.dependencies[root] = 0;
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    SY_CHECK(node->beginReading(task.frees_graph), "backward: trying to backward through ", node->name(),
             " a second time: an earlier sy::backward over this graph freed what it saved, or one running on another "
             "thread is about to. Pass retain_graph=true to every backward through the same calls but the last");
    task.reading.push_back(node);
    SY_CHECK_NOT_IMPLEMENTED(node->formula() != nullptr, "backward: ", node->name(), " has no backward formula, so "
                             "the gradient cannot flow through it. Register one with SY_BACKWARD_FORMULAS "
                             "(autograd/formula.h), or compute this part under sy::NoGradGuard");
    for (const InputSlot& slot : node->inputs()) {
      Node* next = slot.edge.node.get();
      if (next == nullptr) continue;
      auto [it, first_visit] = task.dependencies.emplace(next, 0);
      ++it.value();
      if (first_visit) stack.push_back(next);
    }
  }
}

void addInto(Tensor& slot, const Tensor& grad) { slot = slot.defined() ? ops::add(slot, grad) : grad; }

// Brings a formula's gradient for one input to the input's shape, dtype and device.
Tensor conformGradient(const Node& node, const InputSlot& slot, Tensor grad) {
  const TensorGeometry& want = slot.geometry;
  if (!sameSizes(grad.sizes(), want.sizes)) {
    SY_CHECK(expandsTo(want.sizes, grad.sizes()), "backward: the backward formula of ", node.name(),
             " (registered at ", node.formula()->site, ") returned a gradient of shape ", formatSizes(grad.sizes()),
             " for argument '", node.op().schema().arguments()[slot.argument].name, "' of shape ",
             formatSizes(want.sizes));
    grad = sumToSize(grad, want.sizes);
  }
  if (grad.scalar_type() != want.dtype || grad.device() != want.device) {
    grad = ops::_to_copy(grad, want.dtype, std::nullopt, want.device, std::nullopt, false, std::nullopt);
  }
  return grad;
}

void routeGradient(const Node& node, const InputSlot& slot, Tensor grad, GraphTask& task) {
  if (!slot.edge.defined() || !grad.defined()) return;
  grad = conformGradient(node, slot, std::move(grad));
  if (slot.edge.node != nullptr) {
    std::vector<Tensor>& buffer = task.output_grads[slot.edge.node.get()];
    buffer.resize(slot.edge.node->outputs().size());
    addInto(buffer[slot.edge.output_nr], grad);
    return;
  }
  TensorImpl* leaf = slot.edge.leaf.get();
  auto [it, inserted] = task.leaf_index.emplace(leaf, task.leaf_grads.size());
  if (inserted) task.leaf_grads.emplace_back(slot.edge.leaf, Tensor());
  addInto(task.leaf_grads[it->second].second, grad);
}

// Runs one node's formula; errors name the operator and where its formula was registered.
void runNode(Node& node, GraphTask& task) {
  std::vector<Tensor> grads = std::move(task.output_grads[&node]);
  grads.resize(node.outputs().size());
  bool any = false;
  for (const Tensor& g : grads) any = any || g.defined();
  if (!any) return;  // nothing flowed into this call
  BackwardContext ctx(node, std::move(grads));
  try {
    node.formula()->backward(ctx);
  } catch (const Error& e) {
    throw Error(str("in the backward formula of ", node.name(), " (registered at ", node.formula()->site, "): ", e.what()),
                e.kind());
  }
  for (size_t i = 0; i < node.inputs().size(); ++i) {
    routeGradient(node, node.inputs()[i], std::move(ctx.inputGrads()[i]), task);
  }
}

// The leaf's AutogradMeta when backward should add to its grad(); null when it stopped requiring
// grad since the call was recorded.
AutogradMeta* accumulatingMeta(const TensorImplPtr& impl, const Tensor& grad) {
  const Tensor leaf(impl);
  AutogradMeta* meta = metaOf(leaf);
  if (meta == nullptr || !meta->requires_grad) return nullptr;
  const Tensor& existing = meta->grad;
  SY_CHECK(!existing.defined() || (sameSizes(existing.sizes(), grad.sizes()) && existing.scalar_type() == grad.scalar_type()),
           "backward: the grad() of a leaf (", describeTensor(leaf), ") holds ", describeTensor(existing),
           ", so the new gradient cannot be added to it; reset it with mutable_grad() = sy::Tensor()");
  return meta;
}

void accumulate(AutogradMeta& meta, const Tensor& grad) {
  if (!meta.grad.defined()) {
    meta.grad = ops::clone(grad, MemoryFormat::Contiguous);  // never shares memory with another gradient
  } else {
    ops::add_(meta.grad, grad);
  }
}

// Adds every leaf's gradient, after checking all of them, so a refused one changes none. Leaves may
// be shared with backward calls on other threads, hence the lock.
void accumulateIntoLeaves(const std::vector<std::pair<TensorImplPtr, Tensor>>& leaf_grads) {
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  std::vector<std::pair<AutogradMeta*, const Tensor*>> targets;
  for (const auto& [leaf, grad] : leaf_grads) {
    if (AutogradMeta* meta = accumulatingMeta(leaf, grad)) targets.emplace_back(meta, &grad);
  }
  for (const auto& [meta, grad] : targets) accumulate(*meta, *grad);
}

Tensor seedGradient(const Tensor& loss, const Tensor& gradient) {
  if (!gradient.defined()) {
    SY_CHECK_VALUE(loss.numel() == 1, "backward: a gradient can only be implied for a tensor of one element, but "
                   "the tensor has shape ", formatSizes(loss.sizes()), "; pass the gradient of the tensor as the "
                   "second argument");
    return ops::ones_like(loss);
  }
  SY_CHECK_VALUE(sameSizes(gradient.sizes(), loss.sizes()), "backward: the gradient has shape ",
                 formatSizes(gradient.sizes()), " but the tensor has shape ", formatSizes(loss.sizes()));
  return gradient;
}

}  // namespace
}  // namespace autograd

void backward(const Tensor& loss, const Tensor& gradient, bool retain_graph) {
  using namespace autograd;
  SY_CHECK(loss.defined(), "backward: the tensor is undefined");
  SY_CHECK(hasHistory(loss), "backward: the tensor (", describeTensor(loss), ") does not require grad and has no "
           "recorded history: none of the calls that made it had an input that requires grad, or they ran under "
           "sy::NoGradGuard");
  NoGradGuard no_grad;  // formulas' own calls are not recorded
  Tensor seed = seedGradient(loss, gradient);
  const AutogradMeta* meta = metaOf(loss);
  if (meta->grad_fn == nullptr) {  // backward of a leaf: its gradient is the seed
    const Tensor grad = seed.scalar_type() == loss.scalar_type() ? seed : ops::_to_copy(seed, loss.scalar_type());
    accumulateIntoLeaves({{loss.getIntrusivePtr(), grad}});
    return;
  }
  GraphTask task(meta->grad_fn, retain_graph);
  collectGraph(task);
  Node* const root_node = task.root.get();
  std::vector<Tensor>& root = task.output_grads[root_node];
  root.resize(root_node->outputs().size());
  root[meta->output_nr] = seed.scalar_type() == loss.scalar_type() ? seed : ops::_to_copy(seed, loss.scalar_type());

  // Ready nodes run newest first (the order they were recorded in, reversed), as PyTorch does.
  auto newer = [](Node* a, Node* b) { return a->sequenceNr() < b->sequenceNr(); };
  std::priority_queue<Node*, std::vector<Node*>, decltype(newer)> ready(newer);
  ready.push(root_node);
  while (!ready.empty()) {
    Node* node = ready.top();
    ready.pop();
    runNode(*node, task);
    for (const InputSlot& slot : node->inputs()) {
      Node* next = slot.edge.node.get();
      if (next != nullptr && --task.dependencies[next] == 0) ready.push(next);
    }
  }
  accumulateIntoLeaves(task.leaf_grads);
  task.finished = true;  // the saved values are freed as task goes, unless retained
}

}  // namespace sy
