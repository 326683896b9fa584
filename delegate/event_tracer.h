// EventTracer: where a delegate reports what happens inside it while a method runs with a recorder
// attached (ExecuTorch's EventTracer, as a delegate sees it). A delegate finds it in
// BackendExecutionContext::event_tracer, which is null when nobody records; it times its own steps
// and names each by the debug handle its blob carries for the original operator, so that a profile
// maps them back to the model.
//
//   if (sy::EventTracer* tracer = context.event_tracer) {
//     const uint64_t start = sy::EventTracer::now();
//     runNode(node);
//     tracer->log_profiling_delegate({}, node.debug_handle, start, sy::EventTracer::now());
//     tracer->log_intermediate_output_delegate({}, node.debug_handle, node_output);
//   }
//
// Recording never allocates while a method runs (a recorder that is full drops events and counts
// them), so a delegate may report every step.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "switchyard/ivalue/tensor.h"

namespace sy {

class EventTracer {
 public:
  virtual ~EventTracer() = default;
  // Nanoseconds on the monotonic clock every event of a run uses.
  static uint64_t now() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
  }
  // One step of the delegate from `start_ns` to `end_ns`, identified by its debug handle
  // `delegate_debug_id` or, when that is -1, by `name` (ExecuTorch's DelegateMappingBuilder takes
  // either). It belongs to the delegate call running now.
  virtual void log_profiling_delegate(std::string_view name, int64_t delegate_debug_id, uint64_t start_ns,
                                      uint64_t end_ns) = 0;
  // A value the delegate computed at its step `delegate_debug_id`, for numerical debugging (the
  // name is not recorded); ignored unless the recorder keeps intermediate outputs.
  virtual void log_intermediate_output_delegate(std::string_view name, int64_t delegate_debug_id, const Tensor& value) = 0;
};

}  // namespace sy
