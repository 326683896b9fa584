// Method::execute with a recorder attached: the same instructions as the loop in method.cpp, one
// at a time, each timed and recorded. See Note [Profiles cost nothing when off and allocate
// nothing when on] (program/etdump.h).
#include <algorithm>

#include "switchyard/core/error.h"
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
      const Instruction* next = ins + 1;
      const uint64_t start = EventTracer::now();
      switch (ins->kind) {
        case InstructionKind::Kernel:
          if (ins->shaped != nullptr) {
            ins->shaped->run();
          } else {
            runBoxedKernelCall(m.kernel_calls[ins->a], m.stack, m.values);
          }
          break;
        case InstructionKind::Delegate: {
          const PreparedDelegateCall& call = m.delegate_calls[ins->a];
          for (const IValue& argument : call.arguments) m.stack.emplace_back(argument);
          callDelegateThroughDispatcher(call.frame, m.stack);
          m.stack.clear();
          break;
        }
        case InstructionKind::Move:
          m.values[ins->b] = m.values[ins->a];
          break;
        case InstructionKind::JumpFalse:
          if (!m.values[ins->a].toBool()) next = begin + std::min<size_t>(ins->b, m.instructions.size());
          break;
        case InstructionKind::Free:
          break;
      }
      recorder.recordInstruction(m.recorder_names[pc].first, start, EventTracer::now());
      if (recorder.keepsOutputs()) {
        for (uint32_t v : m.instruction_writes[pc]) recorder.recordOutput(m.recorder_names[pc].second, v, m.values[v].toTensor(), false);
      }
      ins = next;
    }
  } catch (const std::exception& e) {
    m.stack.clear();
    recorder.endRun();
    return absl::InternalError(
        sy::str(m.where, ": ", m.instruction_names[static_cast<size_t>(ins - begin)], " failed: ", e.what()));
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
