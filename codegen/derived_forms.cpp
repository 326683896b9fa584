#include "switchyard/codegen/derived_forms.h"

#include "switchyard/codegen/yaml_reading.h"
#include "switchyard/core/error.h"

namespace sy::codegen {

namespace {

constexpr std::string_view kOutSuffix = "_out";

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The out variant's arguments and returns without its out arguments (which whyNotAnOutVariant
// checked are last).
std::vector<Argument> inputsOf(const FunctionSchema& out_variant) {
  std::vector<Argument> inputs;
  for (const Argument& a : out_variant.arguments()) {
    if (!a.is_out()) inputs.push_back(a);
  }
  return inputs;
}

}  // namespace

std::optional<std::string> derivedOverloadName(const std::string& out_overload) {
  if (out_overload == "out") return std::string();
  if (endsWith(out_overload, kOutSuffix) && out_overload.size() > kOutSuffix.size()) {
    return out_overload.substr(0, out_overload.size() - kOutSuffix.size());
  }
  return std::nullopt;
}

bool isListOutVariant(const FunctionSchema& schema) {
  const std::vector<Argument>& args = schema.arguments();
  if (args.empty() || !schema.returns().empty()) return false;
  const Argument& last = args.back();
  return last.is_out() && last.type->kind() == TypeKind::List && last.type->element()->kind() == TypeKind::Tensor;
}

std::optional<std::string> whyNotAnOutVariant(const FunctionSchema& schema) {
  const std::vector<Argument>& args = schema.arguments();
  size_t first_out = args.size();
  while (first_out > 0 && args[first_out - 1].is_out()) --first_out;
  if (first_out == args.size()) return std::string("its last argument is not a kwarg-only written tensor (`*, Tensor(a!) out`)");
  for (size_t i = 0; i < first_out; ++i) {
    if (args[i].is_write()) return "it writes '" + args[i].name + "', which is not one of its out arguments at the end";
  }
  const size_t outs = args.size() - first_out;
  if (outs == 1 && isListOutVariant(schema)) return std::nullopt;
  for (size_t i = first_out; i < args.size(); ++i) {
    if (args[i].type->kind() != TypeKind::Tensor) {
      return "its out argument '" + args[i].name + "' is not a Tensor (a list of outs must be the only out argument, " +
             "returning nothing: `*, Tensor(a!)[] out) -> ()`)";
    }
  }
  if (schema.returns().size() != outs) {
    return "it has " + std::to_string(outs) + " out argument(s) but " + std::to_string(schema.returns().size()) +
           " return(s); an out variant returns its out arguments";
  }
  for (size_t r = 0; r < outs; ++r) {
    if (schema.aliasedArgumentOfReturn(r) != static_cast<int>(first_out + r)) {
      return "its return " + std::to_string(r) + " is not its out argument '" + args[first_out + r].name + "'";
    }
  }
  return std::nullopt;
}

FunctionSchema functionalFormOf(const FunctionSchema& out_variant, const OperatorName& name) {
  std::vector<Argument> returns;
  if (isListOutVariant(out_variant)) {
    Argument list;
    list.type = Type::list(Type::get(TypeKind::Tensor));
    returns.push_back(std::move(list));
  }
  for (const Argument& r : out_variant.returns()) {
    Argument fresh;
    fresh.name = r.name;
    fresh.type = Type::get(TypeKind::Tensor);
    returns.push_back(std::move(fresh));
  }
  return FunctionSchema(name, inputsOf(out_variant), std::move(returns));
}

FunctionSchema inplaceFormOf(const FunctionSchema& out_variant, const OperatorName& name) {
  std::vector<Argument> arguments = inputsOf(out_variant);
  SY_CHECK(!isListOutVariant(out_variant), out_variant.operator_name().toString(),
           ": an in-place form needs an out variant with one out tensor; this one writes a list of them");
  SY_CHECK(out_variant.returns().size() == 1, out_variant.operator_name().toString(),
           ": an in-place form needs an out variant with one out argument; this one has ",
           out_variant.returns().size());
  SY_CHECK(!arguments.empty() && arguments[0].name == "self" && arguments[0].type->kind() == TypeKind::Tensor &&
               !arguments[0].kwarg_only,
           out_variant.operator_name().toString(), ": an in-place form writes its first argument, which must be `Tensor self`");
  arguments[0].alias_info = AliasInfo{"a", /*is_write=*/true};
  Argument result;
  result.type = Type::get(TypeKind::Tensor);
  result.alias_info = AliasInfo{"a", /*is_write=*/true};
  return FunctionSchema(name, std::move(arguments), {std::move(result)});
}

namespace {

// The name a `functional:` or `inplace:` key gives its form: derived by the rule for `true`, as
// written for a name ("add.Tensor", "add_.Tensor"; the namespace is the out variant's).
OperatorName formName(const std::string& file, const YAML::Node& node, const FunctionSchema& out_variant, OutputForm form,
                      const char* key) {
  const std::string op = out_variant.operator_name().toString();
  bool flag = false;
  if (node.IsScalar() && YAML::convert<bool>::decode(node, flag)) {
    if (!flag) fail(siteOf(file, node), key, "write the key only for a form " + op + " has (it is `true` or the form's name)");
    std::optional<std::string> overload = derivedOverloadName(out_variant.overload_name());
    if (!overload) {
      fail(siteOf(file, node), key,
           "the overload of " + op + " is not `out` or `<name>_out`, so the form's name cannot be derived: write it, e.g. `" +
               key + ": " + out_variant.name().substr(out_variant.name().find("::") + 2) +
               (form == OutputForm::InPlace ? "_" : "") + ".<overload>`");
    }
    std::string name = out_variant.name() + (form == OutputForm::InPlace ? "_" : "");
    return OperatorName{name, *overload};
  }
  const std::string text = scalarText(file, node, key, "the form's name");
  OperatorName name;
  try {
    name = parseOperatorName(text.find("::") == std::string::npos ? std::string(out_variant.operator_name().getNamespace()) + "::" + text
                                                                   : text);
  } catch (const Error& e) {
    fail(siteOf(file, node), key, e.what());
  }
  if (name.getNamespace() != out_variant.operator_name().getNamespace()) {
    fail(siteOf(file, node), key, "a derived form lives in its out variant's namespace (" +
                                      std::string(out_variant.operator_name().getNamespace()) + "), not " + text);
  }
  const bool trailing_underscore = !name.name.empty() && name.name.back() == '_';
  if (trailing_underscore != (form == OutputForm::InPlace)) {
    fail(siteOf(file, node), key,
         form == OutputForm::InPlace ? "an in-place form's name ends in '_' (" + text + " does not)"
                                     : "a functional form's name does not end in '_' (" + text + " does)");
  }
  return name;
}

}  // namespace

std::vector<std::string> derivedFormNames(const YAML::Node& entry, const std::string& out_variant) {
  std::vector<std::string> names;
  const size_t dot = out_variant.find('.');
  const std::string base = out_variant.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : out_variant.substr(dot + 1);
  for (const char* key : {"functional", "inplace"}) {
    const YAML::Node node = entry[key];
    if (!node || !node.IsScalar()) continue;
    const std::string suffix = std::string(key) == "inplace" ? "_" : "";
    bool flag = false;
    if (YAML::convert<bool>::decode(node, flag)) {
      std::optional<std::string> derived = derivedOverloadName(overload);
      if (flag && derived) names.push_back(base + suffix + (derived->empty() ? "" : "." + *derived));
    } else {
      const std::string& text = node.Scalar();
      names.push_back(text.find("::") == std::string::npos ? base.substr(0, base.find("::") + 2) + text : text);
    }
  }
  return names;
}

std::vector<DerivedForm> readDerivedForms(const std::string& file, const YAML::Node& entry, const FunctionSchema& out_variant) {
  std::vector<DerivedForm> forms;
  const YAML::Node functional = entry["functional"];
  const YAML::Node inplace = entry["inplace"];
  const YAML::Node outs = entry["functional_outs"];
  if (!functional && !inplace && !outs) return forms;
  const YAML::Node first = functional ? functional : inplace ? inplace : outs;
  if (std::optional<std::string> why = whyNotAnOutVariant(out_variant)) {
    fail(siteOf(file, first), "derived forms",
         out_variant.operator_name().toString() + " derives forms only as an out variant, but " + *why);
  }
  const bool list_out = isListOutVariant(out_variant);
  if (outs && !(list_out && functional)) {
    fail(siteOf(file, outs), "functional_outs",
         list_out ? "names the function that creates the functional form's outs, but the entry asks for no `functional:` form"
                  : out_variant.operator_name().toString() +
                        " does not write a list of outs (`*, Tensor(a!)[] out) -> ()`), so its functional form needs no "
                        "function to create them: remove the key");
  }
  if (functional) {
    const OperatorName name = formName(file, functional, out_variant, OutputForm::Functional, "functional");
    DerivedForm form{functionalFormOf(out_variant, name), OutputForm::Functional, siteOf(file, functional), std::nullopt};
    if (list_out) {
      if (!outs) {
        fail(siteOf(file, functional), "functional_outs",
             out_variant.operator_name().toString() +
                 " writes a list of outs whose length only its inputs tell, so its functional form needs a function "
                 "that creates them: add `functional_outs: <namespace>::<function>`, a function "
                 "std::vector<Tensor>(<the inputs>, const KernelContext&) in <namespace>::native");
      }
      form.outs_function = readCppFunction(file, outs, "functional_outs");
    }
    forms.push_back(std::move(form));
  }
  if (inplace) {
    const OperatorName name = formName(file, inplace, out_variant, OutputForm::InPlace, "inplace");
    try {
      forms.push_back({inplaceFormOf(out_variant, name), OutputForm::InPlace, siteOf(file, inplace), std::nullopt});
    } catch (const Error& e) {
      fail(siteOf(file, inplace), "inplace", e.what());
    }
  }
  return forms;
}

}  // namespace sy::codegen
