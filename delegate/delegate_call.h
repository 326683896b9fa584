// The operator through which a method runs a delegate, so that delegated work is an operator call
// like any other: the profiler times it, a tracer records it, a fallback can intercept it.
//
//   higher_order::executorch_call_delegate(str backend, int delegate_index, Tensor[] tensors) -> ()
//
// (PyTorch's spelling of the same higher-order operator.) A Method's DelegateCall instruction
// calls it with the backend's name, the delegate's index in the method and the call's tensor
// arguments; its CPU kernel runs the backend's execute on the method's values.
//
// Note [Delegate calls go through the dispatcher]
// The backend's handle and the call's argument pointers cannot travel in a schema's types, so the
// method publishes them for the duration of the call in a thread-local DelegateCallFrame, which
// the kernel reads; the operator's arguments are what an observer needs (which backend, which
// delegate, which tensors). Called directly, outside a DelegateCall, the kernel finds no frame and
// raises an error saying so. The tensors decide the dispatch keys as for any operator, and CPU is
// always among them, so a delegate whose arguments are all non-tensors still reaches the kernel.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/delegate/backend_interface.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy {

struct DelegateCallFrame {
  const BackendInterface* backend = nullptr;
  DelegateHandle* handle = nullptr;
  BackendExecutionContext context;
  absl::Span<IValue*> args;
  // The delegate's debug handle -> the original operators behind it ("aten::add.Tensor (node 'add')
  // at model.cpp:12"), for errors that carry one (delegate/delegate_debug_handle.h); may be null.
  const std::map<int64_t, std::string>* debug_handle_sources = nullptr;
};

// The operator's handle (valid for the life of the process).
const OperatorHandle& delegateCallOperator();

// Calls the operator for `frame` with `stack` holding its three arguments (backend name, delegate
// index, tensor list); the backend's error comes back as a sy::Error naming backend and delegate.
void callDelegateThroughDispatcher(const DelegateCallFrame& frame, Stack& stack);

// For observers of the operator (the profiler): the debug handles of the original operators the
// delegate call running on this thread stands for (its frame's debug-handle map, in order), or
// nothing outside a delegate call or when the program recorded none.
std::vector<int64_t> currentDelegateDebugHandles();

}  // namespace sy
