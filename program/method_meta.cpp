// Program::method_meta: a copy of what the file says about one method (see method_meta.h).
#include "switchyard/program/method_meta.h"

#include "switchyard/core/error.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/delegate/delegate_debug_handle.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/program/program.h"
#include "switchyard/program/named_data_internal.h"
#include "switchyard/program/program_internal.h"
#include "switchyard/program/tensor_memory.h"

namespace sy {

using program_internal::view;

const char* toString(ShapeDynamism dynamism) {
  switch (dynamism) {
    case ShapeDynamism::Static: return "static";
    case ShapeDynamism::DynamicBound: return "dynamic (bounded)";
    case ShapeDynamism::DynamicUnbound: return "dynamic (unbounded)";
  }
  return "unknown";
}

std::string toString(const ValueInfo& v) {
  if (v.kind != "Tensor") return v.kind;
  const char* bound = v.dynamism == ShapeDynamism::DynamicBound ? "<=" : "";
  std::string s = sy::str(v.dtype ? std::string(toString(*v.dtype)) : "?", "[",
                          absl::StrJoin(v.sizes, ", ", [&](std::string* out, int64_t size) { absl::StrAppend(out, bound, size); }),
                          "]");
  if (v.dynamism != ShapeDynamism::Static) s += sy::str(" ", toString(v.dynamism));
  bool contiguous = true;
  for (size_t i = 0; i < v.dim_order.size(); ++i) contiguous &= (v.dim_order[i] == static_cast<int64_t>(i));
  if (!contiguous) s += sy::str(" dim order [", absl::StrJoin(v.dim_order, ", "), "]");
  return s;
}

namespace {

ValueInfo describeValue(const pte::ExecutionPlan& plan, size_t index) {
  const pte::EValue* value = plan.values()->Get(static_cast<uint32_t>(index));
  ValueInfo info;
  info.value_index = index;
  info.kind = pte::EnumNameKernelTypes(value->val_type());
  if (info.kind == "Null") info.kind = "None";
  if (const pte::Tensor* t = value->val_as_Tensor()) {
    // Validated at load, so the geometry is known to be well formed.
    absl::StatusOr<program_internal::TensorGeometry> g = program_internal::tensorGeometry(*t);
    if (g.ok()) {
      info.dtype = g->dtype;
      info.sizes = g->sizes;
      info.dim_order = g->dim_order;
      info.nbytes = g->nbytes;
    }
    switch (t->shape_dynamism()) {
      case pte::TensorShapeDynamism::DYNAMIC_BOUND: info.dynamism = ShapeDynamism::DynamicBound; break;
      case pte::TensorShapeDynamism::DYNAMIC_UNBOUND: info.dynamism = ShapeDynamism::DynamicUnbound; break;
      default: break;
    }
    info.planned = t->allocation_info() != nullptr;
    const pte::ExtraTensorInfo* extra = t->extra_tensor_info();
    if (extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL) {
      info.external_name = std::string(view(extra->fully_qualified_name()));
    }
    if (extra != nullptr && extra->device_type() != pte::DeviceType::CPU) {
      const char* name = pte::EnumNameDeviceType(extra->device_type());
      info.device = sy::str(name[0] == '\0' ? sy::str("device type ", static_cast<int>(extra->device_type())) : name, ":",
                            static_cast<int>(extra->device_index()));
    }
  }
  return info;
}

std::string frameText(const pte::Frame& f) {
  if (f.filename() == nullptr || f.filename()->size() == 0) return "";
  std::string out = sy::str(view(f.filename()), ":", f.lineno());
  if (f.name() != nullptr && f.name()->size() > 0) out += sy::str(" (in ", view(f.name()), ")");
  return out;
}

// A value as an instruction's argument: "%3" for tensors and tensor lists, the contents otherwise.
std::string argumentText(const pte::ExecutionPlan& plan, int64_t index) {
  const size_t n = plan.values() == nullptr ? 0 : plan.values()->size();
  if (index < 0 || static_cast<size_t>(index) >= n) return sy::str("%", index, "?");
  const pte::EValue* v = plan.values()->Get(static_cast<uint32_t>(index));
  switch (v->val_type()) {
    case pte::KernelTypes::Null: return "None";
    case pte::KernelTypes::Int: return sy::str(v->val_as_Int()->int_val());
    case pte::KernelTypes::Double: return sy::str(v->val_as_Double()->double_val());
    case pte::KernelTypes::Bool: return v->val_as_Bool()->bool_val() ? "True" : "False";
    case pte::KernelTypes::String: return sy::str("'", view(v->val_as_String()->string_val()), "'");
    case pte::KernelTypes::IntList: {
      std::vector<std::string> items;
      if (const auto* list = v->val_as_IntList()->items()) {
        for (int64_t item : *list) items.push_back(argumentText(plan, item));
      }
      return "[" + absl::StrJoin(items, ", ") + "]";
    }
    case pte::KernelTypes::DoubleList: {
      const auto* list = v->val_as_DoubleList()->items();
      return "[" + (list == nullptr ? std::string() : absl::StrJoin(*list, ", ")) + "]";
    }
    case pte::KernelTypes::BoolList: {
      std::vector<std::string> items;
      if (const auto* list = v->val_as_BoolList()->items()) {
        for (uint8_t b : *list) items.push_back(b ? "True" : "False");
      }
      return "[" + absl::StrJoin(items, ", ") + "]";
    }
    default: return sy::str("%", index);
  }
}

std::string argumentsText(const pte::ExecutionPlan& plan, const flatbuffers::Vector<int32_t>* args) {
  std::vector<std::string> items;
  if (args != nullptr) {
    for (int32_t a : *args) items.push_back(argumentText(plan, a));
  }
  return absl::StrJoin(items, ", ");
}

// The values `args` name: each argument, and the items of tensor and optional-tensor lists.
std::vector<size_t> valuesNamed(const pte::ExecutionPlan& plan, const flatbuffers::Vector<int32_t>* args) {
  std::vector<size_t> out;
  const size_t num_values = plan.values() == nullptr ? 0 : plan.values()->size();
  auto add = [&](int64_t index) {
    if (index >= 0 && static_cast<size_t>(index) < num_values) out.push_back(static_cast<size_t>(index));
  };
  if (args == nullptr) return out;
  for (int32_t a : *args) {
    add(a);
    if (a < 0 || static_cast<size_t>(a) >= num_values) continue;
    const pte::EValue* v = plan.values()->Get(static_cast<uint32_t>(a));
    const flatbuffers::Vector<int32_t>* items = nullptr;
    if (v->val_type() == pte::KernelTypes::TensorList) items = v->val_as_TensorList()->items();
    if (v->val_type() == pte::KernelTypes::OptionalTensorList) items = v->val_as_OptionalTensorList()->items();
    if (items != nullptr) {
      for (int32_t item : *items) add(item);
    }
  }
  return out;
}

// The values a call of `op` with `args` writes, by its schema (See InstructionInfo::writes): each
// argument annotated as written, and the results, which follow the arguments. Sets `known`.
std::vector<size_t> valuesWritten(const OperatorName& op, const flatbuffers::Vector<int32_t>* args, size_t num_values,
                                  bool* known) {
  std::vector<size_t> out;
  std::optional<OperatorHandle> handle = Dispatcher::singleton().findSchema(op);
  *known = handle.has_value() && handle->hasSchema() && args != nullptr;
  if (!*known) return out;
  const std::vector<Argument>& arguments = handle->schema().arguments();
  for (uint32_t k = 0; k < args->size(); ++k) {
    const int32_t v = args->Get(k);
    const bool written = k >= arguments.size() || arguments[k].is_write();
    if (written && v >= 0 && static_cast<size_t>(v) < num_values) out.push_back(static_cast<size_t>(v));
  }
  return out;
}

// See InstructionInfo. The program was validated at load: indices are in range (checked anyway).
InstructionInfo describeInstruction(const pte::ExecutionPlan& plan, const pte::Chain& chain, size_t i) {
  const pte::Instruction* ins = chain.instructions()->Get(static_cast<uint32_t>(i));
  InstructionInfo info;
  const size_t num_operators = plan.operators() == nullptr ? 0 : plan.operators()->size();
  const size_t num_delegates = plan.delegates() == nullptr ? 0 : plan.delegates()->size();
  switch (ins->instr_args_type()) {
    case pte::InstructionArguments::KernelCall: {
      const pte::KernelCall* call = ins->instr_args_as_KernelCall();
      std::string op = sy::str("operator ", call->op_index());
      if (call->op_index() >= 0 && static_cast<size_t>(call->op_index()) < num_operators) {
        const pte::Operator* o = plan.operators()->Get(static_cast<uint32_t>(call->op_index()));
        const OperatorName name{std::string(view(o->name())), std::string(view(o->overload()))};
        op = name.toString();
        info.writes = valuesWritten(name, call->args(), plan.values() == nullptr ? 0 : plan.values()->size(),
                                    &info.writes_known);
      }
      info.text = sy::str(op, "(", argumentsText(plan, call->args()), ")");
      info.op = op;
      info.values = valuesNamed(plan, call->args());
      break;
    }
    case pte::InstructionArguments::DelegateCall: {
      const pte::DelegateCall* call = ins->instr_args_as_DelegateCall();
      std::string backend = "?";
      if (call->delegate_index() >= 0 && static_cast<size_t>(call->delegate_index()) < num_delegates) {
        backend = std::string(view(plan.delegates()->Get(static_cast<uint32_t>(call->delegate_index()))->id()));
      }
      info.text = sy::str("delegate ", call->delegate_index(), " (", backend, ")(", argumentsText(plan, call->args()), ")");
      info.op = backend;
      info.delegate_index = call->delegate_index();
      info.values = valuesNamed(plan, call->args());
      break;
    }
    case pte::InstructionArguments::MoveCall: {
      const pte::MoveCall* call = ins->instr_args_as_MoveCall();
      info.text = sy::str("move %", call->move_from(), " to %", call->move_to());
      break;
    }
    case pte::InstructionArguments::JumpFalseCall: {
      const pte::JumpFalseCall* call = ins->instr_args_as_JumpFalseCall();
      info.text = sy::str("jump to ", call->destination_instruction(), " if not %", call->cond_value_index());
      break;
    }
    case pte::InstructionArguments::FreeCall:
      info.text = sy::str("free %", ins->instr_args_as_FreeCall()->value_index());
      break;
    default: info.text = "?"; break;
  }
  const auto* traces = chain.stacktrace();
  if (traces == nullptr || i >= traces->size()) return info;
  const pte::FrameList* frames = traces->Get(static_cast<uint32_t>(i));
  if (frames == nullptr || frames->items() == nullptr) return info;
  for (const pte::Frame* f : *frames->items()) {
    if (f == nullptr) continue;
    const std::string_view context = view(f->context());
    if (ins->instr_args_type() == pte::InstructionArguments::DelegateCall && parseDelegateFrameContext(context)) {
      const std::string at = frameText(*f);
      info.delegated.push_back(at.empty() ? std::string(context) : sy::str(context, " at ", at));
    } else {
      info.source = frameText(*f);  // the last one is the innermost
    }
  }
  return info;
}

}  // namespace

absl::StatusOr<MethodMeta> Program::method_meta(std::string_view method) const {
  const pte::ExecutionPlan* plan = data_->findPlan(method);
  if (plan == nullptr) {
    return absl::NotFoundError(sy::str(data_->where(), " has no method '", method, "'; its methods: ",
                                            absl::StrJoin(method_names(), ", ")));
  }
  MethodMeta meta;
  meta.name = std::string(method);
  meta.num_values = plan->values() == nullptr ? 0 : plan->values()->size();
  for (size_t i = 0; i < meta.num_values; ++i) meta.values.push_back(describeValue(*plan, i));
  if (plan->inputs() != nullptr) {
    for (int32_t i : *plan->inputs()) meta.inputs.push_back(describeValue(*plan, static_cast<size_t>(i)));
  }
  if (plan->outputs() != nullptr) {
    for (int32_t i : *plan->outputs()) meta.outputs.push_back(describeValue(*plan, static_cast<size_t>(i)));
  }
  if (plan->operators() != nullptr) {
    for (const pte::Operator* op : *plan->operators()) {
      meta.operators.push_back(OperatorName{std::string(view(op->name())), std::string(view(op->overload()))});
    }
  }
  if (plan->delegates() != nullptr) {
    const program_internal::MethodNamedData named_data(data_, {});
    for (const pte::BackendDelegate* d : *plan->delegates()) {
      DelegateInfo info;
      info.backend = std::string(view(d->id()));
      info.processed_inline = d->processed() != nullptr && d->processed()->location() == pte::DataLocation::INLINE;
      if (auto data = data_->delegateData(*d); data.ok()) {
        info.processed_size = data->size();
        if (const BackendInterface* backend = get_backend_class(info.backend)) info.description = backend->describe(*data, &named_data);
      }
      if (d->compile_specs() != nullptr) {
        for (const pte::CompileSpec* spec : *d->compile_specs()) {
          CompileSpecInfo s;
          s.key = std::string(view(spec->key()));
          if (spec->value() != nullptr) s.value.assign(spec->value()->begin(), spec->value()->end());
          info.compile_specs.push_back(std::move(s));
        }
      }
      meta.delegates.push_back(std::move(info));
    }
  }
  if (plan->non_const_buffer_sizes() != nullptr) {
    meta.planned_buffer_sizes = program_internal::elementsOf(plan->non_const_buffer_sizes());
    for (const auto& [input, value] : program_internal::inputsSharingTheirBytes(*plan)) meta.reused_inputs.emplace_back(input, value);
  }
  if (plan->values() != nullptr) {
    for (size_t i = 0; i < plan->values()->size(); ++i) {
      const pte::Tensor* t = plan->values()->Get(static_cast<uint32_t>(i))->val_as_Tensor();
      const pte::ExtraTensorInfo* extra = t == nullptr ? nullptr : t->extra_tensor_info();
      if (extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL) {
        meta.external_tensors.emplace_back(view(extra->fully_qualified_name()));
      }
    }
  }
  if (plan->chains() != nullptr) {
    for (size_t c = 0; c < plan->chains()->size(); ++c) {
      const pte::Chain* chain = plan->chains()->Get(static_cast<uint32_t>(c));
      const size_t n = chain->instructions() == nullptr ? 0 : chain->instructions()->size();
      meta.num_instructions += n;
      for (size_t i = 0; i < n; ++i) {
        meta.instructions.push_back(describeInstruction(*plan, *chain, i));
        meta.instructions.back().chain = c;
      }
    }
  }
  return meta;
}

}  // namespace sy
