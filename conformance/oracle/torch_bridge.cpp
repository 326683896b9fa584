// The only translation unit of the oracle that includes libtorch's headers.
//
// Note [The oracle parses libtorch's headers once]
// libtorch's headers are heavy (the dispatcher's header alone is several seconds of compiler time
// per translation unit), and ./test.sh has a build-time budget. So everything that touches a
// c10:: or at:: type is here, behind torch_bridge.h, which speaks Switchyard values only: the
// harness, the comparison and the case files (where entries are added) compile against
// Switchyard's headers alone. This file needs nothing from ATen's operator headers
// (ATen/Functions.h and the like, tens of seconds): tensors are made from a c10::Storage and a
// TensorImpl, and every operator, PyTorch's result_type included, is called boxed through the
// dispatcher.
#include "switchyard/conformance/oracle/torch_bridge.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/TensorImpl.h>
#include <c10/util/Exception.h>
#include <c10/util/Logging.h>

#include <array>
#include <cstring>
#include <mutex>
#include <sstream>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {

namespace {

// Raised when a value cannot cross to the other side: a harness problem, not an operator's error.
struct Unconvertible : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Dtypes cross by name ("Float" is c10::ScalarType::Float), so a dtype Switchyard gains (issue 29)
// needs nothing here as long as PyTorch spells it the same.
c10::ScalarType toTorch(ScalarType dtype) {
  static const auto table = [] {
    std::array<std::optional<c10::ScalarType>, kNumScalarTypes> t{};
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const std::string_view name = toString(static_cast<ScalarType>(i));
      for (int j = 0; j < static_cast<int>(c10::ScalarType::NumOptions); ++j) {
        if (name == c10::toString(static_cast<c10::ScalarType>(j))) t[i] = static_cast<c10::ScalarType>(j);
      }
    }
    return t;
  }();
  const int i = static_cast<int>(dtype);
  if (i < 0 || i >= kNumScalarTypes || !table[i]) {
    throw Unconvertible(str("dtype ", toString(dtype), " has no PyTorch counterpart"));
  }
  return *table[i];
}

}  // namespace

ScalarType fromTorchScalarType(int64_t code) {
  if (code < 0 || code >= static_cast<int64_t>(c10::ScalarType::NumOptions)) {
    throw Error(str("oracle: ", code, " is no PyTorch dtype"));
  }
  const c10::ScalarType dtype = static_cast<c10::ScalarType>(code);
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (toString(static_cast<ScalarType>(i)) == c10::toString(dtype)) return static_cast<ScalarType>(i);
  }
  throw Error(str("oracle: PyTorch dtype ", c10::toString(dtype), " has no Switchyard counterpart"));
}

namespace {

ScalarType fromTorch(c10::ScalarType dtype) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (toString(static_cast<ScalarType>(i)) == c10::toString(dtype)) return static_cast<ScalarType>(i);
  }
  throw Unconvertible(str("PyTorch dtype ", c10::toString(dtype), " has no Switchyard counterpart"));
}

// A PyTorch tensor with a copy of `t`'s whole storage and `t`'s sizes, strides and offset: the
// same bytes, so the same elements and the same padding, at the same places.
at::Tensor toTorchTensor(const Tensor& t) {
  if (!t.defined()) return at::Tensor();
  if (!t.is_cpu() || !t.storage()) throw Unconvertible("only CPU tensors with storage cross to PyTorch");
  const c10::ScalarType dtype = toTorch(t.scalar_type());
  const size_t nbytes = t.storage()->nbytes();
  c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes, c10::GetCPUAllocator(), /*resizable=*/true);
  if (nbytes > 0) std::memcpy(storage.data(), t.storage()->data(), nbytes);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                                   c10::scalarTypeToTypeMeta(dtype));
  impl->set_sizes_and_strides(c10::IntArrayRef(t.sizes().data(), t.sizes().size()),
                              c10::IntArrayRef(t.strides().data(), t.strides().size()), t.storage_offset());
  return at::Tensor(std::move(impl));
}

