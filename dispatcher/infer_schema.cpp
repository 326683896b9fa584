#include "switchyard/dispatcher/infer_schema.h"

#include <cxxabi.h>

#include <algorithm>
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
  auto ret = [&](size_t i) { return returns[i]->str() + (returns_reference[i] ? "&" : ""); };
  if (returns.size() == 1) return out + ret(0);
  out += "(";
  for (size_t i = 0; i < returns.size(); ++i) out += (i ? ", " : "") + ret(i);
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

// The `Tensor&` parameter that return `r` of a schema without alias annotations hands back, by
// PyTorch's convention (boxing.h's soleMutableTensorParameter and
// firstOfTrailingMutableTensorParameters): the only one for a single return, else the last
// parameters, in order, when they are all `Tensor&`. -1 when there is none.
int conventionalArgumentOfReturn(const InferredSignature& inferred, size_t r) {
  const std::vector<bool>& is_mutable = inferred.arguments_mutable;
  const size_t returns = inferred.returns.size();
  if (returns == 1) {
    if (std::count(is_mutable.begin(), is_mutable.end(), true) != 1) return -1;
    return static_cast<int>(std::find(is_mutable.begin(), is_mutable.end(), true) - is_mutable.begin());
  }
  if (returns > is_mutable.size() || !std::all_of(is_mutable.end() - returns, is_mutable.end(), [](bool m) { return m; })) {
    return -1;
  }
  return static_cast<int>(is_mutable.size() - returns + r);
}

}  // namespace

// Note [A Tensor& return hands back an argument the caller passed as Tensor&]
// A kernel returning `Tensor&` returns the caller's own object (See Note [Out arguments come back
// as the caller's own object] in boxing.h), so the schema must say which argument that is. In a
// schema with alias annotations, PyTorch's rule holds (torchgen's returntype_type and its "Tensor
// Copy Returns"): a Tensor return is `Tensor&` exactly when it is written, `-> Tensor(a!)`,
// aliasing a written argument, and by value otherwise (a fresh result, or a view `-> Tensor(a)`);
// PyTorch's generated at:: functions call operators with those signatures. A schema without any
// annotation (an older PyTorch custom operator, or one inferred from a C++ signature) follows
// PyTorch's positional convention instead, the one the boxed path uses: the only `Tensor&`
// parameter, or the last ones in order for several returns. Anything else is refused where the
// kernel registers (or where typed<>() names the signature), as other mismatches are: a `Tensor&`
// return that hands back no argument (a kernel whose tensors are all const) used to register and
// then fail, or return some other object, at its first call; and a by-value return for a written
// `Tensor(a!)` hands callers a new handle where they expect their own object.
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
  const bool annotated = hasAliasAnnotations(schema);
  for (size_t i = 0; i < rets.size(); ++i) {
    if (!inferred.returns[i]->matches(*rets[i].type)) {
      return str("return ", i, " has type ", rets[i].type->str(), " in the schema but ", inferred.returns[i]->str(),
                 " in the C++ signature");
    }
    // See Note [A Tensor& return hands back an argument the caller passed as Tensor&]
    if (inferred.returns_reference[i]) {
      if (annotated && !(rets[i].is_write() && schema.aliasedArgumentOfReturn(i) >= 0)) {
        return str("return ", i, " is ", rets[i], " in the schema, a new value, but ", inferred.returns[i]->str(),
                   "& (a reference) in the C++ signature; return it by value, or, if the operator writes an "
                   "argument and hands it back, annotate both in the schema (Tensor(a!))");
      }
      if (!annotated && conventionalArgumentOfReturn(inferred, i) < 0) {
        return str("return ", i, " is ", rets[i], " in the schema, a new value, but ", inferred.returns[i]->str(),
                   "& (a reference) in the C++ signature, with no Tensor& parameter to hand back (without alias "
                   "annotations, a reference return is the only Tensor& parameter, or for several returns the "
                   "last ones in order); return it by value, or annotate the argument it writes and hands back in "
                   "the schema (Tensor(a!))");
      }
    } else if (rets[i].is_write() && rets[i].type->kind() == TypeKind::Tensor) {
      return str("return ", i, " is ", rets[i], " in the schema, the argument the operator writes, but ",
                 inferred.returns[i]->str(), " (a new value) in the C++ signature; return that argument as ",
                 inferred.returns[i]->str(), "&");
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
