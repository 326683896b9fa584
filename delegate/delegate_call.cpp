#include "switchyard/delegate/delegate_call.h"

#include "switchyard/core/error_status.h"
#include "switchyard/delegate/delegate_debug_handle.h"
#include "switchyard/dispatcher/call_label.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/library.h"

namespace sy {

namespace {

thread_local const DelegateCallFrame* current_frame = nullptr;

// Publishes a frame for the length of one call, restoring the previous one (a delegate may run a
// method that runs delegates).
class FrameScope {
 public:
  explicit FrameScope(const DelegateCallFrame* frame) : previous_(current_frame) { current_frame = frame; }
  ~FrameScope() { current_frame = previous_; }

 private:
  const DelegateCallFrame* previous_;
};

void runDelegate(const OperatorHandle& op, Stack* stack) {
  const DelegateCallFrame* frame = current_frame;
  SY_CHECK(frame != nullptr, "higher_order::executorch_call_delegate runs a delegate for a Method's DelegateCall "
                             "instruction; it cannot be called on its own");
  // Inputs and outputs are the method's values (frame->args); the stack's copies are for observers.
  BackendExecutionContext context = frame->context;
  absl::Status status = frame->backend->execute(context, frame->handle, frame->args);
  drop(stack, 3);
  if (status.ok()) return;
  std::string where;
  if (std::optional<int64_t> debug_handle = delegateDebugHandleOf(status)) {
    std::string origin = "maps to no operator the program recorded";
    if (const std::map<int64_t, std::string>* sources = frame->debug_handle_sources; sources != nullptr) {
      if (auto it = sources->find(*debug_handle); it != sources->end()) origin = "is " + it->second;
    }
    where = sy::str("; the delegate's debug handle ", *debug_handle, " ", origin);
  }
  // Raised with the status's code, which Method::execute returns (See Note [An error keeps its kind
  // across every boundary]).
  throw StatusError(sy::str("delegate ", frame->context.delegate_index, " of method '", frame->context.method_name,
                            "' failed in its backend's execute: ", absl::StatusCodeToString(status.code()), ": ",
                            status.message(), where),
                    status.code(), errorKindOf(status));
}

}  // namespace

SY_LIBRARY(higher_order, m) {
  m.def("executorch_call_delegate(str backend, int delegate_index, Tensor[] tensors) -> ()");
}

SY_LIBRARY_IMPL(higher_order, CPU, m) {
  m.impl("executorch_call_delegate", CppFunction::makeFromBoxedFunction<&runDelegate>());
}

const OperatorHandle& delegateCallOperator() {
  static const OperatorHandle handle =
      Dispatcher::singleton().operatorHandleFor(OperatorName{"higher_order::executorch_call_delegate", ""});
  return handle;
}

namespace {

// A delegate call is named by its backend and delegate index, with the debug handles of the
// operators it runs (See Note [Delegate calls are profiled by backend and index] in fallback/profiler.h).
bool labelDelegateCall(const Stack& args, CallLabel& label) {
  if (args.size() < 3) return false;
  const IValue& backend = args[args.size() - 3];
  const IValue& index = args[args.size() - 2];
  if (!backend.isString() || !index.isInt()) return false;
  label.name = sy::str(backend.toStringRef(), "#", index.toInt());
  label.category = "delegate";
  label.debug_handles = currentDelegateDebugHandles();
  return true;
}

const bool delegate_call_labeled = [] {
  registerCallLabeler(delegateCallOperator(), &labelDelegateCall);
  return true;
}();

}  // namespace

std::vector<int64_t> currentDelegateDebugHandles() {
  std::vector<int64_t> handles;
  if (current_frame == nullptr || current_frame->debug_handle_sources == nullptr) return handles;
  for (const auto& [handle, source] : *current_frame->debug_handle_sources) handles.push_back(handle);
  return handles;
}

void callDelegateThroughDispatcher(const DelegateCallFrame& frame, Stack& stack) {
  FrameScope scope(&frame);
  const OperatorHandle& op = delegateCallOperator();
  const OperatorEntry& entry = op.entry();
  // See Note [Delegate calls go through the dispatcher]: CPU is always a candidate key.
  DispatchKeySet ks = entry.computeDispatchKeySet(entry.keySetFromStack(stack) | DispatchKeySet(DispatchKey::CPU));
  op.redispatchBoxed(ks, &stack);
}

}  // namespace sy
