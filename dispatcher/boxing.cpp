// The cold paths of boxing.h: error messages for malformed boxed calls.
#include "switchyard/dispatcher/boxing.h"

#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/generic_dict.h"

namespace sy::detail {
namespace {

bool fitsType(const IValue& v, const Type& type) {
  switch (type.kind()) {
    case TypeKind::Tensor: return v.isTensor();
    case TypeKind::Int:
    case TypeKind::SymInt:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return v.isInt();
    case TypeKind::Float: return v.isDouble() || v.isInt();
    case TypeKind::Bool: return v.isBool();
    case TypeKind::Str: return v.isString();
    case TypeKind::Scalar: return v.isScalar();
    case TypeKind::ScalarType: return v.isScalarType();
    case TypeKind::Device: return v.isDevice();
    case TypeKind::Optional: return v.isNone() || fitsType(v, *type.element());
    case TypeKind::List:
      switch (type.element()->kind()) {
        case TypeKind::Int:
        case TypeKind::SymInt: return v.isIntList();
        case TypeKind::Float: return v.isDoubleList();
        case TypeKind::Bool: return v.isBoolList();
        case TypeKind::Tensor: return v.isTensorList();
        default: return v.isList();
      }
    case TypeKind::Dict:
      if (!v.isGenericDict()) return false;
      for (const GenericDict::Entry& e : v.toGenericDict()) {
        if (!fitsType(e.key(), *type.key()) || !fitsType(e.value(), *type.element())) return false;
      }
      return true;
  }
  return false;
}

// What of `v` does not fit `type`, for a dict: " (its key 'a' is a str)".
std::string whereItDoesNotFit(const IValue& v, const Type& type) {
  if (type.kind() != TypeKind::Dict || !v.isGenericDict()) return "";
  for (const GenericDict::Entry& e : v.toGenericDict()) {
    if (!fitsType(e.key(), *type.key())) return str(" whose key ", e.key(), " is a ", e.key().typeName());
    if (!fitsType(e.value(), *type.element())) {
      return str(" whose value for key ", e.key(), " is a ", e.value().typeName());
    }
  }
  return "";
}

std::string opName(const OperatorHandle& op) { return op.operator_name().toString(); }

}  // namespace

void throwStackTooSmall(const OperatorHandle& op, size_t needed, size_t available) {
  SY_ERROR(opName(op), " expects ", needed, " arguments on the stack but the stack holds ", available, " value(s)",
           op.hasSchema() ? str("; schema: ", op.schema().toString()) : std::string());
}

void throwArgumentTypeError(const OperatorHandle& op, const IValue* args, size_t num_args, const std::string& what) {
  if (op.hasSchema() && op.schema().arguments().size() == num_args) {
    const auto& schema_args = op.schema().arguments();
    for (size_t i = 0; i < num_args; ++i) {
      if (!fitsType(args[i], *schema_args[i].type)) {
        SY_ERROR_KIND(Type, opName(op), ": argument '", schema_args[i].name, "' (position ", i, ") must be ",
                      schema_args[i].type->str(), " but the stack holds a value of type ", args[i].typeName(),
                      whereItDoesNotFit(args[i], *schema_args[i].type), "; schema: ", op.schema().toString());
      }
    }
  }
  SY_ERROR_KIND(Type, opName(op), ": cannot unbox the arguments on the stack: ", what);
}

void throwWrongNumberOfReturns(const BridgedCall& call, size_t expected, size_t actual) {
  const OperatorHandle& op = *call.op;
  const DispatchKeySet ks = call.ks;
  SY_ERROR("the boxed kernel for ", opName(op), " on dispatch key ", ks.highestPriorityTypeId(), " left ", actual,
           " value(s) on the stack, but the operator returns ", expected);
}

void throwReboundOutArgument(const BridgedCall& call, size_t return_index, int argument_index) {
  const OperatorHandle& op = *call.op;
  const DispatchKeySet ks = call.ks;
  std::string argument = "its out/in-place argument";
  if (argument_index >= 0 && op.hasSchema()) {
    const Argument& arg = op.schema().arguments()[argument_index];
    argument = str("argument '", arg.name, "' (", arg.type->str(),
                   arg.alias_info ? str("(", arg.alias_info->set, arg.alias_info->is_write ? "!" : "", ")") : "", ")");
  }
  SY_ERROR("the boxed kernel for ", opName(op), " on dispatch key ", ks.highestPriorityTypeId(), " returned (as return ",
           return_index, ") a different tensor than ", argument,
           " it was given. A kernel may resize and write an out or in-place argument, but must return that same "
           "tensor, not rebind it to a new TensorImpl.");
}

void throwReturnTypeError(const BridgedCall& call, const IValue& result, size_t return_index, const char* what) {
  const OperatorHandle& op = *call.op;
  std::string expected = "the C++ return type";
  if (op.hasSchema() && return_index < op.schema().returns().size()) {
    expected = op.schema().returns()[return_index].type->str();
  }
  SY_ERROR("the boxed kernel for ", opName(op), " on dispatch key ", call.ks.highestPriorityTypeId(),
           " returned a value of the wrong type: return ", return_index, " must be ", expected,
           " but the kernel left a value of type ", result.typeName(), *what != '\0' ? str(" (", what, ")") : "",
           op.hasSchema() ? str("; schema: ", op.schema().toString()) : std::string());
}

int aliasedArgumentOfReturn(const OperatorHandle& op, size_t return_index) {
  const FunctionSchema& schema = op.schema();
  return return_index < schema.returns().size() ? schema.aliasedArgumentOfReturn(return_index) : -1;
}

}  // namespace sy::detail
