// Internal to program/: everything a loaded Method owns. Built by Program::load_method
// (method_loader.cpp), run by Method::execute (method.cpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/core/macros.h"
#include "switchyard/delegate/backend_interface.h"
#include "switchyard/delegate/delegate_call.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/etdump.h"
#include "switchyard/program/kernel_call.h"
#include "switchyard/program/program_internal.h"
#include "switchyard/program/tensor_memory.h"

namespace sy {
namespace program_internal {

enum class InstructionKind : uint8_t { Kernel, Delegate, Move, JumpFalse, Free };

struct Instruction {
  InstructionKind kind;
  uint32_t a;  // Kernel/Delegate: index into kernel_calls/delegate_calls; Move: from; JumpFalse: condition
  uint32_t b;  // Move: to; JumpFalse: destination
  // How many instructions from this one on are kernel calls with a shape: execute() runs such a
  // run as nothing but one `shaped->run()` each (See Note [A shaped kernel call is one typed call
  // through the dispatcher]). 0 for any other instruction.
  uint32_t shaped_run = 0;
  // Kernel: kernel_calls[a].shaped; null for a boxed call.
  const ShapedKernelCall* shaped = nullptr;
};

// A delegate's backend and the handle its init returned; destroyed exactly once, with the method.
struct DelegateInstance {
  const BackendInterface* backend = nullptr;
  DelegateHandle* handle = nullptr;
  std::string backend_name;
  DelegateInstance() = default;
  DelegateInstance(const DelegateInstance&) = delete;
  DelegateInstance& operator=(const DelegateInstance&) = delete;
  ~DelegateInstance() {
    if (backend != nullptr) backend->destroy(handle);
  }
};

struct PreparedDelegateCall {
  DelegateCallFrame frame;
  std::vector<IValue*> args;       // the method's values, in the call's order
  std::vector<IValue> arguments;   // the operator's three arguments (name, index, tensors)
  // From the instruction's stack frames (See Note [A program file keeps a delegate's debug-handle
  // map in its stack traces]); frame.debug_handle_sources points here.
  std::map<int64_t, std::string> debug_handle_sources;
};

// Per input: how set_input delivers a tensor.
enum class InputBinding : uint8_t {
  Copy,   // planned or constant memory: the caller's data is copied in
  Share,  // no memory of its own: the method's tensor shares the caller's storage
  Value,  // not a tensor: the value is replaced
};

// Memory from calloc: large planned buffers cost nothing until touched.
struct FreeMemory {
  void operator()(uint8_t* p) const { std::free(p); }
};
using ZeroedBuffer = std::unique_ptr<uint8_t, FreeMemory>;

// The most a method may allocate at load (planned buffers plus tensors that get memory at run time).
inline constexpr uint64_t kMaxMethodAllocationBytes = uint64_t{1} << 34;

// An input whose planned bytes the memory plan also gives another value (See Note [Inputs whose
// memory the plan reuses are restored before each execute], method.cpp).
struct ReusedInput {
  uint32_t input = 0;  // index among the method's inputs
  uint32_t value = 0;  // the first other value planned over its bytes, for messages
  ZeroedBuffer copy;   // what set_input last gave, at the input's bound
  size_t capacity = 0;  // bytes of `copy`
  bool fresh = true;   // the planned bytes hold it (no execute since set_input)
};

struct MethodState {
  std::shared_ptr<const ProgramData> program;
  std::vector<std::shared_ptr<const DataFile>> data_files;
  std::string name;
  std::string where;  // "program 'x.pte': method 'forward'"
  std::vector<ZeroedBuffer> owned_buffers;
  std::vector<Storage> owned_storages;  // the memory of tensors with neither a plan nor data
  // The allocators of the tensors the method holds memory for (See Note [A method's tensors change
  // sizes within the memory planned for them]); before `values`, whose storages point at them.
  std::vector<std::unique_ptr<BoundedMemory>> tensor_memory;
  std::vector<IValue> values;
  std::vector<std::vector<int32_t>> list_items;  // per value: the indices a list value refers to
  std::vector<uint32_t> inputs;
  std::vector<InputBinding> input_bindings;
  std::vector<TensorBound> input_bounds;  // per input; a non-tensor input's is empty
  std::vector<ReusedInput> reused_inputs;
  std::vector<uint32_t> outputs;
  std::vector<Instruction> instructions;
  std::vector<std::string> instruction_names;  // "instruction 3 (aten::add.out)", for errors
  // Per instruction, for recording (See Note [Profiles cost nothing when off and allocate nothing
  // when on], program/etdump.h): its chain and index in it, the operator or backend it calls (""
  // for the others), and the tensor values a kernel call writes.
  std::vector<std::pair<uint32_t, int32_t>> instruction_places;
  std::vector<std::string> instruction_ops;
  std::vector<std::vector<uint32_t>> instruction_writes;
  // Attached by Method::set_event_tracer; null when nothing records. The names it interned, per
  // instruction: the event's ("OPERATOR_CALL", ...) and the operator's.
  ETDumpRecorder* recorder = nullptr;
  std::vector<std::pair<uint32_t, uint32_t>> recorder_names;
  std::vector<PreparedKernelCall> kernel_calls;
  std::vector<PreparedDelegateCall> delegate_calls;
  Stack stack;
  // True while execute() or set_input() runs.
  // See Note [A Method runs one call at a time] (program/method.cpp).
  std::atomic<bool> busy{false};
  // Last, so that delegates are destroyed first, while everything they might refer to still exists.
  std::vector<std::unique_ptr<DelegateInstance>> delegates;
};

// OK unless `plan` places a tensor or planned buffer on another device than the CPU; the error
// starts with `where` (See Note [Programs placed on other devices are refused], method_devices.cpp).
absl::Status refuseOtherDevices(const pte::ExecutionPlan& plan, const std::string& where);

// Runs the method's instructions recording each into m.recorder (program/method_recorded.cpp).
absl::Status executeRecorded(MethodState& m);

// Note [One instruction step serves the plain and the recorded loop]
// Method::execute (method.cpp) and executeRecorded (method_recorded.cpp) walk the same
// instructions; what one instruction does is written once, here, so a fix to it reaches both. The
// plain loop runs runs of shaped kernel calls itself before it gets here (its fast path); the
// recorded loop sends every instruction here. Returns the instruction to run next.
SY_ALWAYS_INLINE inline const Instruction* runInstruction(MethodState& m, const Instruction* begin,
                                                          const Instruction* end, const Instruction* ins) {
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
      // In range, as the loader checked; the min keeps that an invariant of the loops too.
      if (!m.values[ins->a].toBool()) return begin + std::min<size_t>(ins->b, static_cast<size_t>(end - begin));
      break;
    case InstructionKind::Free:
      break;
  }
  return ins + 1;
}

}  // namespace program_internal
}  // namespace sy
