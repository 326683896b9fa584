// Internal to export/: what a running Capture has recorded, shared by the Capture class
// (capture.cpp) and the Tracer key's fallback that records into it (tracer_fallback.cpp).
//
// Note [Capture functionalises what it records]
// The graph a capture builds is functional (See Note [Graphs are functional]) while the model's
// eager calls are not, so the fallback translates:
// - A view (`view`, `permute`, `transpose.int`, ...) is recorded as a node whose result is a value
//   of its own. The eager result still shares memory with its base, which is only observable
//   through a write; so a write is refused when another tensor the model still holds shares the
//   written tensor's memory (the capture holds one reference to every tensor it has seen, and a
//   use count above one means the model holds another).
// - An in-place or out= call (`add_`, `relu_`, `add.out`) is recorded as its functional form
//   (See Note [Operator variants are matched by schema]); the written tensor then stands for the
//   node's new value, so later reads of it read the new value. Writes to user inputs and
//   parameters are refused: a program's inputs and weights do not change when it runs.
// - An operator that reads only constants (or no tensor at all: `zeros`, `arange`) is not
//   recorded; it runs, and its result is a constant if the graph ever reads it.
// - A tensor the capture has never seen, which shares memory with one the graph computes, was
//   made behind the dispatcher's back (a view built on the TensorImpl): reading it is refused,
//   since its contents depend on the example inputs and a constant would freeze them.
// Tensors are recognised by their TensorImpl; the capture keeps every tensor it has seen alive,
// so no address is reused for another tensor while it runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/graph.h"

namespace sy::export_ {

struct Capture::State {
  Graph graph;
  std::map<std::string, Tensor> state;
  std::unordered_map<const TensorImpl*, ValueId> value_of;
  std::vector<Tensor> held;  // every tensor value_of names, kept alive
  int next_constant = 0;
  bool finished = false;

  std::unique_ptr<class TracerRegistration> registration;
  std::unique_ptr<IncludeDispatchKeyGuard> include_tracer;
  std::unique_ptr<SourceScope> outer_scope;

  // The value `t` stands for: a known one, or a freshly lifted constant. Raises when `t` shares
  // memory with a computed value without being one (See Note [Capture functionalises what it records]).
  ValueId valueFor(const Tensor& t, const std::string& what);
  // Whether the value is a user input, parameter or node result (not a lifted constant).
  bool isComputed(ValueId v) const;
  // Whether `t`, which the capture has not seen, shares memory with a user input, a parameter or
  // a node's result.
  bool sharesMemoryWithComputedValue(const Tensor& t) const;
  // Whether a call of `op` is recorded as the calls its kernel makes (tracer_fallback.cpp).
  bool decomposes(const OperatorHandle& op);
  std::unordered_map<const OperatorEntry*, bool> decomposes_cache;
  // `t` now stands for `v`.
  void bind(const Tensor& t, ValueId v);
  // The placeholder kind, when `v` is one.
  std::optional<InputKind> placeholderKind(ValueId v) const;
  // Records one operator call whose arguments are the top of `stack`, runs it, and leaves its
  // results there (tracer_fallback.cpp).
  void record(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
};

// The Tracer key's fallback, registered while at least one capture runs in the process. Raises,
// naming the other registration, when someone else's Tracer fallback is in place.
class TracerRegistration {
 public:
  TracerRegistration();
  ~TracerRegistration();
  TracerRegistration(const TracerRegistration&) = delete;
  TracerRegistration& operator=(const TracerRegistration&) = delete;
};

namespace detail {
// The capture running on this thread, or nullptr.
Capture::State*& activeCapture();
}  // namespace detail

}  // namespace sy::export_
