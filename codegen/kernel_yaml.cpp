#include "switchyard/codegen/kernel_yaml.h"

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include "switchyard/codegen/arg_meta.h"
#include "switchyard/codegen/derived_forms.h"
#include "switchyard/codegen/dtype_sets.h"
#include "switchyard/codegen/yaml_reading.h"
#include "switchyard/core/error.h"
#include "yaml-cpp/yaml.h"

namespace sy::codegen {
namespace {

// The argument types a kernel may take: the leaf kinds ExecuTorch lists, optionals of them, and
// the lists our kernels' C++ signatures can express.
bool isSupportedLeaf(TypeKind k) {
  switch (k) {
    case TypeKind::Tensor: case TypeKind::Int: case TypeKind::SymInt: case TypeKind::Float: case TypeKind::Bool:
    case TypeKind::Str: case TypeKind::Scalar: case TypeKind::ScalarType: case TypeKind::MemoryFormat:
    case TypeKind::Device:
      return true;
    default:
      return false;
  }
}
bool isSupportedListElement(TypeKind k) {
  return k == TypeKind::Tensor || k == TypeKind::Int || k == TypeKind::SymInt || k == TypeKind::Float || k == TypeKind::Bool;
}
// A list of optional tensors (Tensor?[], index.Tensor's indices) is the one list of optionals.
bool isOptionalTensorList(const Type& t) {
  return t.kind() == TypeKind::List && t.element()->kind() == TypeKind::Optional &&
         t.element()->element()->kind() == TypeKind::Tensor;
}
bool isSupportedArgumentType(const Type& t) {
  if (t.kind() == TypeKind::Optional) {
    const Type& e = *t.element();
    if (e.kind() == TypeKind::List) return isSupportedListElement(e.element()->kind());
    return isSupportedLeaf(e.kind());
  }
  if (isOptionalTensorList(t)) return true;
  if (t.kind() == TypeKind::List) return isSupportedListElement(t.element()->kind());
  return isSupportedLeaf(t.kind());
}

bool isTensor(const Type& t) { return t.kind() == TypeKind::Tensor; }

void checkCustomOperatorRules(const FunctionSchema& schema, const YamlSite& site) {
  const auto& args = schema.arguments();
  const std::string op = schema.operator_name().toString();
  if (args.empty() || args.back().name != "out" || !args.back().kwarg_only || !args.back().is_write() ||
      !(isTensor(*args.back().type) || (args.back().type->kind() == TypeKind::List && isTensor(*args.back().type->element())))) {
    fail(site, "out variants only",
         op + " must take its result as the last argument, keyword-only and written: `*, Tensor(a!) out` (a new "
              "operator defined in kernel YAML is an out variant, as in ExecuTorch)");
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i].is_out()) {
      fail(site, "out variants only", op + " has the out argument '" + args[i].name + "' before '" + args.back().name +
                                          "'; `out` must be the only out argument and come last");
    }
  }
  const auto& returns = schema.returns();
  const bool returns_out = returns.size() == 1 && isTensor(*returns[0].type) && schema.aliasedArgumentOfReturn(0) ==
                                                                                   static_cast<int>(args.size() - 1);
  if (!returns.empty() && !returns_out) {
    fail(site, "returns Tensor or ()",
         op + " returns (" + [&] {
           std::string s;
           for (size_t i = 0; i < returns.size(); ++i) s += (i ? ", " : "") + returns[i].type->str();
           return s;
         }() + "); an out variant returns `out` itself (`-> Tensor(a!)`, the alias set of out) or nothing (`-> ()`)");
  }
  for (const Argument& a : args) {
    if (!isSupportedArgumentType(*a.type)) {
      fail(site, "argument type",
           op + " argument '" + a.name + "' has type " + a.type->str() +
               ", which kernels cannot take; supported: Tensor, int, bool, float, str, Scalar, ScalarType, "
               "MemoryFormat, Device, an optional of one (T?), lists of Tensor, int, float or bool (T[], T[]?) and "
               "lists of optional tensors (Tensor?[])");
    }
  }
}

// PyTorch's out variants whose overload names predate its naming rule (torchgen lets them through
// by name too): they write keyword-only arguments without `out` in the overload name.
bool isLegacyOutOverload(const std::string& op) {
  return op == "aten::max.dim_max" || op == "aten::min.dim_min" || op == "aten::topk.values" ||
         op == "aten::max_pool2d_with_indices_backward.grad_input";
}

