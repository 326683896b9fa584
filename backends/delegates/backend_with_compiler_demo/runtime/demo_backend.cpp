// BackendWithCompilerDemo's run-time half: init parses the text program (demo_program.h) and checks
// the compile specs, execute interprets it on the delegate call's tensors, destroy frees it.
// Registered as "BackendWithCompilerDemo".
//
// Compile spec "max_value" (a decimal integer, as ExecuTorch's demo has it): init refuses a value
// above 4. An operation whose result is not finite fails execute with its debug handle, so the
// error names the original operator (delegate/delegate_debug_handle.h).
#include <cmath>
#include <cstring>

#include "absl/strings/numbers.h"
#include "switchyard/backends/delegates/backend_with_compiler_demo/runtime/demo_program.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/delegate/delegate_debug_handle.h"
#include "switchyard/core/error.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::backend_with_compiler_demo {
namespace {

constexpr int64_t kMaxValueLimit = 4;

// A parsed program and the memory it runs in, allocated once at init.
struct Executable {
  DemoProgram program;
  std::vector<std::vector<float>> slots;
};

absl::Status checkCompileSpecs(absl::Span<const CompileSpec> specs) {
  for (const CompileSpec& spec : specs) {
    if (spec.key != "max_value") continue;
    int64_t max_value = 0;
    const absl::string_view text(reinterpret_cast<const char*>(spec.value.data()), spec.value.size());
    if (!absl::SimpleAtoi(text, &max_value)) {
      return absl::InvalidArgumentError(sy::str(kBackendId, ": compile spec 'max_value' is '", std::string(text),
                                                "', not an integer"));
    }
    if (max_value > kMaxValueLimit) {
      return absl::InvalidArgumentError(sy::str(kBackendId, ": compile spec 'max_value' is ", max_value,
                                                ", larger than the ", kMaxValueLimit, " the backend supports"));
    }
  }
  return absl::OkStatus();
}

class DemoBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  absl::StatusOr<DelegateHandle*> init(BackendInitContext&, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec> compile_specs) const override {
    if (absl::Status s = checkCompileSpecs(compile_specs); !s.ok()) return s;
    const std::string_view text(static_cast<const char*>(processed->data()), processed->size());
    absl::StatusOr<DemoProgram> program = DemoProgram::parse(text);
    if (!program.ok()) return program.status();
    auto executable = std::make_unique<Executable>();
    executable->program = std::move(*program);
    for (uint64_t n : executable->program.slot_elements) executable->slots.emplace_back(n, 0.f);
    for (const DemoConstant& c : executable->program.constants) executable->slots[c.slot] = c.values;
    return executable.release();
  }

  absl::Status execute(BackendExecutionContext&, DelegateHandle* handle, absl::Span<IValue*> args) const override {
    auto& e = *static_cast<Executable*>(handle);
    const DemoProgram& p = e.program;
    if (args.size() != p.inputs.size() + p.outputs.size()) {
      return absl::InvalidArgumentError(sy::str(kBackendId, ": the program takes ", p.inputs.size(), " inputs and ",
                                                p.outputs.size(), " outputs, but the call passes ", args.size(), " values"));
    }
    for (size_t i = 0; i < args.size(); ++i) {
      const bool is_input = i < p.inputs.size();
      const uint32_t slot = is_input ? p.inputs[i] : p.outputs[i - p.inputs.size()];
      if (!args[i]->isTensor() || args[i]->toTensor().scalar_type() != ScalarType::Float ||
          static_cast<uint64_t>(args[i]->toTensor().numel()) != p.slot_elements[slot]) {
        return absl::InvalidArgumentError(sy::str(kBackendId, ": ", is_input ? "input " : "output ",
                                                  is_input ? i : i - p.inputs.size(), " must be a Float tensor of ",
                                                  p.slot_elements[slot], " elements"));
      }
    }
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      const Tensor& t = args[i]->toTensor();
      const Tensor dense = t.is_contiguous() ? t : ops::contiguous(t);
      std::memcpy(e.slots[p.inputs[i]].data(), dense.data_ptr<float>(), e.slots[p.inputs[i]].size() * sizeof(float));
    }
    for (const DemoInstruction& ins : p.instructions) {
      std::vector<float>& out = e.slots[ins.result];
      const std::vector<float>& a = e.slots[ins.operands[0]];
      const std::vector<float>& b = e.slots[ins.operands[operandCount(ins.op) - 1]];
      for (size_t k = 0; k < out.size(); ++k) {
        switch (ins.op) {
          case DemoOp::Add: out[k] = a[k] + b[k]; break;
          case DemoOp::Mul: out[k] = a[k] * b[k]; break;
          case DemoOp::Sin: out[k] = std::sin(a[k]); break;
        }
        if (!std::isfinite(out[k])) {
          return withDelegateDebugHandle(
              absl::OutOfRangeError(sy::str(kBackendId, ": ", toString(ins.op), " made a non-finite value (", out[k],
                                            ") at element ", k)),
              ins.debug_handle);
        }
      }
    }
    for (size_t i = 0; i < p.outputs.size(); ++i) {
      const std::vector<float>& from = e.slots[p.outputs[i]];
      const Tensor& t = args[p.inputs.size() + i]->toTensor();
      if (t.is_contiguous()) {
        std::memcpy(t.data_ptr<float>(), from.data(), from.size() * sizeof(float));
      } else {
        return absl::InvalidArgumentError(sy::str(kBackendId, ": output ", i, " is not contiguous"));
      }
    }
    return absl::OkStatus();
  }

  void destroy(DelegateHandle* handle) const override { delete static_cast<Executable*>(handle); }
};

DemoBackend backend;
const absl::Status backend_registered = register_backend({kBackendId, &backend});

}  // namespace
}  // namespace sy::backend_with_compiler_demo
