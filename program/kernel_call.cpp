#include "switchyard/program/kernel_call.h"

#include <algorithm>
#include <cstring>

#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/core/error.h"
#include "switchyard/core/program_scalar_type.h"

namespace sy {
namespace program_internal {

namespace {

constexpr const char* kChangesAtRunTime = "changes at run time (an input, a kernel's result or a MoveCall's destination)";

absl::Status mismatch(const std::string& what, const Argument& arg, int32_t index, const IValue& value) {
  return absl::InvalidArgumentError(sy::str(what, ": argument '", arg.name, "' is a ", arg.type->str(),
                                                 ", but the program passes value ", index, ", a ", value.typeName()));
}

// Whether copying `v` must take a reference (rather than copy bits): See Note [Prepared kernel calls].
bool holdsReference(const IValue& v) {
  if (v.isBorrowed()) return false;
  return v.isTensor() || v.isString() || v.isIntList() || v.isDoubleList() || v.isBoolList() || v.isTensorList() ||
         v.isList() || v.isTuple() || v.isObject();
}

// Appends the prepared IValue for one argument to `out` (See Note [Prepared kernel calls]). A
// borrowed IValue is constructed in place: moving one (into a StatusOr, say) would make it own a
// copy, which a MoveCall into the value, or a size written into the list, would never reach.
absl::Status prepareArgument(const Argument& arg, const Type& type, IValue& value, int32_t index,
                             const std::string& what, std::vector<IValue>& out) {
  if (type.kind() == TypeKind::Optional) {
    if (value.isNone()) {
      out.emplace_back();
      return absl::OkStatus();
    }
    return prepareArgument(arg, *type.element(), value, index, what, out);
  }
  auto copy = [&] {
    out.push_back(value);
    return absl::OkStatus();
  };
  switch (type.kind()) {
    case TypeKind::Tensor:
      if (!value.isTensor()) break;
      if (arg.is_write()) {
        out.emplace_back(kMutablyBorrowed, value.toTensor());
      } else {
        out.emplace_back(kBorrowed, std::as_const(value).toTensor());
      }
      return absl::OkStatus();
    case TypeKind::Int:
    case TypeKind::SymInt:
      if (value.isInt()) return copy();
      break;
    case TypeKind::Float:
      if (value.isDouble() || value.isInt()) return copy();
      break;
    case TypeKind::Bool:
      if (value.isBool()) return copy();
      break;
    case TypeKind::Str:
      if (value.isString()) return copy();
      break;
    case TypeKind::Scalar:
      if (value.isInt() || value.isDouble() || value.isBool()) return copy();
      break;
    case TypeKind::Layout:
    case TypeKind::MemoryFormat:
      if (value.isInt()) return copy();  // the file and Switchyard number them as PyTorch does
      break;
    case TypeKind::ScalarType: {
      if (!value.isInt()) break;
      std::optional<ProgramScalarType> file_type = programScalarTypeFromCode(static_cast<int>(value.toInt()));
      if (!file_type) {
        return absl::InvalidArgumentError(sy::str(what, ": argument '", arg.name, "' is dtype code ", value.toInt(),
                                                       " (value ", index, "), which the format does not define"));
      }
      std::optional<ScalarType> ours = toSwitchyardScalarType(*file_type);
      if (!ours) {  // every type of the format is a ScalarType: See Note [Every scalar type of the format loads]
        return absl::InvalidArgumentError(sy::str(what, ": argument '", arg.name, "' is dtype code ", value.toInt(),
                                                       " (value ", index, "), which the format does not define"));
      }
      out.emplace_back(*ours);
      return absl::OkStatus();
    }
    case TypeKind::List: {
      const TypeKind element = type.element()->kind();
      if ((element == TypeKind::Int || element == TypeKind::SymInt) && value.isIntList()) {
        out.emplace_back(kBorrowed, value.toIntList());
        return absl::OkStatus();
      }
      if (element == TypeKind::Float && value.isDoubleList()) return copy();
      if (element == TypeKind::Bool && value.isBoolList()) return copy();
      if (element == TypeKind::Tensor && value.isTensorList()) return copy();
      if (element == TypeKind::Optional && type.element()->element()->kind() == TypeKind::Tensor && value.isList()) {
        return copy();
      }
      break;
    }
    default:
      break;
  }
  return mismatch(what, arg, index, value);
}

// Whether the method's value `target` can receive a result of schema type `type` and stay of its
// kind: See Note [A kernel call's results keep the kinds of the values they are written into].
bool receivesResult(const Type& type, const IValue& target) {
  switch (type.kind()) {
    case TypeKind::Optional: return target.isNone() || receivesResult(*type.element(), target);
    case TypeKind::Tensor: return target.isTensor();
    case TypeKind::Int:
    case TypeKind::SymInt: return target.isInt();
    case TypeKind::Float: return target.isDouble();
    case TypeKind::Bool: return target.isBool();
    case TypeKind::Scalar: return target.isInt() || target.isDouble() || target.isBool();
    case TypeKind::Str: return target.isString();
    case TypeKind::List: {
      const TypeKind element = type.element()->kind();
      if (element == TypeKind::Tensor) return target.isTensorList();
      if (element == TypeKind::Int || element == TypeKind::SymInt) return target.isIntList();
      if (element == TypeKind::Float) return target.isDoubleList();
      if (element == TypeKind::Bool) return target.isBoolList();
      return false;
    }
    default: return false;  // a device, dtype, layout or dict: no value of a program holds one as a kernel returns it
  }
}

// The partial kernel the call's tensors select, "" for the operator's CPU kernel, or the error
// when neither applies. See Note [Kernel calls resolve their kernel key at load].
absl::StatusOr<std::string> resolveKernelKey(const OperatorHandle& op, const std::vector<IValue>& arguments,
                                             const std::string& what) {
  const FunctionSchema& schema = op.schema();
  std::vector<TensorMeta> metas;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Type& type = *schema.arguments()[i].type;
    const bool tensor = type.kind() == TypeKind::Tensor ||
                        (type.kind() == TypeKind::Optional && type.element()->kind() == TypeKind::Tensor);
    if (tensor && arguments[i].isTensor()) metas.push_back(TensorMeta::of(arguments[i].toTensor()));
  }
  absl::StatusOr<std::shared_ptr<const PartialKernel>> kernel =
      PartialKernelRegistry::singleton().resolve(op.operator_name(), metas);
  if (kernel.ok()) return (*kernel)->kernel_name;
  if (absl::IsNotFound(kernel.status()) || op.hasKernelForDispatchKey(DispatchKey::CPU)) return std::string();
  return absl::InvalidArgumentError(sy::str(what, ": ", kernel.status().message()));
}

}  // namespace

absl::StatusOr<PreparedKernelCall> prepareKernelCall(OperatorHandle op, absl::Span<const int32_t> args,
                                                     std::vector<IValue>& values,
                                                     const std::vector<std::vector<int32_t>>& list_items,
                                                     const std::vector<bool>& changing, const std::string& what,
                                                     CallShaping shaping) {
  const FunctionSchema& schema = op.schema();
  const size_t num_arguments = schema.arguments().size();
  const size_t num_returns = schema.returns().size();
  PreparedKernelCall call;
  call.op = op;
  call.num_results = static_cast<uint32_t>(num_returns);

  // The values that receive the results: one per result, or (for several) one TensorList of them.
  std::vector<int32_t> result_values;
  if (args.size() == num_arguments + num_returns) {
    result_values.assign(args.begin() + num_arguments, args.end());
  } else if (num_returns > 1 && args.size() == num_arguments + 1 && values[args.back()].isTensorList()) {
    result_values = list_items[static_cast<size_t>(args.back())];
    if (result_values.size() != num_returns) {
      return absl::InvalidArgumentError(sy::str(what, ": ", schema.toString(), " returns ", num_returns,
                                                     " values, but the program's result list (value ", args.back(),
                                                     ") has ", result_values.size()));
    }
  } else {
    return absl::InvalidArgumentError(sy::str(what, ": the program passes ", args.size(), " values, but ",
                                                   schema.toString(), " takes ", num_arguments, " arguments and returns ",
                                                   num_returns));
  }

  // Never reallocated: moving a borrowed IValue would make it own a copy (See Note [Borrowed IValues]).
  call.arguments.reserve(num_arguments);
  for (size_t i = 0; i < num_arguments; ++i) {
    const Argument& arg = schema.arguments()[i];
    if (auto s = prepareArgument(arg, *arg.type, values[args[i]], args[i], what, call.arguments); !s.ok()) return s;
    const IValue& prepared = call.arguments.back();
    if (holdsReference(prepared)) call.owned.push_back(static_cast<uint32_t>(i));
    const size_t v = static_cast<size_t>(args[i]);
    if (changing[v] && !prepared.isNone()) {
      if (!(prepared.isInt() || prepared.isDouble() || prepared.isBool())) {
        return absl::UnimplementedError(sy::str(what, ": argument '", arg.name, "' reads value ", v,
                                                ", which ", kChangesAtRunTime, "; only numbers may change"));
      }
      call.refreshes.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(v)});
    }
    for (size_t k = 0; k < list_items[v].size(); ++k) {
      const int32_t item = list_items[v][k];
      if (!changing[static_cast<size_t>(item)]) continue;
      // See Note [Lists of numbers that change].
      if (!prepared.isIntList() || !values[static_cast<size_t>(item)].isInt()) {
        return absl::UnimplementedError(sy::str(what, ": argument '", arg.name, "' is list value ", v, ", whose item ", item,
                                                " ", kChangesAtRunTime, "; only lists of ints may have such items"));
      }
      int64_t* slot = const_cast<int64_t*>(prepared.toIntList().data()) + k;
      call.list_refreshes.push_back({slot, static_cast<uint32_t>(item)});
    }
  }
  for (size_t r = 0; r < num_returns; ++r) {
    const int aliased = schema.aliasedArgumentOfReturn(r);
    const int32_t target = result_values[r];
    if (aliased >= 0 && target == args[static_cast<size_t>(aliased)]) continue;  // the out argument itself
    const Argument& result = schema.returns()[r];
    if (!receivesResult(*result.type, values[static_cast<size_t>(target)])) {
      return absl::InvalidArgumentError(sy::str(what, ": result ", r, result.name.empty() ? "" : sy::str(" '", result.name, "'"),
                                                " is a ", result.type->str(), ", but the program writes it into value ",
                                                target, ", a ", values[static_cast<size_t>(target)].typeName()));
    }
    call.write_backs.push_back({static_cast<uint32_t>(r), static_cast<uint32_t>(target)});
  }
  absl::StatusOr<std::string> kernel_name = resolveKernelKey(op, call.arguments, what);
  if (!kernel_name.ok()) return kernel_name.status();
  call.partial_kernel = std::move(*kernel_name);
  if (shaping == CallShaping::WhenPossible && call.refreshes.empty() && call.list_refreshes.empty() &&
      call.write_backs.empty()) {
    call.shaped = shapeKernelCall(op, call.arguments);
  }
  return call;
}