// The rules of a `func:` entry in the library that owns its operators (see Note [A library's own
// operators register their default kernels on its dispatch key]): PyTorch's naming conventions,
// which the sy::ops helpers and the tooling rely on.
void checkLibraryOperatorRules(const FunctionSchema& schema, const YamlSite& site) {
  const OperatorName& name = schema.operator_name();
  const std::string op = name.toString();
  const auto& args = schema.arguments();
  bool has_out = false;
  for (const Argument& a : args) has_out = has_out || a.is_out();
  const std::string& overload = name.overload_name;
  // PyTorch's spelling: `out` is a word of the overload name (out, Scalar_out, out_mode).
  const bool named_out = ("_" + overload + "_").find("_out_") != std::string::npos;
  if (named_out != has_out && !(has_out && isLegacyOutOverload(op))) {
    fail(site, "out variant",
         named_out ? op + " is named as an out variant but has no keyword-only written argument (`*, Tensor(a!) out`)"
                   : op + " writes a keyword-only argument, so it is an out variant: name its overload `out`, `<name>_out` or `out_<name>`");
  }
  if (!name.name.empty() && name.name.back() == '_') {
    const bool writes_self = !args.empty() && args[0].is_write() && !args[0].kwarg_only;
    const bool returns_self = schema.returns().size() == 1 && schema.aliasedArgumentOfReturn(0) == 0;
    if (!writes_self || !returns_self) {
      fail(site, "in-place variant",
           op + " ends in '_', so it works in place: its first argument must be written and returned, as in "
                "`abs_(Tensor(a!) self) -> Tensor(a!)`");
    }
  }
}

std::set<std::string> readCppNoDefaultArgs(const std::string& file, const YAML::Node& node, const FunctionSchema& schema) {
  const std::string op = schema.operator_name().toString();
  if (!node.IsSequence()) fail(siteOf(file, node), "cpp_no_default_args", "expected a list of argument names such as [min]");
  std::set<std::string> names;
  for (const YAML::Node& n : node) {
    const std::string name = scalarText(file, n, "cpp_no_default_args", "an argument name");
    std::optional<size_t> index = schema.argumentIndexWithName(name);
    if (!index) fail(siteOf(file, n), "cpp_no_default_args", op + " has no argument '" + name + "'");
    if (!schema.arguments()[*index].default_value) {
      fail(siteOf(file, n), "cpp_no_default_args", "'" + name + "' of " + op + " has no default to leave out");
    }
    if (!names.insert(name).second) fail(siteOf(file, n), "cpp_no_default_args", "'" + name + "' is named twice");
  }
  return names;
}

// `manual_cpp_binding: True` or `False`; only a `func:` entry has a helper to leave out.
bool readManualCppBinding(const std::string& file, const YAML::Node& node, const FunctionSchema& schema, bool defines) {
  const std::string op = schema.operator_name().toString();
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    fail(siteOf(file, node), "manual_cpp_binding", "expected True or False for " + op);
  }
  if (value && !defines) {
    fail(siteOf(file, node), "manual_cpp_binding", op + " is an `op:` entry, which has no generated helper to leave out");
  }
  return value;
}

// `path` as registration sites show it: relative to `root` when under it.
std::string displayPath(const std::string& path, const std::string& root) {
  if (root.empty()) return path;
  const std::string prefix = root.back() == '/' ? root : root + "/";
  return path.compare(0, prefix.size(), prefix) == 0 ? path.substr(prefix.size()) : path;
}

Kernel readKernelName(const std::string& file, const YAML::Node& item) {
  for (const auto& kv : item) {
    if (kv.first.Scalar() != "arg_meta" && kv.first.Scalar() != "kernel_name") {
      fail(siteOf(file, kv.first), "unknown field", "'" + kv.first.Scalar() + "' (a kernel has arg_meta and kernel_name)");
    }
  }
  const YAML::Node name_node = item["kernel_name"];
  if (!name_node || !name_node.IsScalar()) fail(siteOf(file, item), "kernels", "each kernel needs `kernel_name: namespace::function`");
  return readCppFunction(file, name_node, "kernel_name");
}

}  // namespace

std::string qualifiedOperatorName(const std::string& name) {
  return name.find("::") == std::string::npos ? "aten::" + name : name;
}

void readSchemas(const std::string& path, SchemaIndex& index) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw CodegenError(path + ": error: cannot read the operator schemas: " + e.what());
  }
  for (const YAML::Node& entry : root) {
    const YAML::Node func = entry["func"];
    if (!func) continue;
    try {
      FunctionSchema schema = parseSchema(func.as<std::string>());
      index.emplace(schema.operator_name().toString(), std::move(schema));
    } catch (const Error& e) {
      fail(siteOf(path, func), "schema", e.what());
    }
  }
}

void parseKernelYaml(const std::string& file_path, const SchemaIndex& existing, KernelLibrary& library) {
  const std::string path = displayPath(file_path, library.site_root);
  parseKernelYamlText(readYamlFile(file_path, path), path, existing, library);
}

