// Method: setting inputs, running instructions, reading outputs (see method.h).
#include "switchyard/program/method.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "switchyard/core/error.h"
#include "switchyard/core/error_status.h"
#include "switchyard/core/macros.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/program/method_state.h"

namespace sy {

using program_internal::InputBinding;
using program_internal::InstructionKind;
using program_internal::MethodState;

// Note [A Method runs one call at a time]
// A Method's values, planned memory and argument stack are shared by all its calls: two threads
// executing one Method at once wrote the same memory (a heap-use-after-free on the shared stack),
// and even a lock would hand both callers one set of outputs, each overwriting the other's. So a
// Method refuses instead of waiting: execute() and set_input() take the method for their duration
// with one atomic exchange (acquire) and give it back with one store (release), and a call that
// finds it taken returns FailedPrecondition naming the method; get_output and get_input raise
// sy::Error then. To run a program on several threads at once, load one Method per thread
// (Program::load_method). The cost is those two operations and a branch per execute(), 7
// instructions under callgrind (bench/overhead.py's program target, a 16-call method: +0.44 per
// call), nothing per instruction. The acquire and release also make a Method handed from one
// thread to another between calls see everything the previous call wrote.
namespace {

// Takes the method for one call; false when another thread holds it.
bool takeMethod(MethodState& m) { return !m.busy.exchange(true, std::memory_order_acquire); }

// Gives the method back when the call that took it returns, however it returns.
struct HeldMethod {
  explicit HeldMethod(MethodState& method) : m(method) {}
  HeldMethod(const HeldMethod&) = delete;
  HeldMethod& operator=(const HeldMethod&) = delete;
  ~HeldMethod() { m.busy.store(false, std::memory_order_release); }
  MethodState& m;
};

// "program 'x.pte': method 'forward': execute() refused: ..." for a call that found the method taken.
std::string busyMessage(const MethodState& m, const std::string& call) {
  return sy::str(m.where, ": ", call, " refused: another thread is running execute() or set_input() on this method; "
                 "a Method runs one call at a time (load one Method per thread with Program::load_method to run the "
                 "program on several threads)");
}

void checkNotBusy(const MethodState& m, const char* call, size_t index) {
  SY_CHECK(!m.busy.load(std::memory_order_acquire), busyMessage(m, sy::str(call, "(", index, ")")));
}

}  // namespace

Method::Method(std::unique_ptr<MethodState> state) : state_(std::move(state)) {}
Method::Method(Method&&) noexcept = default;
Method& Method::operator=(Method&&) noexcept = default;
Method::~Method() = default;

const std::string& Method::name() const { return state_->name; }
size_t Method::inputs_size() const { return state_->inputs.size(); }
size_t Method::outputs_size() const { return state_->outputs.size(); }

namespace {

absl::Status setTensorInput(const MethodState& m, size_t index, Tensor& dst, const Tensor& src) {
  // Messages are built only on failure: setting an input allocates nothing.
  auto where = [&] { return sy::str(m.where, ": input ", index); };
  if (!src.defined()) return absl::InvalidArgumentError(sy::str(where(), " expects a tensor, but the one given is undefined"));
  if (src.dtype() != dst.dtype()) {
    return absl::InvalidArgumentError(sy::str(where(), " expects a ", toString(dst.dtype()), " tensor, but the one given is ",
                                                   toString(src.dtype())));
  }
  // See Note [A method's tensors change sizes within the memory planned for them].
  const program_internal::TensorBound& bound = m.input_bounds[index];
  if (auto s = program_internal::checkSizesWithin(bound, src.sizes(), where); !s.ok()) return s;
  if (!src.is_cpu()) {
    return absl::InvalidArgumentError(sy::str(where(), ": the tensor given is on ", src.device().str(),
                                                   "; copy it to the CPU first"));
  }
  TensorImpl* impl = dst.unsafeGetTensorImpl();
  if (m.input_bindings[index] == InputBinding::Share) {
    impl->set_storage(src.storage());
    impl->set_sizes_and_strides(src.sizes(), src.strides(), src.storage_offset());
    return absl::OkStatus();
  }
  if (src.is_same(dst)) return absl::OkStatus();
  try {
    if (!sameSizes(src.sizes(), dst.sizes())) {
      // Within the bound (checked above), so within the tensor's memory, but for an unbounded
      // input (See Note [Unbounded tensors get memory at run time]), whose storage grows here.
      const SizesVector strides = checkedStridesInDimOrder("set_input", src.sizes(), bound.dim_order);
      const int64_t numel = checkedNumel("set_input", src.sizes());
      impl->storage()->reserve(checkedStorageBytes("set_input", dst.storage_offset(), numel, dst.dtype(), src.sizes()));
      impl->set_sizes_and_strides(src.sizes(), strides, dst.storage_offset());
    }
    if (sameSizes(src.strides(), dst.strides()) && src.is_contiguous()) {
      // An input without elements may have no data at all: memmove's pointers must not be null.
      if (src.numel() > 0) {
        std::memmove(dst.data_ptr(), src.data_ptr(), static_cast<size_t>(src.numel()) * src.element_size());
      }
      return absl::OkStatus();
    }
    dst.copy_(src);
  } catch (const std::exception& e) {
    return statusOf(e, sy::str(where(), ": copying the tensor in failed: "));
  }
  return absl::OkStatus();
}

// Note [Inputs whose memory the plan reuses are restored before each execute]
// ExecuTorch's memory planner gives bytes to values by lifetime within one execute, and an input's
// life ends at its last reader: a later value may be planned over it (xor_training.pte plans a
// gather's index input where an intermediate goes later). Run once, that is sound; run again
// without set_input, the method would read what the intermediate left there, and a training loop
// that sets its inputs once would train on garbage from the second step. So the loader finds each
// planned input that shares bytes with another value and gives it a copy (at its bound, allocated
// at load); set_input keeps the copy up to date, and execute() puts the copy back first when an
// execute has run since the input was set. Setting inputs before every execute costs one more copy
// in set_input and nothing in execute; running again without setting them costs one copy per such
// input. Methods without such inputs pay one branch per execute. MethodMeta::inputs_reused lists
// them, and `switchyard inspect` says so.
void keepReusedInput(MethodState& m, size_t index) {
  for (program_internal::ReusedInput& r : m.reused_inputs) {
    if (r.input != index) continue;
    const Tensor& input = m.values[m.inputs[index]].toTensor();
    // Within the bound (set_input checked it), so within the copy; the min keeps that local.
    const size_t nbytes = std::min(r.capacity, static_cast<size_t>(input.numel()) * input.element_size());
    if (nbytes > 0) std::memcpy(r.copy.get(), input.data_ptr(), nbytes);
    r.fresh = true;
  }
}

void restoreReusedInputs(MethodState& m) {
  for (program_internal::ReusedInput& r : m.reused_inputs) {
    if (!r.fresh) {
      const Tensor& input = m.values[m.inputs[r.input]].toTensor();
      const size_t nbytes = std::min(r.capacity, static_cast<size_t>(input.numel()) * input.element_size());
      if (nbytes > 0) std::memcpy(input.data_ptr(), r.copy.get(), nbytes);
    }
    r.fresh = false;  // the execute about to run may write over it
  }
}

}  // namespace

absl::Status Method::set_input(size_t index, const IValue& value) {
  MethodState& m = *state_;
  if (!takeMethod(m)) return absl::FailedPreconditionError(busyMessage(m, sy::str("set_input(", index, ")")));
  const HeldMethod held{m};
  if (index >= m.inputs.size()) {
    return absl::OutOfRangeError(sy::str(m.where, " has ", m.inputs.size(), " inputs; there is no input ", index));
  }
  IValue& slot = m.values[m.inputs[index]];
  const InputBinding binding = m.input_bindings[index];
  if (binding != InputBinding::Value) {
    if (!value.isTensor()) {
      return absl::InvalidArgumentError(sy::str(m.where, ": input ", index, " is a Tensor, but a ", value.typeName(),
                                                     " was given"));
    }
    absl::Status s = setTensorInput(m, index, slot.toTensor(), value.toTensor());
    if (s.ok() && SY_UNLIKELY(!m.reused_inputs.empty())) keepReusedInput(m, index);
    return s;
  }
  if (value.tag() != slot.tag() && !(slot.isDouble() && value.isInt())) {
    return absl::InvalidArgumentError(sy::str(m.where, ": input ", index, " is a ", slot.typeName(), ", but a ",
                                                   value.typeName(), " was given"));
  }
  slot = slot.isDouble() ? IValue(value.toDouble()) : value;
  return absl::OkStatus();
}

const IValue& Method::get_input(size_t index) const {
  checkNotBusy(*state_, "get_input", index);
  SY_CHECK(index < state_->inputs.size(), state_->where, " has ", state_->inputs.size(), " inputs; there is no input ", index);
  return state_->values[state_->inputs[index]];
}

const IValue& Method::get_output(size_t index) const {
  checkNotBusy(*state_, "get_output", index);
  SY_CHECK(index < state_->outputs.size(), state_->where, " has ", state_->outputs.size(), " outputs; there is no output ",
           index);
  return state_->values[state_->outputs[index]];
}

absl::Status Method::set_event_tracer(ETDumpRecorder* recorder) {
  MethodState& m = *state_;
  if (!takeMethod(m)) return absl::FailedPreconditionError(busyMessage(m, "set_event_tracer()"));
  const HeldMethod held{m};
  m.recorder = recorder;
  m.recorder_names.clear();
  if (recorder != nullptr) {
    recorder->intern("");  // the method outputs' name, so that recording them allocates nothing
    for (size_t i = 0; i < m.instructions.size(); ++i) {
      // ExecuTorch's names, in InstructionKind's order.
      static constexpr const char* kEventNames[] = {"OPERATOR_CALL", "DELEGATE_CALL", "MOVE_CALL", "JF_CALL", "FREE_CALL"};
      m.recorder_names.emplace_back(recorder->intern(kEventNames[static_cast<int>(m.instructions[i].kind)]),
                                    recorder->intern(m.instruction_ops[i]));
    }
  }
  for (program_internal::PreparedDelegateCall& call : m.delegate_calls) call.frame.context.event_tracer = recorder;
  return absl::OkStatus();
}

absl::Status Method::execute() {
  MethodState& m = *state_;
  if (SY_UNLIKELY(!takeMethod(m))) return absl::FailedPreconditionError(busyMessage(m, "execute()"));
  const HeldMethod held{m};
  if (SY_UNLIKELY(!m.reused_inputs.empty())) restoreReusedInputs(m);
  // See Note [Profiles cost nothing when off and allocate nothing when on] (program/etdump.h).
  if (SY_UNLIKELY(m.recorder != nullptr)) return program_internal::executeRecorded(m);
  // Walked by pointer, not index: one add per instruction (bench/README.md, "Programs").
  const program_internal::Instruction* const begin = m.instructions.data();
  const program_internal::Instruction* const end = begin + m.instructions.size();
  const program_internal::Instruction* ins = begin;
  try {
    while (ins != end) {
      if (SY_LIKELY(ins->shaped_run != 0)) {
        // Kernel calls with a shape: one typed dispatcher call each, and nothing else.
        for (const program_internal::Instruction* const run_end = ins + ins->shaped_run; ins != run_end; ++ins) {
          ins->shaped->run();
        }
        continue;
      }
      ins = program_internal::runInstruction(m, begin, end, ins);
    }
  } catch (const std::exception& e) {
    m.stack.clear();
    // See Note [An error keeps its kind across every boundary]
    return statusOf(e, sy::str(m.where, ": ", m.instruction_names[static_cast<size_t>(ins - begin)], " failed: "));
  }
  return absl::OkStatus();
}

}  // namespace sy
