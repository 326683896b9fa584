// Structural checks of a verified program, run once at load. The FlatBuffers verifier guarantees
// that every table, vector and string lies inside the buffer; these checks guarantee that every
// number the runtime will use as an index, offset or size is in range, so nothing after load has
// to distrust the file. Each error names the method and the value or instruction at fault.
#include <algorithm>
#include <limits>

#include "switchyard/core/error.h"
#include "switchyard/program/program_internal.h"

namespace sy {
namespace program_internal {

namespace {

absl::Status invalid(const std::string& where, const std::string& what) {
  return absl::InvalidArgumentError(sy::str(where, ": ", what));
}

// Multiplies non-negative numbers, false on overflow past int64.
bool checkedMultiply(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

}  // namespace

absl::StatusOr<TensorGeometry> tensorGeometry(const pte::Tensor& t) {
  TensorGeometry g;
  std::optional<ProgramScalarType> dtype = programScalarTypeFromCode(static_cast<int>(t.scalar_type()));
  if (!dtype) {
    return absl::InvalidArgumentError(sy::str("scalar type ", static_cast<int>(t.scalar_type()),
                                                   " is not one the format defines"));
  }
  g.dtype = *dtype;
  const auto* sizes = t.sizes();
  const auto* dim_order = t.dim_order();
  const size_t rank = sizes == nullptr ? 0 : sizes->size();
  if (rank > 64) return absl::InvalidArgumentError(sy::str("rank ", rank, " is more than 64 dimensions"));
  for (size_t d = 0; d < rank; ++d) {
    const int32_t size = sizes->Get(static_cast<uint32_t>(d));
    if (size < 0) {
      return absl::InvalidArgumentError(sy::str("sizes ", listString(sizes), " has a negative size at dimension ", d));
    }
    g.sizes.push_back(size);
    if (!checkedMultiply(g.numel, size, &g.numel)) {
      return absl::InvalidArgumentError(sy::str("sizes ", listString(sizes), " overflow the element count"));
    }
  }
  // An absent dim order means contiguous; a present one must be a permutation of 0..rank-1.
  if (dim_order == nullptr || (dim_order->size() == 0 && rank == 0)) {
    for (size_t d = 0; d < rank; ++d) g.dim_order.push_back(static_cast<int64_t>(d));
  } else {
    uint64_t seen = 0;
    bool permutation = dim_order->size() == rank;
    for (size_t i = 0; permutation && i < rank; ++i) {
      const uint8_t d = dim_order->Get(static_cast<uint32_t>(i));
      permutation = d < rank && (seen & (uint64_t{1} << d)) == 0;
      seen |= uint64_t{1} << (d & 63);
      g.dim_order.push_back(d);
    }
    if (!permutation) {
      return absl::InvalidArgumentError(sy::str("dim_order ", listString(dim_order), " is not a permutation of the ",
                                                     rank, " dimensions of sizes ", listString(sizes)));
    }
  }
  // Dense strides in that order; with a size 0 the element count is 0 whatever the other sizes
  // are, so the strides are checked on their own.
  g.strides.assign(rank, 1);
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    const size_t d = static_cast<size_t>(g.dim_order[i]);
    g.strides[d] = stride;
    if (i > 0 && !checkedMultiply(stride, std::max<int64_t>(g.sizes[d], 1), &stride)) {
      return absl::InvalidArgumentError(sy::str("sizes ", listString(sizes), " overflow the strides"));
    }
  }
  if (t.storage_offset() < 0) {
    return absl::InvalidArgumentError(sy::str("storage_offset ", t.storage_offset(), " is negative"));
  }
  int64_t elements = 0;
  int64_t bytes = 0;
  if (__builtin_add_overflow(g.numel, static_cast<int64_t>(t.storage_offset()), &elements) ||
      !checkedMultiply(elements, static_cast<int64_t>(elementSize(g.dtype)), &bytes)) {
    return absl::InvalidArgumentError(sy::str("sizes ", listString(sizes), " of ", toString(g.dtype),
                                                   " overflow the byte size"));
  }
  g.nbytes = static_cast<uint64_t>(bytes);
  return g;
}

namespace {

class PlanValidator {
 public:
  PlanValidator(const ProgramData& program, const pte::ExecutionPlan& plan)
      : program_(program), plan_(plan), where_(program.where(plan)) {}