// A contiguous Switchyard copy of a PyTorch tensor's elements.
Tensor fromTorchTensor(const at::Tensor& t) {
  if (!t.defined()) return Tensor();
  if (!t.is_cpu()) throw Unconvertible("PyTorch returned a tensor that is not on the CPU");
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  Tensor copy = empty(sizes, fromTorch(t.scalar_type()));
  const size_t element = t.element_size();
  if (element != copy.element_size()) throw Unconvertible("element sizes differ between PyTorch and Switchyard");
  if (copy.numel() == 0) return copy;
  if (!t.has_storage() || t.storage().data() == nullptr) {
    throw Unconvertible(str("PyTorch returned a tensor of ", copy.numel(), " elements without storage"));
  }
  const char* src = static_cast<const char*>(t.data_ptr());
  char* dst = static_cast<char*>(copy.data_ptr());
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(ndim, 0);
  std::array<int64_t, 1> offset{0};
  for (int64_t n = 0; n < copy.numel(); ++n) {
    std::memcpy(dst + n * element, src + offset[0] * static_cast<int64_t>(element), element);
    advanceOdometer(index.data(), sizes.data(), ndim - 1, offset, [&](int64_t d, size_t) { return t.stride(d); });
  }
  return copy;
}

c10::TypePtr elementOf(const c10::TypePtr& type) {
  if (type->kind() == c10::TypeKind::OptionalType) return type->expectRef<c10::OptionalType>().getElementType();
  return type;
}

// `v` as PyTorch's boxed value for an argument of `type` (ScalarType, Layout and MemoryFormat are
// ints there; a Tensor?[] is a typed list of optional tensors).
c10::IValue toTorchValue(const IValue& v, const c10::TypePtr& type) {
  switch (v.tag()) {
    case IValue::Tag::None: return c10::IValue();
    case IValue::Tag::Tensor: return toTorchTensor(v.toTensor());
    case IValue::Tag::Int: return v.toInt();
    case IValue::Tag::Double: return v.toDouble();
    case IValue::Tag::Bool: return v.toBool();
    case IValue::Tag::String: return v.toStringRef();
    case IValue::Tag::ScalarType: return static_cast<int64_t>(toTorch(v.toScalarType()));
    case IValue::Tag::Device:
      if (!v.toDevice().is_cpu()) throw Unconvertible("only the CPU device crosses to PyTorch");
      return c10::Device(c10::kCPU);
    case IValue::Tag::IntList: return v.toIntVector();
    case IValue::Tag::DoubleList: return v.toDoubleList();
    case IValue::Tag::BoolList: {
      c10::List<bool> list;
      for (bool b : v.toBoolList()) list.push_back(b);
      return list;
    }
    case IValue::Tag::TensorList: {
      c10::List<at::Tensor> list;
      for (const Tensor& t : v.toTensorVector()) list.push_back(toTorchTensor(t));
      return list;
    }
    case IValue::Tag::GenericList: {
      const c10::TypePtr list_type = elementOf(type);
      if (list_type->kind() != c10::TypeKind::ListType) throw Unconvertible("a list given for a non-list argument");
      const c10::TypePtr element = list_type->expectRef<c10::ListType>().getElementType();
      if (element->kind() == c10::TypeKind::OptionalType &&
          elementOf(element)->kind() == c10::TypeKind::TensorType) {
        c10::List<c10::optional<at::Tensor>> list;
        for (const IValue& e : v.toList()) {
          list.push_back(e.isNone() ? c10::optional<at::Tensor>() : c10::optional<at::Tensor>(toTorchTensor(e.toTensor())));
        }
        return list;
      }
      c10::impl::GenericList list(element);
      for (const IValue& e : v.toList()) list.push_back(toTorchValue(e, element));
      return list;
    }
    default: throw Unconvertible(str("an argument of type ", v.typeName(), " does not cross to PyTorch"));
  }
}

// PyTorch's value as Switchyard's; `type` (the schema's) tells a dtype from an int.
IValue fromTorchValue(const c10::IValue& v, const c10::TypePtr& type) {
  const c10::TypePtr base = elementOf(type);
  if (v.isNone()) return IValue();
  if (v.isTensor()) return fromTorchTensor(v.toTensor());
  if (v.isInt()) {
    if (base->kind() == c10::TypeKind::ScalarTypeType) return fromTorch(static_cast<c10::ScalarType>(v.toInt()));
    return v.toInt();
  }
  if (v.isDouble()) return v.toDouble();
  if (v.isBool()) return v.toBool();
  if (v.isString()) return std::string(v.toStringRef());
  if (v.isIntList()) return v.toIntVector();
  if (v.isDoubleList()) return v.toDoubleVector();
  if (v.isBoolList()) {
    std::vector<bool> out;
    for (bool b : v.toBoolList()) out.push_back(b);
    return out;
  }
  if (v.isTensorList()) {
    std::vector<Tensor> out;
    for (const at::Tensor& t : v.toTensorVector()) out.push_back(fromTorchTensor(t));
    return out;
  }
  if (v.isTuple()) {
    std::vector<IValue> out;
    for (const c10::IValue& e : v.toTupleRef().elements()) out.push_back(fromTorchValue(e, c10::AnyType::get()));
    return IValue::tuple(std::move(out));
  }
  if (v.isList()) {
    std::vector<IValue> out;
    for (const c10::IValue& e : v.toListRef()) out.push_back(fromTorchValue(e, c10::AnyType::get()));
    return out;
  }
  throw Unconvertible(str("PyTorch returned a ", v.tagKind(), ", which the oracle cannot read"));
}