void parseKernelYamlText(const std::string& text, const std::string& path, const SchemaIndex& existing,
                         KernelLibrary& library) {
  const bool owns_operators = !library.dispatch_key.empty();
  const YAML::Node root = loadCheckedYaml(text, path);
  if (root.IsNull()) return;
  if (!root.IsSequence()) fail(siteOf(path, root), "kernel YAML", "the file must be a list of `- op:` / `- func:` entries");
  static const std::set<std::string> kFields = {"op",           "func",       "kernels", "type_alias", "dim_order_alias",
                                                 "cpp_no_default_args", "manual_cpp_binding", "functional", "inplace",
                                                 "functional_outs", "dtypes"};
  std::map<std::string, YamlSite> entries;  // the library's operators so far, by name
  size_t library_keys = 0;
  for (const OperatorEntry& op : library.operators) {
    entries.emplace(op.schema.operator_name().toString(), op.site);
    library_keys += op.kernels.size();
  }
  for (const YAML::Node& entry : root) {
    const YamlSite site = siteOf(path, entry);
    if (!entry.IsMap()) fail(site, "kernel YAML", "each entry is a map with `op:` or `func:` and `kernels:`");
    for (const auto& kv : entry) {
      const std::string field = kv.first.Scalar();
      if (!kFields.count(field)) {
        fail(siteOf(path, kv.first), "unknown field",
             "'" + field + "' (an entry has op or func, kernels, type_alias, dim_order_alias, cpp_no_default_args, "
                           "manual_cpp_binding, functional, inplace, functional_outs, dtypes)");
      }
    }
    const YAML::Node op = entry["op"];
    const YAML::Node func = entry["func"];
    if (static_cast<bool>(op) == static_cast<bool>(func)) {
      fail(site, "op or func", "each entry names an existing operator with `op: name.overload` or defines one with `func: <schema>`, not both");
    }
    std::optional<FunctionSchema> schema;
    if (func) {
      const std::string text = scalarText(path, func, "schema", "the schema");
      try {
        schema = parseSchema(qualifiedOperatorName(text));
      } catch (const Error& e) {
        fail(siteOf(path, func), "schema", e.what());
      }
      if (existing.count(schema->operator_name().toString())) {
        fail(siteOf(path, func), "duplicate operator", schema->operator_name().toString() + " already exists; use `op: " +
                                                          schema->operator_name().toString() + "` to give it kernels");
      }
      if (owns_operators) {
        checkLibraryOperatorRules(*schema, siteOf(path, func));
      } else {
        checkCustomOperatorRules(*schema, siteOf(path, func));
      }
    } else {
      const std::string name = qualifiedOperatorName(scalarText(path, op, "op or func", "the operator name"));
      auto it = existing.find(name);
      if (it == existing.end()) {
        fail(siteOf(path, op), "unknown operator", name + " is not an existing operator; define a new one with `func: <schema>`");
      }
      schema = it->second;
    }
    const std::string op_name = schema->operator_name().toString();
    if (auto [other, inserted] = entries.emplace(op_name, site); !inserted) {
      fail(site, "duplicate operator", op_name + " also has an entry at " + other->second.str());
    }
    OperatorEntry result{*schema, static_cast<bool>(func), site, {}, {}, false, {}};
    if (const YAML::Node no_defaults = entry["cpp_no_default_args"]) {
      result.cpp_no_default_args = readCppNoDefaultArgs(path, no_defaults, *schema);
    }
    if (const YAML::Node manual = entry["manual_cpp_binding"]) {
      result.manual_cpp_binding = readManualCppBinding(path, manual, *schema, static_cast<bool>(func));
    }
    if (const YAML::Node dtypes = entry["dtypes"]) result.dtypes = readDtypeSet(path, dtypes);
    result.derived = readDerivedForms(path, entry, *schema);
    for (const DerivedForm& form : result.derived) {
      const std::string form_name = form.schema.operator_name().toString();
      // A `func:` entry defines its forms; an `op:` entry gives kernels to forms that exist, as derived.
      auto found = existing.find(form_name);
      if (func && found != existing.end()) fail(form.site, "duplicate operator", form_name + " already exists");
      if (!func && found == existing.end()) {
        fail(form.site, "unknown operator", form_name + " is not an existing operator, so " + op_name + " cannot give it kernels");
      }
      if (!func && found->second.toString() != form.schema.toString()) {
        fail(form.site, "derived form", form_name + " is `" + found->second.toString() + "`, not the form of " + op_name +
                                            " (`" + form.schema.toString() + "`)");
      }
      if (auto [other, inserted] = entries.emplace(form_name, form.site); !inserted) {
        fail(form.site, "duplicate operator", form_name + " also has an entry at " + other->second.str());
      }
    }
    const Aliases aliases = readAliases(path, entry);
    const YAML::Node kernels = entry["kernels"];
    // The owning library may define an operator without kernels (they are registered by hand).
    if (!kernels && owns_operators && func) {
      library.operators.push_back(std::move(result));
      continue;
    }
    if (!kernels || !kernels.IsSequence() || kernels.size() == 0) {
      fail(site, "kernels", op_name + " needs `kernels:`, a list of {arg_meta, kernel_name}");
    }
    std::unordered_map<std::string, size_t> kernel_of_key;  // key text -> index in result.kernels
    for (const YAML::Node& item : kernels) {
      if (!item.IsMap()) fail(siteOf(path, item), "kernels", "each kernel is a map with arg_meta and kernel_name");
      Kernel base = readKernelName(path, item);
      const YAML::Node arg_meta = item["arg_meta"];
      std::vector<KernelKey> keys;
      if (!arg_meta || arg_meta.IsNull()) {
        keys.push_back(KernelKey::makeDefault());
      } else {
        keys = expandArgMeta(path, arg_meta, *schema, aliases, base, library_keys + result.kernels.size());
      }
      for (KernelKey& key : keys) {
        auto [other, inserted] = kernel_of_key.emplace(key.toString(), result.kernels.size());
        if (!inserted) {
          const Kernel& bound = result.kernels[other->second];
          fail(base.site, "duplicate kernel key", op_name + " key " + other->first + " (" + base.qualifiedName() +
                                                      ") is already bound to " + bound.qualifiedName() + " at " +
                                                      bound.site.str());
        }
        Kernel k = base;
        k.key = std::move(key);
        result.kernels.push_back(std::move(k));
      }
    }
    library_keys += result.kernels.size();
    library.operators.push_back(std::move(result));
  }
}

