// Method: one method of a program, loaded and ready to execute through the dispatcher.
//
//   sy::Method m = *program.load_method("forward");
//   absl::Status s = m.set_input(0, sy::tensor({1.f, 2.f}));  // checks dtype and shape, copies
//   s = m.execute();                                           // every operator through the dispatcher
//   const sy::Tensor& y = m.get_output(0).toTensor();          // a view into the method's memory
//
// Loading (Program::load_method) does all the work that can fail for reasons other than the
// inputs: every operator is looked up in the dispatcher once (all missing ones are listed in one
// error), every delegate's backend is found and initialised, planned memory is laid out, constant
// and external data is bound, and each kernel call's argument list is prepared (See Note [Prepared
// kernel calls] in program/kernel_call.h). execute() then only runs instructions; for a program
// with static shapes it allocates nothing.
//
// Outputs are views into the method's memory: the next execute() overwrites them. Copy what must
// survive. A Method is movable, not copyable; delegates are destroyed once, with the Method.
//
// Threads: a Method runs one call at a time. execute() or set_input() called while another thread
// is inside execute() or set_input() of the same Method returns FailedPrecondition naming the
// method, and get_output() and get_input() raise sy::Error then; nothing waits. Handing a Method
// from one thread to another between calls is fine. To run one program on several threads at
// once, load one Method per thread. See Note [A Method runs one call at a time] (program/method.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/program/planned_memory.h"

namespace sy {

class DataFile;
class ETDumpRecorder;

struct MethodOptions {
  // The caller's buffers for planned tensors; null to have load_method allocate them.
  PlannedMemory* planned_memory = nullptr;
  // Data files (.ptd) holding the tensors the program marks external, searched in order. Their
  // named entries also reach every delegate's init, after the program's own named data
  // (BackendInitContext::named_data_map, delegate/backend_interface.h).
  std::vector<std::shared_ptr<const DataFile>> data_files;
  // Options for the delegates of one backend, by backend id ("XnnpackBackend" -> {{"num_threads",
  // "2"}}): its init reads them as BackendInitContext::runtime_specs.
  struct BackendOption {
    std::string key;
    std::string value;
  };
  std::map<std::string, std::vector<BackendOption>, std::less<>> backend_options;
};

namespace program_internal {
struct MethodState;
}

class Method {
 public:
  Method(Method&&) noexcept;
  Method& operator=(Method&&) noexcept;
  ~Method();

  const std::string& name() const;
  size_t inputs_size() const;
  size_t outputs_size() const;

  // Input `index` for the next execute(). A tensor must have the declared dtype and sizes (for a
  // dynamic input, sizes within its bounds: See Note [A method's tensors change sizes within the
  // memory planned for them]); it is copied into the method's memory (or, for an input without
  // planned memory, its storage is shared). A non-tensor input must have the declared kind.
  // FailedPrecondition while another thread runs a call of this method.
  absl::Status set_input(size_t index, const IValue& value);
  // Runs the method's instructions. A kernel's or delegate's error stops it and is returned,
  // naming the instruction and operator. FailedPrecondition, running nothing, while another thread
  // runs a call of this method.
  absl::Status execute();
  // Output `index` after execute(); raises sy::Error for an index out of range, or while another
  // thread runs a call of this method.
  const IValue& get_output(size_t index) const;
  // Input `index` as the method currently holds it (sy::Error as for get_output).
  const IValue& get_input(size_t index) const;

  // Records every later execute() into `recorder` (an event per instruction and per step its
  // delegates report, and intermediate outputs when the recorder keeps them) until
  // set_event_tracer(nullptr); the recorder must outlive its attachment. See Note [Profiles cost
  // nothing when off and allocate nothing when on] (program/etdump.h). FailedPrecondition while
  // another thread runs a call of this method.
  absl::Status set_event_tracer(ETDumpRecorder* recorder);

 private:
  friend class Program;
  explicit Method(std::unique_ptr<program_internal::MethodState> state);
  std::unique_ptr<program_internal::MethodState> state_;
};

}  // namespace sy