  absl::Status run() {
    values_ = plan_.values();
    num_values_ = values_ == nullptr ? 0 : values_->size();
    if (auto s = checkBufferSizes(); !s.ok()) return s;
    for (size_t i = 0; i < num_values_; ++i) {
      if (auto s = checkValue(i); !s.ok()) return s;
    }
    if (auto s = checkIndexList(plan_.inputs(), "input"); !s.ok()) return s;
    if (auto s = checkIndexList(plan_.outputs(), "output"); !s.ok()) return s;
    if (plan_.operators() != nullptr) {
      for (size_t i = 0; i < plan_.operators()->size(); ++i) {
        if (plan_.operators()->Get(static_cast<uint32_t>(i))->name() == nullptr) {
          return invalid(where_, sy::str("operator ", i, " has no name"));
        }
      }
    }
    if (plan_.delegates() != nullptr) {
      for (size_t i = 0; i < plan_.delegates()->size(); ++i) {
        const pte::BackendDelegate* d = plan_.delegates()->Get(static_cast<uint32_t>(i));
        if (d->id() == nullptr) return invalid(where_, sy::str("delegate ", i, " has no backend id"));
        if (auto data = program_.delegateData(*d); !data.ok()) {
          return invalid(where_, sy::str("delegate ", i, " ('", view(d->id()), "'): ", data.status().message()));
        }
      }
    }
    if (plan_.chains() != nullptr) {
      for (size_t c = 0; c < plan_.chains()->size(); ++c) {
        if (auto s = checkChain(*plan_.chains()->Get(static_cast<uint32_t>(c)), c); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status checkBufferSizes() {
    const auto* sizes = plan_.non_const_buffer_sizes();
    if (sizes == nullptr) return absl::OkStatus();
    for (size_t i = 0; i < sizes->size(); ++i) {
      if (elementAt(sizes, i) < 0) {
        return invalid(where_, sy::str("planned buffer ", i, " has a negative size ", elementAt(sizes, i)));
      }
    }
    return absl::OkStatus();
  }

  // The value at `index`, when it exists and is of type `type` (NONE: any).
  absl::Status checkReference(int64_t index, pte::KernelTypes type, const std::string& what) {
    if (index < 0 || static_cast<uint64_t>(index) >= num_values_) {
      return invalid(where_, sy::str(what, " refers to value ", index, ", but the method has ", num_values_, " values"));
    }
    const pte::KernelTypes actual = values_->Get(static_cast<uint32_t>(index))->val_type();
    if (type != pte::KernelTypes::NONE && actual != type) {
      return invalid(where_, sy::str(what, " refers to value ", index, ", a ", pte::EnumNameKernelTypes(actual),
                                          ", where a ", pte::EnumNameKernelTypes(type), " is needed"));
    }
    return absl::OkStatus();
  }

  absl::Status checkIndexList(const flatbuffers::Vector<int32_t>* indices, const char* what) {
    if (indices == nullptr) return absl::OkStatus();
    for (size_t i = 0; i < indices->size(); ++i) {
      if (auto s = checkReference(indices->Get(static_cast<uint32_t>(i)), pte::KernelTypes::NONE,
                                  sy::str(what, " ", i));
          !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  absl::Status checkValue(size_t i) {
    const pte::EValue* value = values_->Get(static_cast<uint32_t>(i));
    const std::string what = sy::str("value ", i);
    if (value->val_type() != pte::KernelTypes::NONE && value->val() == nullptr) {
      // The verifier accepts a union whose type is set but whose table is absent.
      return invalid(where_, sy::str(what, " says it is a ", pte::EnumNameKernelTypes(value->val_type()), " but holds none"));
    }
    switch (value->val_type()) {
      case pte::KernelTypes::NONE:
        return invalid(where_, sy::str(what, " has no type (an unknown union member?)"));
      case pte::KernelTypes::Tensor:
        return checkTensor(*value->val_as_Tensor(), what);
      case pte::KernelTypes::IntList: {
        const auto* items = value->val_as_IntList()->items();
        for (size_t k = 0; items != nullptr && k < items->size(); ++k) {
          const int64_t ref = elementAt(items, k);
          if (auto s = checkReference(ref, pte::KernelTypes::Int, sy::str(what, " (IntList) item ", k)); !s.ok()) return s;
        }
        return absl::OkStatus();
      }
      case pte::KernelTypes::TensorList:
      case pte::KernelTypes::OptionalTensorList: {
        const bool optional = value->val_type() == pte::KernelTypes::OptionalTensorList;
        const auto* items = optional ? value->val_as_OptionalTensorList()->items() : value->val_as_TensorList()->items();
        for (size_t k = 0; items != nullptr && k < items->size(); ++k) {
          const int32_t ref = items->Get(static_cast<uint32_t>(k));
          const std::string item = sy::str(what, optional ? " (OptionalTensorList)" : " (TensorList)", " item ", k);
          if (auto s = checkReference(ref, pte::KernelTypes::NONE, item); !s.ok()) return s;
          const pte::KernelTypes type = values_->Get(static_cast<uint32_t>(ref))->val_type();
          if (type != pte::KernelTypes::Tensor && !(optional && type == pte::KernelTypes::Null)) {
            return invalid(where_, sy::str(item, " refers to value ", ref, ", a ", pte::EnumNameKernelTypes(type),
                                                ", where a Tensor", optional ? " or Null" : "", " is needed"));
          }
        }
        return absl::OkStatus();
      }
      default:
        // Null, Int, Bool, Double, String, DoubleList and BoolList hold their data inline; the
        // verifier has checked it.
        return absl::OkStatus();
    }
  }

  // Note [Every planned tensor fits its buffer, whatever its dynamism]
  // The loader places every tensor with allocation_info in its planned buffer, at its declared
  // sizes, and set_input and kernels write that many bytes there. So the extent is checked for
  // every planned tensor, a DYNAMIC_UNBOUND one too: skipping it let a Float[1024] planned into a
  // 16-byte buffer (or at offset 2^40) take writes far past the buffer. An unbounded tensor now
  // gets memory of its own instead (See Note [Unbounded tensors get memory at run time]), but its
  // plan is still checked: a plan that does not fit its buffer is a corrupt file either way.
  absl::Status checkTensor(const pte::Tensor& t, const std::string& what) {
    absl::StatusOr<TensorGeometry> g = tensorGeometry(t);
    if (!g.ok()) return invalid(where_, sy::str(what, " (Tensor): ", g.status().message()));
    if (static_cast<uint8_t>(t.shape_dynamism()) > static_cast<uint8_t>(pte::TensorShapeDynamism::MAX)) {
      return invalid(where_, sy::str(what, " (Tensor) has shape dynamism ", static_cast<int>(t.shape_dynamism()),
                                     ", which the format does not define (0 STATIC, 1 DYNAMIC_BOUND, 2 DYNAMIC_UNBOUND)"));
    }
    const pte::ExtraTensorInfo* extra = t.extra_tensor_info();
    const bool external = extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL;
    if (external && view(extra->fully_qualified_name()).empty()) {
      return invalid(where_, sy::str(what, " (Tensor) is stored externally but has no fully qualified name to find it by"));
    }
    if (const pte::AllocationDetails* alloc = t.allocation_info()) {
      const auto* sizes = plan_.non_const_buffer_sizes();
      const uint32_t id = alloc->memory_id();
      if (sizes == nullptr || id == 0 || id >= sizes->size()) {
        return invalid(where_, sy::str(what, " (Tensor) is planned in memory ", id, ", but the method has planned buffers 1..",
                                            sizes == nullptr || sizes->size() == 0 ? 0 : sizes->size() - 1));
      }
      const uint64_t offset = static_cast<uint64_t>(alloc->memory_offset_high()) << 32 | alloc->memory_offset_low();
      const uint64_t capacity = static_cast<uint64_t>(elementAt(sizes, id));
      // See Note [Every planned tensor fits its buffer, whatever its dynamism].
      if (offset > capacity || g->nbytes > capacity - offset) {
        return invalid(where_, sy::str(what, " (Tensor, ", g->nbytes, " bytes) at offset ", offset, " of planned buffer ",
                                            id, " runs past its ", capacity, " bytes"));
      }
    }
    if (!external) {
      if (auto data = program_.storedTensorData(t, g->nbytes); !data.ok()) {
        return invalid(where_, sy::str(what, " (Tensor): ", data.status().message()));
      }
    }
    return absl::OkStatus();
  }

  absl::Status checkArgs(const flatbuffers::Vector<int32_t>* args, const std::string& what) {
    for (size_t k = 0; args != nullptr && k < args->size(); ++k) {
      if (auto s = checkReference(args->Get(static_cast<uint32_t>(k)), pte::KernelTypes::NONE,
                                  sy::str(what, " argument ", k));
          !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  absl::Status checkChain(const pte::Chain& chain, size_t c) {
    if (auto s = checkIndexList(chain.inputs(), "chain input"); !s.ok()) return s;
    if (auto s = checkIndexList(chain.outputs(), "chain output"); !s.ok()) return s;
    const auto* instructions = chain.instructions();
    const size_t n = instructions == nullptr ? 0 : instructions->size();
    const size_t num_operators = plan_.operators() == nullptr ? 0 : plan_.operators()->size();
    const size_t num_delegates = plan_.delegates() == nullptr ? 0 : plan_.delegates()->size();
    for (size_t i = 0; i < n; ++i) {
      const pte::Instruction* ins = instructions->Get(static_cast<uint32_t>(i));
      const std::string what = sy::str("chain ", c, " instruction ", i);
      if (ins->instr_args() == nullptr) {
        return invalid(where_, sy::str(what, " has no arguments (kind ", pte::EnumNameInstructionArguments(ins->instr_args_type()), ")"));
      }
      switch (ins->instr_args_type()) {
        case pte::InstructionArguments::KernelCall: {
          const pte::KernelCall* call = ins->instr_args_as_KernelCall();
          if (call->op_index() < 0 || static_cast<size_t>(call->op_index()) >= num_operators) {
            return invalid(where_, sy::str(what, " (KernelCall) calls operator ", call->op_index(), ", but the method has ",
                                                num_operators, " operators"));
          }
          if (auto s = checkArgs(call->args(), what + " (KernelCall)"); !s.ok()) return s;
          break;
        }
        case pte::InstructionArguments::DelegateCall: {
          const pte::DelegateCall* call = ins->instr_args_as_DelegateCall();
          if (call->delegate_index() < 0 || static_cast<size_t>(call->delegate_index()) >= num_delegates) {
            return invalid(where_, sy::str(what, " (DelegateCall) calls delegate ", call->delegate_index(),
                                                ", but the method has ", num_delegates, " delegates"));
          }
          if (auto s = checkArgs(call->args(), what + " (DelegateCall)"); !s.ok()) return s;
          break;
        }
        case pte::InstructionArguments::MoveCall: {
          const pte::MoveCall* call = ins->instr_args_as_MoveCall();
          if (auto s = checkReference(call->move_from(), pte::KernelTypes::NONE, what + " (MoveCall) source"); !s.ok()) return s;
          if (auto s = checkReference(call->move_to(), pte::KernelTypes::NONE, what + " (MoveCall) destination"); !s.ok()) return s;
          break;
        }
        case pte::InstructionArguments::JumpFalseCall: {
          const pte::JumpFalseCall* call = ins->instr_args_as_JumpFalseCall();
          if (auto s = checkReference(call->cond_value_index(), pte::KernelTypes::Bool, what + " (JumpFalseCall) condition");
              !s.ok()) {
            return s;
          }
          if (call->destination_instruction() < 0 || static_cast<size_t>(call->destination_instruction()) >= n) {
            return invalid(where_, sy::str(what, " (JumpFalseCall) jumps to instruction ", call->destination_instruction(),
                                                ", but the chain has ", n, " instructions"));
          }
          // Exporters emit forward jumps only (branches of a cond); refusing the others guarantees
          // that every method terminates.
          if (static_cast<size_t>(call->destination_instruction()) <= i) {
            return invalid(where_, sy::str(what, " (JumpFalseCall) jumps back to instruction ", call->destination_instruction(),
                                                "; only forward jumps are supported, so that a method always terminates"));
          }
          break;
        }
        case pte::InstructionArguments::FreeCall: {
          const pte::FreeCall* call = ins->instr_args_as_FreeCall();
          if (auto s = checkReference(call->value_index(), pte::KernelTypes::Tensor, what + " (FreeCall)"); !s.ok()) return s;
          break;
        }
        default:
          return invalid(where_, sy::str(what, " has no known kind (type ", static_cast<int>(ins->instr_args_type()), ")"));
      }
    }
    return absl::OkStatus();
  }

  const ProgramData& program_;
  const pte::ExecutionPlan& plan_;
  std::string where_;
  const flatbuffers::Vector<flatbuffers::Offset<pte::EValue>>* values_ = nullptr;
  size_t num_values_ = 0;
};

}  // namespace

absl::Status validateProgram(const ProgramData& program) {
  const pte::Program& root = *program.root;
  const bool has_constant_buffer = root.constant_buffer() != nullptr && root.constant_buffer()->size() > 0;
  const bool has_constant_segment = root.constant_segment() != nullptr && root.constant_segment()->offsets() != nullptr &&
                                    root.constant_segment()->offsets()->size() > 1;
  if (has_constant_buffer && has_constant_segment) {
    return invalid(program.where(), "it has both constant_buffer and constant_segment; a program uses one or the other");
  }
  if (root.segments() != nullptr) {
    for (size_t i = 0; i < root.segments()->size(); ++i) {
      if (auto s = program.segment(i); !s.ok()) return s.status();
    }
  }
  if (root.execution_plan() == nullptr) return absl::OkStatus();
  for (const pte::ExecutionPlan* plan : *root.execution_plan()) {
    if (plan->name() == nullptr) return invalid(program.where(), "a method has no name");
    if (auto s = PlanValidator(program, *plan).run(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace program_internal
}  // namespace sy