std::vector<std::string> operatorNamesIn(const std::string& path) {
  const YAML::Node root = loadCheckedYaml(readYamlFile(path, path), path);
  std::vector<std::string> names;
  if (!root.IsSequence()) return names;  // parseKernelYaml names what is wrong with it
  for (const YAML::Node& entry : root) {
    if (!entry.IsMap()) continue;
    const YAML::Node op = entry["op"];
    const YAML::Node func = entry["func"];
    std::string name;
    if (op && op.IsScalar()) name = qualifiedOperatorName(op.Scalar());
    if (func && func.IsScalar()) {
      const std::string& text = func.Scalar();
      name = text.substr(0, text.find('('));
      name.erase(name.find_last_not_of(" \t") + 1);
      name = qualifiedOperatorName(name);
    }
    if (name.empty()) continue;
    names.push_back(name);
    for (std::string& form : derivedFormNames(entry, name)) names.push_back(std::move(form));
  }
  return names;
}

OperatorSelection readSelection(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw CodegenError(path + ": error: cannot read the selected operators: " + e.what());
  }
  OperatorSelection selection;
  selection.include_all = root["include_all_operators"] && root["include_all_operators"].as<bool>();
  if (const YAML::Node ops = root["operators"]) {
    for (const auto& kv : ops) selection.operators.insert(qualifiedOperatorName(kv.first.as<std::string>()));
  }
  // ExecuTorch's name for the kernel keys each operator needs.
  if (const YAML::Node keys = root["et_kernel_metadata"]) {
    for (const auto& kv : keys) {
      std::set<std::string>& op_keys = selection.kernel_keys[qualifiedOperatorName(kv.first.as<std::string>())];
      for (const YAML::Node& key : kv.second) op_keys.insert(key.as<std::string>());
    }
  }
  if (const YAML::Node programs = root["programs"]) {
    for (const YAML::Node& program : programs) selection.programs.push_back(program.as<std::string>());
  }
  return selection;
}

void writeSelection(const std::string& path, const OperatorSelection& selection) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "include_all_operators" << YAML::Value << selection.include_all;
  out << YAML::Key << "operators" << YAML::Value << YAML::BeginMap;
  for (const std::string& op : selection.operators) {
    out << YAML::Key << op << YAML::Value << YAML::BeginMap << YAML::Key << "is_root_operator" << YAML::Value << true
        << YAML::Key << "include_all_overloads" << YAML::Value << false << YAML::EndMap;
  }
  out << YAML::EndMap;
  if (!selection.kernel_keys.empty()) {
    out << YAML::Key << "et_kernel_metadata" << YAML::Value << YAML::BeginMap;
    for (const auto& [op, keys] : selection.kernel_keys) {
      out << YAML::Key << op << YAML::Value << YAML::BeginSeq;
      for (const std::string& key : keys) out << key;
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
  if (!selection.programs.empty()) {
    out << YAML::Key << "programs" << YAML::Value << YAML::BeginSeq;
    for (const std::string& program : selection.programs) out << program;
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  std::ofstream file(path);
  if (!file) throw CodegenError(path + ": error: cannot write the selected operators");
  file << out.c_str() << "\n";
}

}  // namespace sy::codegen
