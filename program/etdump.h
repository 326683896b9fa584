// ETDumpRecorder: records a method's runs as ETDump, the profile and debug format of ExecuTorch's
// devtools (program/schema/etdump.fbs), so that ExecuTorch's Inspector reads a Switchyard run.
//
//   sy::ETDumpRecorder recorder({.debug_buffer_bytes = 1 << 20});  // 0: no intermediate outputs
//   method.set_event_tracer(&recorder);
//   method.execute();                              // one RunData: the run and every instruction timed
//   method.set_event_tracer(nullptr);
//   absl::Status s = recorder.write("run.etdp", "debug.bin");  // Inspector(etdump_path, debug_buffer_path)
//
// Note [Profiles cost nothing when off and allocate nothing when on]
// A method without a recorder runs exactly as before: execute() tests one pointer per run, not per
// instruction, and takes its usual loop. With one, execute() takes another loop
// (program/method_recorded.cpp) that reads the clock around each instruction and appends a
// fixed-size event to the recorder's event array, reserved when the recorder was made; names are
// interned when the method attaches (Method::set_event_tracer), so events carry indices.
// Intermediate outputs (each tensor a kernel call writes, and the method's outputs, when
// debug_buffer_bytes > 0) are copied into a debug buffer reserved the same way. A recorder that is
// full drops further events and counts them (dropped_events()), so recording never allocates while
// a method runs and never makes it fail.
//
// What a run records is what ExecuTorch's runtime records: a RunData "Execute" per execute, with a
// ProfileEvent per instruction named OPERATOR_CALL, DELEGATE_CALL, MOVE_CALL, JF_CALL or
// FREE_CALL, carrying chain_index and instruction_id (its index in its chain: the key the
// Inspector maps to debug handles through an ETRecord), one ProfileEvent per step a delegate
// reports through BackendExecutionContext::event_tracer (delegate/event_tracer.h) with that step's
// debug handle (delegate_debug_id_int) or name (delegate_debug_id_str) under the delegate call's
// instruction_id, and a "Method::execute" ProfileEvent for the whole run. With a debug buffer,
// each tensor a kernel call writes is a DebugEvent named by the operator, whose Value holds the
// tensor's dtype, sizes, strides and offset in the buffer (tensors are copied as they lie, dense
// in their dim order, so the strides written are their own), and each method output one whose
// Value is marked `output`. Times are nanoseconds of a monotonic clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "switchyard/delegate/event_tracer.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

class ETDumpRecorder final : public EventTracer {
 public:
  struct Options {
    size_t max_events = size_t{1} << 16;      // across all runs; later events are dropped
    size_t debug_buffer_bytes = 0;            // for intermediate outputs; 0 records none
    size_t max_step_name_bytes = size_t{1} << 16;  // for the names delegates give their steps
  };
  ETDumpRecorder() : ETDumpRecorder(Options{}) {}
  explicit ETDumpRecorder(Options options);

  // What was recorded, in order.
  struct Event {
    enum class Kind : uint8_t { Run, Instruction, DelegateStep, Output };
    Kind kind = Kind::Instruction;
    bool method_output = false;  // Output: one of the method's outputs
    int8_t dtype = 0;            // Output: the program format's ScalarType code
    uint32_t run = 0;            // which execute since the recorder was made (0, 1, ...)
    uint32_t chain = 0;
    int32_t instruction = -1;    // its index in its chain; -1 for a run
    int64_t delegate_debug_id = -1;
    // Run, Instruction, Output: index into names(); DelegateStep: see stepName().
    uint32_t name = 0;
    uint32_t name_length = 0;    // DelegateStep: 0 when the step is named by its debug handle only
    uint32_t value = UINT32_MAX; // Output: the method's value, or UINT32_MAX for a delegate's own
    uint64_t start_ns = 0, end_ns = 0;
    uint32_t dims = 0, rank = 0;  // Output: sizes at dims_[dims], strides at dims_[dims + rank]
    uint64_t debug_offset = 0;    // Output: where its bytes are in debug_buffer()
  };
  const std::vector<Event>& events() const { return events_; }
  const std::vector<std::string>& names() const { return names_; }
  std::string_view stepName(const Event& e) const { return std::string_view(step_names_.data() + e.name, e.name_length); }
  absl::Span<const uint8_t> debug_buffer() const { return debug_; }
  absl::Span<const int64_t> sizesOf(const Event& e) const { return absl::MakeConstSpan(dims_).subspan(e.dims, e.rank); }
  absl::Span<const int64_t> stridesOf(const Event& e) const {
    return absl::MakeConstSpan(dims_).subspan(e.dims + e.rank, e.rank);
  }
  size_t runs() const { return runs_; }
  size_t dropped_events() const { return dropped_; }

  // The ETDump of every run so far: a size-prefixed FlatBuffers buffer (identifier ED00).
  std::vector<uint8_t> etdump() const;
  // Writes etdump() to `etdump_path` and, when `debug_buffer_path` is not empty, the debug buffer
  // there; errors name the path.
  absl::Status write(const std::string& etdump_path, const std::string& debug_buffer_path = "") const;

  // EventTracer, for delegates.
  void log_profiling_delegate(std::string_view name, int64_t delegate_debug_id, uint64_t start_ns,
                              uint64_t end_ns) override;
  void log_intermediate_output_delegate(std::string_view name, int64_t delegate_debug_id, const Tensor& value) override;

  // For Method (program/), not for users.
  // The index of `name` in names(), added if new (allocates: only when a method attaches).
  uint32_t intern(std::string_view name);
  bool keepsOutputs() const { return options_.debug_buffer_bytes > 0; }
  void beginRun();
  void endRun();
  // Instruction `instruction` of chain `chain` starts: what delegates report belongs to it.
  void enterInstruction(uint32_t chain, int32_t instruction) {
    chain_ = chain;
    instruction_ = instruction;
  }
  void recordInstruction(uint32_t name, uint64_t start_ns, uint64_t end_ns);
  void recordOutput(uint32_t name, uint32_t value, const Tensor& t, bool method_output);

 private:
  bool room();

  Options options_;
  std::vector<Event> events_;      // reserved: max_events
  std::vector<std::string> names_;
  std::vector<char> step_names_;   // reserved: max_step_name_bytes
  std::vector<uint8_t> debug_;     // reserved: debug_buffer_bytes
  std::vector<int64_t> dims_;      // reserved with the debug buffer
  size_t runs_ = 0;
  size_t dropped_ = 0;
  uint64_t run_start_ns_ = 0;
  uint32_t chain_ = 0;
  int32_t instruction_ = -1;
};

}  // namespace sy