// PyTorch's warnings (an out= tensor resized, a deprecated form) are not the oracle's output.
class QuietWarnings final : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
};

// Note [PyTorch's errors carry no stack trace here]
// Every c10::Error PyTorch raises fetches and symbolises a C++ backtrace (dladdr on each frame), about
// a millisecond each; the oracle provokes tens of thousands of errors on purpose (every refused
// dtype, shape and cast is compared with Switchyard's refusal), and the backtraces took four fifths
// of its run time. The oracle reads only the message (what_without_backtrace), so the fetcher is
// replaced, once, before the first call into PyTorch.
void dropTorchStackTraces() {
  static const bool dropped = [] {
    c10::SetStackTraceFetcher([] { return std::string(); });
    return true;
  }();
  (void)dropped;
}

// Every call into PyTorch looks its operator up here first.
c10::optional<c10::OperatorHandle> findTorch(const OperatorName& name) {
  dropTorchStackTraces();
  return c10::Dispatcher::singleton().findSchema({name.name, name.overload_name});
}

// The argument a return of `schema` writes and returns (`-> Tensor(a!)`), or -1.
//
// Note [PyTorch's written returns are read from their arguments]
// A written return is the argument itself (an out= or in-place form returns what it wrote), so the
// oracle reads it from its own reference to the argument rather than from the returned value: in
// PyTorch 1.13 some generated out= forms returning several references (native_dropout.out) leave
// the stack with references to arguments the boxed call has already dropped.
int writtenArgumentOf(const c10::FunctionSchema& schema, size_t r) {
  const c10::AliasInfo* ret = schema.returns()[r].alias_info();
  if (ret == nullptr || !ret->isWrite()) return -1;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const c10::AliasInfo* arg = schema.arguments()[i].alias_info();
    if (arg != nullptr && arg->isWrite() && arg->beforeSets() == ret->beforeSets()) return static_cast<int>(i);
  }
  return -1;
}

std::string messageOf(const std::exception& e) {
  if (const auto* c10_error = dynamic_cast<const c10::Error*>(&e)) return c10_error->what_without_backtrace();
  return e.what();
}

}  // namespace

std::optional<std::string> torchSchema(const OperatorName& name) {
  c10::optional<c10::OperatorHandle> op = findTorch(name);
  if (!op || !op->hasSchema()) return std::nullopt;
  std::ostringstream os;
  os << op->schema();
  return os.str();
}

