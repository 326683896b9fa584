// Autograd: gradients of any computation written as operator calls, recorded by one boxed
// fallback on the Autograd keys and computed by backward formulas registered per operator.
//
//   sy::Tensor w = sy::full({3, 1}, 0.5);
//   w.requires_grad_();                                       // a leaf: backward fills w.grad()
//   sy::Tensor loss = sy::ops::mean(sy::ops::mul(sy::ops::mm(x, w), y));
//   sy::backward(loss);                                       // or loss.backward()
//   {
//     sy::NoGradGuard no_grad;                                // the update itself is not recorded
//     sy::ops::sub_(w, w.grad(), /*alpha=*/0.1);
//   }
//   w.mutable_grad() = sy::Tensor();                          // gradients accumulate until reset
//
// Note [Only tensors that require grad carry an autograd key]
// A tensor carries its backend's autograd key (AutogradCPU for a CPU tensor) exactly while it
// requires grad: from requires_grad_() on a leaf, or because a recorded call made it. Nothing
// else adds the key (a view kernel copies its base's keys without the autograd ones), so a call
// whose arguments do not require grad never has an autograd key in its key set and goes straight
// to its backend: the autograd layer costs it nothing, not one instruction (bench/README.md
// measures it). NoGradGuard and InferenceMode exclude the keys in the thread's set, so tensors
// that do require grad also run at full speed inside them, and nothing is recorded.
//
// When an argument does require grad, the call reaches the boxed fallback registered on every
// autograd key (autograd/autograd_fallback.cpp). It reads the schema to find the tensor
// arguments, keeps what the operator's formula declared it needs (see autograd/formula.h), calls
// the operator below the autograd keys with them excluded (so the kernels' own inner calls are not
// recorded), and gives each floating-point result the recorded Node as its grad_fn. That is the
// tape: a graph of Nodes reachable from the results, freed when they are. sy::backward walks it
// from the loss in dependency order, runs each node's formula, checks and converts the gradients
// it returns, and accumulates into the leaves' grad() only once every formula has succeeded, so a
// failed backward leaves every gradient as it was. An operator without a formula is recorded like
// any other and raises, naming itself, when backward reaches it.
//
// Mutation is where a generic recorder has to be careful; what it refuses, it refuses before the
// kernel runs, with the operator and argument named:
//  - an out= form with an argument that requires grad (call the functional form);
//  - an in-place write into a leaf that requires grad (do it under NoGradGuard, as an optimizer
//    step does), into a recorded view or a tensor with live recorded views, or into a tensor
//    without history that shares its memory with another one while an input requires grad.
// Any other in-place call is recorded like its functional twin, its written tensor taking the new
// node as its history, and bumps its memory's version
// (see Note [Version counters live on the Storage], ivalue/storage.h); a saved tensor written since
// it was saved fails backward with the operator that saved it named. What the version check cannot see: writes made under
// NoGradGuard/InferenceMode, and writes into tensors that do not require grad, since neither passes
// through the autograd key; do not modify a tensor a graph has saved until its backward is done.
//
// Not supported: gradients of gradients (backward runs with recording off), retain_grad on
// non-leaves, sparse or complex gradients.
#pragma once

#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

// Computes the gradient of `loss` with respect to every leaf that requires grad and that it was
// computed from, and adds it to the leaf's grad(). Without `gradient`, loss must hold one element
// (its gradient is 1). With retain_graph false the saved tensors are freed, and a second backward
// through the same calls is an error; so is one racing it on another thread that reaches a node
// after this one started (See Note [A backward that frees the graph claims it], autograd/node.cpp).
void backward(const Tensor& loss, const Tensor& gradient = Tensor(), bool retain_graph = false);

// Takes the autograd keys out of this thread's dispatch for its lifetime: nothing is recorded,
// and tensors that require grad cost what others do.
class NoGradGuard {
 public:
  NoGradGuard() : guard_(kAutogradKeys) {}

 private:
  ExcludeDispatchKeyGuard guard_;
};

// PyTorch's name for the same guard. Tensors made inside are ordinary tensors (PyTorch's
// "inference tensors" restrictions are not enforced).
class InferenceMode {
 public:
  InferenceMode() : guard_(kAutogradKeys) {}

 private:
  ExcludeDispatchKeyGuard guard_;
};

// False inside a NoGradGuard or InferenceMode.
inline bool isGradEnabled() { return (localDispatchKeySet().excludedSet() & kAutogradKeys).empty(); }

}  // namespace sy