std::vector<uint32_t> tensorsWritten(const OperatorHandle& op, absl::Span<const int32_t> args,
                                     const std::vector<IValue>& values, const std::vector<std::vector<int32_t>>& list_items) {
  std::vector<uint32_t> out;
  auto add = [&](int32_t v) {
    const uint32_t value = static_cast<uint32_t>(v);
    if (values[value].isTensor() && std::find(out.begin(), out.end(), value) == out.end()) out.push_back(value);
  };
  const std::vector<Argument>& arguments = op.schema().arguments();
  for (size_t k = 0; k < args.size(); ++k) {
    if (k < arguments.size() && !arguments[k].is_write()) continue;
    add(args[k]);
    for (int32_t item : list_items[static_cast<size_t>(args[k])]) add(item);
  }
  return out;
}

void runBoxedKernelCall(const PreparedKernelCall& call, Stack& stack, std::vector<IValue>& values) {
  for (const PreparedKernelCall::ListRefresh& r : call.list_refreshes) *r.slot = values[r.value].toInt();
  const size_t n = call.arguments.size();
  stack.resize(n);  // Nones, which own nothing: overwriting them below leaks nothing
  IValue* slots = stack.data();
  std::memcpy(static_cast<void*>(slots), static_cast<const void*>(call.arguments.data()), n * sizeof(IValue));
  for (uint32_t p : call.owned) new (&slots[p]) IValue(call.arguments[p]);
  for (const PreparedKernelCall::Refresh& r : call.refreshes) new (&slots[r.position]) IValue(values[r.value]);
  call.op.callBoxed(&stack);
  if (__builtin_expect(!call.write_backs.empty(), 0)) {
    SY_CHECK(stack.size() == call.num_results, call.op.operator_name().toString(), " left ", stack.size(),
             " values on the stack where its schema returns ", call.num_results);
    for (const PreparedKernelCall::WriteBack& w : call.write_backs) {
      IValue& result = stack[w.result];
      IValue& target = values[w.value];
      // See Note [A kernel call's results keep the kinds of the values they are written into]:
      // the load checked the schema's type; a Scalar or optional result is checked here too.
      SY_CHECK(result.tag() == target.tag(), call.op.operator_name().toString(), " returned a ", result.typeName(),
               " as result ", w.result, ", where the program's value ", w.value, " is a ", target.typeName());
      if (target.isTensor()) {
        const Tensor& from = std::as_const(result).toTensor();
        if (!from.is_same(target.toTensor())) target.toTensor().copy_(from);
      } else {
        target = result;
      }
    }
  }
  stack.clear();
}

}  // namespace program_internal
}  // namespace sy