Outcome callTorch(const FunctionSchema& schema, const std::vector<IValue>& arguments) {
  Outcome outcome;
  c10::optional<c10::OperatorHandle> op = findTorch(schema.operator_name());
  if (!op || !op->hasSchema()) {
    outcome.unusable = str("PyTorch 1.13 has no operator ", schema.operator_name().toString());
    return outcome;
  }
  const c10::FunctionSchema& torch_schema = op->schema();
  const auto& ours = schema.arguments();
  QuietWarnings quiet;
  c10::Warning::WarningHandlerGuard quiet_guard(&quiet);
  c10::InferenceMode inference;
  torch::jit::Stack stack;
  std::vector<c10::IValue> passed(ours.size());  // what PyTorch got, by our index: read again after the call
  std::vector<bool> used(ours.size(), false);
  std::vector<int> ours_of_theirs;               // our index of each of PyTorch's arguments, or -1
  try {
    for (const c10::Argument& theirs : torch_schema.arguments()) {
      size_t i = 0;
      while (i < ours.size() && ours[i].name != theirs.name()) ++i;
      if (i == ours.size()) {
        if (!theirs.default_value()) {
          outcome.unusable = str("PyTorch's schema has argument '", theirs.name(), "', which Switchyard's lacks");
          return outcome;
        }
        stack.push_back(*theirs.default_value());
        ours_of_theirs.push_back(-1);
        continue;
      }
      used[i] = true;
      ours_of_theirs.push_back(static_cast<int>(i));
      passed[i] = toTorchValue(arguments[i], theirs.type());
      stack.push_back(passed[i]);
    }
  } catch (const Unconvertible& e) {
    outcome.unusable = e.what();
    return outcome;
  }
  for (size_t i = 0; i < ours.size(); ++i) {
    if (!used[i]) {
      outcome.unusable = str("PyTorch 1.13's schema has no argument '", ours[i].name, "'");
      return outcome;
    }
  }
  try {
    op->callBoxed(&stack);
  } catch (const std::exception& e) {
    outcome.error = messageOf(e);
    return outcome;
  }
  try {
    const auto& returns = torch_schema.returns();
    for (size_t r = 0; r < stack.size(); ++r) {
      const c10::TypePtr type = r < returns.size() ? returns[r].type() : c10::AnyType::get();
      // See Note [PyTorch's written returns are read from their arguments].
      const int written = r < returns.size() ? writtenArgumentOf(torch_schema, r) : -1;
      if (written >= 0 && ours_of_theirs[written] >= 0) stack[r] = passed[ours_of_theirs[written]];
      outcome.results.push_back(fromTorchValue(stack[r], type));
      ResultAlias alias;
      if (stack[r].isTensor() && stack[r].toTensor().defined()) {
        const at::Tensor& result = stack[r].toTensor();
        for (size_t i = 0; i < passed.size() && alias.kind != ResultAlias::Kind::SameTensor; ++i) {
          if (!passed[i].isTensor() || !passed[i].toTensor().defined()) continue;
          const at::Tensor& argument = passed[i].toTensor();
          if (result.is_same(argument)) {
            alias = {ResultAlias::Kind::SameTensor, static_cast<int>(i)};
          } else if (alias.kind == ResultAlias::Kind::None && result.storage().is_alias_of(argument.storage())) {
            alias = {ResultAlias::Kind::SharesStorage, static_cast<int>(i)};
          }
        }
      }
      outcome.aliases.push_back(alias);
    }
    for (size_t i = 0; i < ours.size(); ++i) {
      outcome.arguments.push_back(fromTorchValue(passed[i], c10::AnyType::get()));
      if (arguments[i].isScalarType() || arguments[i].isDevice()) outcome.arguments.back() = arguments[i];
    }
  } catch (const Unconvertible& e) {
    outcome.unusable = e.what();
  }
  return outcome;
}

std::vector<IValue> torchCall(const std::string& op, std::vector<IValue> arguments) {
  const size_t dot = op.find('.', op.find("::") == std::string::npos ? 0 : op.find("::"));
  const OperatorName name{op.substr(0, dot), dot == std::string::npos ? "" : op.substr(dot + 1)};
  c10::optional<c10::OperatorHandle> handle = findTorch(name);
  SY_CHECK(handle && handle->hasSchema(), "oracle: PyTorch 1.13 has no operator ", op);
  const auto& schema_arguments = handle->schema().arguments();
  SY_CHECK(arguments.size() <= schema_arguments.size(), "oracle: ", op, " takes ", schema_arguments.size(),
           " arguments, given ", arguments.size());
  QuietWarnings quiet;
  c10::Warning::WarningHandlerGuard quiet_guard(&quiet);
  c10::InferenceMode inference;
  torch::jit::Stack stack;
  for (size_t i = 0; i < schema_arguments.size(); ++i) {
    if (i < arguments.size()) {
      stack.push_back(toTorchValue(arguments[i], schema_arguments[i].type()));
    } else {
      SY_CHECK(schema_arguments[i].default_value(), "oracle: ", op, " needs argument '", schema_arguments[i].name(), "'");
      stack.push_back(*schema_arguments[i].default_value());
    }
  }
  const torch::jit::Stack passed = stack;
  try {
    handle->callBoxed(&stack);
  } catch (const std::exception& e) {
    throw Error(str("PyTorch: ", messageOf(e)));
  }
  std::vector<IValue> results;
  const auto& returns = handle->schema().returns();
  for (size_t r = 0; r < stack.size(); ++r) {
    // See Note [PyTorch's written returns are read from their arguments].
    const int written = r < returns.size() ? writtenArgumentOf(handle->schema(), r) : -1;
    if (written >= 0) stack[r] = passed[written];
    results.push_back(fromTorchValue(stack[r], r < returns.size() ? returns[r].type() : c10::AnyType::get()));
  }
  return results;
}

void torchManualSeed(uint64_t seed) {
  at::Generator generator = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(generator.mutex());
  generator.set_current_seed(seed);
}

}  // namespace sy::oracle
