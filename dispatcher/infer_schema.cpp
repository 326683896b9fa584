#include "switchyard/dispatcher/infer_schema.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace sy {

std::string demangle(const char* mangled_name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> result(abi::__cxa_demangle(mangled_name, nullptr, nullptr, &status),
                                                std::free);
  return status == 0 && result ? std::string(result.get()) : std::string(mangled_name);
}

std::string InferredSignature::str() const {
  std::string out = "(";
  for (size_t i = 0; i < arguments.size(); ++i) out += (i ? ", " : "") + arguments[i]->str();
  out += ") -> ";
  if (returns.size() == 1) return out + returns[0]->str();
  out += "(";
  for (size_t i = 0; i < returns.size(); ++i) out += (i ? ", " : "") + returns[i]->str();
  return out + ")";
}

namespace {
bool hasAliasAnnotations(const FunctionSchema& schema) {
  for (const auto* list : {&schema.arguments(), &schema.returns()}) {
    for (const Argument& a : *list) {
      if (a.alias_info) return true;
    }
  }
  return false;
}
}  // namespace

std::optional<std::string> findSignatureMismatch(const FunctionSchema& schema, const InferredSignature& inferred) {
  const auto& args = schema.arguments();
  if (args.size() != inferred.arguments.size()) {
    return str("the schema has ", args.size(), " arguments but the C++ signature has ", inferred.arguments.size());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!inferred.arguments[i]->matches(*args[i].type)) {
      return str("argument ", i, " ('", args[i].name, "') has type ", args[i].type->str(), " in the schema but ",
                 inferred.arguments[i]->str(), " in the C++ signature");
    }
  }
  const auto& rets = schema.returns();
  if (rets.size() != inferred.returns.size()) {
    return str("the schema has ", rets.size(), " returns but the C++ signature has ", inferred.returns.size());
  }
  for (size_t i = 0; i < rets.size(); ++i) {
    if (!inferred.returns[i]->matches(*rets[i].type)) {
      return str("return ", i, " has type ", rets[i].type->str(), " in the schema but ", inferred.returns[i]->str(),
                 " in the C++ signature");
    }
    // A reference can only be the caller's own argument handed back (see Note [Out arguments come back
    // as the caller's own object]); in a schema with alias annotations, a return that aliases no
    // written argument is a new value. (A schema without any, such as one inferred from a C++
    // signature, follows PyTorch's convention that Tensor& returns are the trailing arguments.)
    if (inferred.returns_reference[i] && schema.aliasedArgumentOfReturn(i) < 0 && hasAliasAnnotations(schema)) {
      return str("return ", i, " is a reference (", inferred.returns[i]->str(),
                 "&) in the C++ signature, but the schema's return ", rets[i].type->str(),
                 " aliases no written argument; return it by value, or annotate the schema as an out or in-place "
                 "operator (Tensor(a!))");
    }
  }
  return std::nullopt;
}

FunctionSchema schemaFromSignature(OperatorName name, const InferredSignature& signature) {
  std::vector<Argument> arguments;
  arguments.reserve(signature.arguments.size());
  for (size_t i = 0; i < signature.arguments.size(); ++i) {
    Argument argument;
    argument.name = str("_", i);
    argument.type = signature.arguments[i];
    arguments.push_back(std::move(argument));
  }
  std::vector<Argument> returns;
  returns.reserve(signature.returns.size());
  for (const TypePtr& type : signature.returns) {
    Argument result;
    result.type = type;
    returns.push_back(std::move(result));
  }
  return FunctionSchema(std::move(name), std::move(arguments), std::move(returns));
}

}  // namespace sy
