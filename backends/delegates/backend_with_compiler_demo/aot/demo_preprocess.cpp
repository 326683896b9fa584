// BackendWithCompilerDemo's ahead-of-time half: serialises a partition of add, mul and sin nodes on
// Float tensors into the text program of demo_program.h. Registered as "BackendWithCompilerDemo".
#include <map>

#include "switchyard/backends/delegates/backend_with_compiler_demo/runtime/demo_program.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/core/error.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::backend_with_compiler_demo {
namespace {

absl::Status unsupported(const export_::Node& n, const std::string& why) {
  return absl::InvalidArgumentError(sy::str(kBackendId, " cannot lower node '", n.name, "' (",
                                            n.op->operator_name().toString(), "): ", why));
}

class DemoPreprocess final : public export_::BackendDetails {
 public:
  absl::StatusOr<export_::PreprocessResult> preprocess(const export_::ExportedProgram& subprogram,
                                                       absl::Span<const export_::CompileSpec>) const override {
    const export_::Graph& g = subprogram.graph();
    DemoProgram program;
    std::map<export_::ValueId, uint32_t> slot_of;
    auto newSlot = [&](export_::ValueId v) {
      const uint32_t slot = static_cast<uint32_t>(program.slot_elements.size());
      program.slot_elements.push_back(static_cast<uint64_t>(g.value(v).meta.numel()));
      slot_of[v] = slot;
      return slot;
    };
    export_::PreprocessResult result;
    for (const export_::Node& n : g.nodes()) {
      if (n.kind == export_::NodeKind::Output) break;
      for (export_::ValueId v : n.outputs) {
        if (g.value(v).meta.dtype != ScalarType::Float) {
          return absl::InvalidArgumentError(sy::str(kBackendId, " takes Float tensors only, but %", g.value(v).name,
                                                    " is ", g.value(v).meta.str()));
        }
      }
      if (n.kind == export_::NodeKind::Placeholder) {
        const uint32_t slot = newSlot(n.outputs[0]);
        if (n.input_kind == export_::InputKind::User) {
          program.inputs.push_back(slot);
        } else {
          // The delegate owns its parameters and constants: their values go into the blob.
          const Tensor t = ops::contiguous(subprogram.stateOf(n.outputs[0]));
          program.constants.push_back({slot, std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel())});
        }
        continue;
      }
      absl::StatusOr<DemoInstruction> ins = instructionFor(g, n, slot_of);
      if (!ins.ok()) return ins.status();
      ins->result = newSlot(n.outputs[0]);
      ins->debug_handle = static_cast<int64_t>(program.instructions.size()) + 1;
      result.debug_handle_map[ins->debug_handle] = {n.meta.debug_handle};
      program.instructions.push_back(*ins);
    }
    for (export_::ValueId v : g.outputs()) program.outputs.push_back(slot_of.at(v));
    uint64_t elements = 0;
    for (uint64_t n : program.slot_elements) elements += n;
    if (program.slot_elements.size() > kMaxSlots || elements > kMaxElements) {
      return absl::InvalidArgumentError(sy::str(kBackendId, ": the partition needs ", program.slot_elements.size(),
                                                " values of ", elements, " elements in all; the backend holds at most ",
                                                kMaxSlots, " values of ", kMaxElements, " elements"));
    }
    const std::string text = program.serialize();
    result.processed_bytes.assign(text.begin(), text.end());
    return result;
  }

 private:
  static absl::StatusOr<DemoInstruction> instructionFor(const export_::Graph& g, const export_::Node& n,
                                                        const std::map<export_::ValueId, uint32_t>& slot_of) {
    const std::string op = n.op->operator_name().toString();
    DemoInstruction ins;
    if (op == "aten::add.Tensor") {
      ins.op = DemoOp::Add;
      const IValue& alpha = n.args[2].constant;
      if (!((alpha.isInt() && alpha.toInt() == 1) || (alpha.isDouble() && alpha.toDouble() == 1.0))) {
        return unsupported(n, "it adds with alpha other than 1");
      }
    } else if (op == "aten::mul.Tensor") {
      ins.op = DemoOp::Mul;
    } else if (op == "aten::sin") {
      ins.op = DemoOp::Sin;
    } else {
      return unsupported(n, "the backend runs aten::add.Tensor, aten::mul.Tensor and aten::sin only");
    }
    const export_::TensorMeta& out = g.value(n.outputs[0]).meta;
    for (int k = 0; k < operandCount(ins.op); ++k) {
      const export_::TensorMeta& in = g.value(n.args[static_cast<size_t>(k)].value).meta;
      if (in.sizes != out.sizes) {
        return unsupported(n, sy::str("operand ", k, " is ", in.str(), " and the result ", out.str(),
                                      "; the backend does not broadcast"));
      }
      ins.operands[k] = slot_of.at(n.args[static_cast<size_t>(k)].value);
    }
    return ins;
  }
};

DemoPreprocess details;
const absl::Status details_registered = export_::registerBackendDetails(kBackendId, &details);

}  // namespace
}  // namespace sy::backend_with_compiler_demo
