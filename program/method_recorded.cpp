// Method::execute with a recorder attached: the same instructions as the loop in method.cpp, one
// at a time (See Note [One instruction step serves the plain and the recorded loop],
// method_state.h), each timed and recorded. See Note [Profiles cost nothing when off and allocate
// nothing when on] (program/etdump.h).
#include "switchyard/core/error.h"
#include "switchyard/core/error_status.h"
#include "switchyard/program/method_state.h"

namespace sy {
namespace program_internal {

absl::Status executeRecorded(MethodState& m) {
  ETDumpRecorder& recorder = *m.recorder;
  const Instruction* const begin = m.instructions.data();
  const Instruction* const end = begin + m.instructions.size();
  const Instruction* ins = begin;
  recorder.beginRun();
  try {
    while (ins != end) {
      const size_t pc = static_cast<size_t>(ins - begin);
      recorder.enterInstruction(m.instruction_places[pc].first, m.instruction_places[pc].second);
      const uint64_t start = EventTracer::now();
      const Instruction* const next = runInstruction(m, begin, end, ins);
      recorder.recordInstruction(m.recorder_names[pc].first, start, EventTracer::now());
      if (recorder.keepsOutputs()) {
        for (uint32_t v : m.instruction_writes[pc]) recorder.recordOutput(m.recorder_names[pc].second, v, m.values[v].toTensor(), false);
      }
      ins = next;
    }
  } catch (const std::exception& e) {
    m.stack.clear();
    recorder.endRun();
    // See Note [An error keeps its kind across every boundary]
    return statusOf(e, sy::str(m.where, ": ", m.instruction_names[static_cast<size_t>(ins - begin)], " failed: "));
  }
  if (recorder.keepsOutputs()) {
    const uint32_t none = recorder.intern("");  // interned when the method attached: see set_event_tracer
    for (uint32_t v : m.outputs) {
      if (m.values[v].isTensor()) recorder.recordOutput(none, v, m.values[v].toTensor(), true);
    }
  }
  recorder.endRun();
  return absl::OkStatus();
}

}  // namespace program_internal
}  // namespace sy
