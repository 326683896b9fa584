// AutogradMeta: what autograd keeps on a tensor (whether it requires grad, its gradient, the
// recorded call that made it, its view relations), and the helpers that read and change it.
//
//   sy::autograd::AutogradMeta* meta = sy::autograd::metaOf(t);   // null: autograd never saw t
//   bool recorded = sy::autograd::hasHistory(t);                   // a leaf requiring grad or a result
//
// It hangs off TensorImpl behind one pointer (see Note [Autograd state lives behind one pointer],
// ivalue/tensor_impl.h), and a tensor carries its backend's autograd key exactly while it requires
// grad (see Note [Only tensors that require grad carry an autograd key], autograd/autograd.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "switchyard/ivalue/tensor.h"

namespace sy::autograd {

class Node;

// How many recorded views of one tensor are alive; shared by the tensor and its views.
using ViewCount = std::atomic<int64_t>;

struct AutogradMeta final : AutogradMetaInterface {
  ~AutogradMeta() override;

  // A leaf whose gradient the user asked for (requires_grad_()).
  bool requires_grad = false;
  // What backward accumulated into this tensor (leaves only).
  Tensor grad;
  // The recorded call that made this tensor, and which of its outputs it is (null for leaves).
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  // Counts the live recorded views of this tensor, views of views included (made lazily, when the
  // first one is recorded). Only a tensor that is not itself a view has one.
  std::shared_ptr<ViewCount> live_views;
  // For a recorded view: the live_views of its first base, the tensor that is not a view which it
  // (or the view it was made from, and so on) views; decremented when it dies. One counter, however
  // long the chain of views: see Note [A view counts against its first base only].
  std::shared_ptr<ViewCount> view_of;

  bool isView() const { return view_of != nullptr; }
  bool hasLiveViews() const { return live_views != nullptr && live_views->load(std::memory_order_relaxed) > 0; }
};

// The tensor's AutogradMeta, or null when autograd never touched it.
inline AutogradMeta* metaOf(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}
// Creates the AutogradMeta when missing.
AutogradMeta& ensureMeta(const Tensor& t);

// Held while changing what several threads' graphs may share: a leaf's grad() when backward adds
// to it, and a tensor's view counter when a view of it is recorded. Tensors of one thread's own
// computation need no lock; these are the places where two threads' backward or recording meet.
std::mutex& sharedStateMutex();

// True for a leaf that requires grad and for a tensor a recorded call made: the tensors whose
// gradient backward can compute.
inline bool hasHistory(const Tensor& t) {
  const AutogradMeta* meta = metaOf(t);
  return meta != nullptr && (meta->requires_grad || meta->grad_fn != nullptr);
}

// Adds or removes the autograd key of the tensor's backend, keeping it in step with hasHistory.
void syncAutogradKey(const Tensor& t);

// A new TensorImpl over the same memory and geometry, with the same key set minus the autograd
// keys and no AutogradMeta: Tensor::detach, and how a node keeps its own results without
// pointing back at itself.
Tensor detachedAlias(const Tensor& t);

// "(2, 3) Float" and friends for messages.
std::string describeTensor(const Tensor& t);

}  // namespace sy::autograd
