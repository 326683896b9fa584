#include "switchyard/codegen/emit.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "switchyard/codegen/program_operators.h"

namespace sy::codegen {
namespace {

std::string valueType(const Type& t) {
  switch (t.kind()) {
    case TypeKind::Tensor: return "::sy::Tensor";
    case TypeKind::Int: case TypeKind::SymInt: return "int64_t";
    case TypeKind::Float: return "double";
    case TypeKind::Bool: return "bool";
    case TypeKind::Str: return "::std::string_view";
    case TypeKind::Scalar: return "::sy::Scalar";
    case TypeKind::ScalarType: return "::sy::ScalarType";
    case TypeKind::Device: return "::sy::Device";
    case TypeKind::Layout: return "::sy::Layout";
    case TypeKind::MemoryFormat: return "::sy::MemoryFormat";
    case TypeKind::List: {
      const TypeKind e = t.element()->kind();
      if (e == TypeKind::Tensor) return "::sy::TensorList";
      if (e == TypeKind::Int || e == TypeKind::SymInt) return "::sy::IntArrayRef";
      return "::std::vector<" + valueType(*t.element()) + ">";
    }
    case TypeKind::Optional: return "::std::optional<" + valueType(*t.element()) + ">";
  }
  return "void";
}

// Passed by const reference: the types that own memory or are large (as the CPU kernels take them).
bool passedByReference(const Type& t) {
  switch (t.kind()) {
    case TypeKind::Tensor: case TypeKind::Scalar: return true;
    case TypeKind::List: return t.element()->kind() != TypeKind::Tensor && t.element()->kind() != TypeKind::Int &&
                                t.element()->kind() != TypeKind::SymInt;
    case TypeKind::Optional: return passedByReference(*t.element());
    default: return false;
  }
}

std::string cppString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The C++ default for a helper parameter, or "" when it has none we can spell.
std::string cppDefault(const OperatorEntry& op, const Argument& a) {
  if (!a.default_value || op.cpp_no_default_args.count(a.name)) return "";
  const IValue& v = *a.default_value;
  const Type& t = *a.type;
  const TypeKind leaf = t.kind() == TypeKind::Optional ? t.element()->kind() : t.kind();
  if (v.isNone()) return "::std::nullopt";
  if (leaf == TypeKind::MemoryFormat && v.isInt()) return "static_cast<::sy::MemoryFormat>(" + std::to_string(v.toInt()) + ")";
  if (leaf == TypeKind::Layout && v.isInt()) return "static_cast<::sy::Layout>(" + std::to_string(v.toInt()) + ")";
  if (v.isScalarType()) return "static_cast<::sy::ScalarType>(" + std::to_string(static_cast<int>(v.toScalarType())) + ")";
  if (v.isBool()) return v.toBool() ? "true" : "false";
  if (v.isInt()) return std::to_string(v.toInt());
  if (v.isDouble()) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.17g", v.toDouble());
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
  }
  if (v.isString()) return cppString(v.toStringRef());
  if (v.isIntList()) {
    std::string s = "::sy::IntArrayRef{";
    bool first = true;
    for (int64_t x : v.toIntList()) {
      s += (first ? "" : ", ") + std::to_string(x);
      first = false;
    }
    return s + "}";
  }
  return "";
}

std::string baseName(const OperatorName& name) { return name.name.substr(name.name.find("::") + 2); }
std::string namespaceOf(const OperatorName& name) { return name.name.substr(0, name.name.find("::")); }

bool isOutVariant(const FunctionSchema& schema) {
  for (const Argument& a : schema.arguments()) {
    if (a.is_out()) return true;
  }
  return false;
}

// PyTorch's at:: names: the overload name is dropped (overloads are C++ overloads), out variants
// add _out. aten::add.Tensor -> add, aten::clamp.Tensor_out -> clamp_out, custom::scale.out -> scale_out.
std::string helperName(const FunctionSchema& schema) {
  return baseName(schema.operator_name()) + (isOutVariant(schema) ? "_out" : "");
}
// The helper's handle at namespace scope, unique per operator: handle_abs_inplace, handle_clamp_Tensor_out.
std::string handleName(const OperatorName& name) {
  std::string base = baseName(name);
  if (!base.empty() && base.back() == '_') base = base.substr(0, base.size() - 1) + "_inplace";
  return "handle_" + base + (name.overload_name.empty() ? "" : "_" + name.overload_name);
}
std::string helperNamespace(const OperatorName& name) {
  return namespaceOf(name) == "aten" ? "sy::ops" : namespaceOf(name) + "::ops";
}

std::string parameterList(const FunctionSchema& schema) {
  std::string s;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const Argument& a = schema.arguments()[i];
    s += (i ? ", " : "") + cppArgumentType(a) + " " + a.name;
  }
  return s;
}

std::string siteLiteral(const YamlSite& site) {
  return "::sy::SourceLocation{" + cppString(site.file) + ", " + std::to_string(site.line) + "}";
}

std::string keyLiteral(const KernelKey& key) {
  if (key.isDefault()) return "::sy::KernelKey::makeDefault()";
  std::string s = "::sy::KernelKey({";
  for (size_t i = 0; i < key.tensorArgs().size(); ++i) {
    const TensorMeta& m = key.tensorArgs()[i];
    s += std::string(i ? ", " : "") + "::sy::TensorMeta{::sy::ScalarType::" + std::string(toString(m.dtype)) + ", {";
    for (size_t d = 0; d < m.dim_order.size(); ++d) s += (d ? ", " : "") + std::to_string(m.dim_order[d]);
    s += "}}";
  }
  return s + "})";
}

constexpr const char* kBanner = "// Generated by switchyard_codegen from kernel YAML; do not edit.\n";

// Each namespace's lines, wrapped in `namespace ns { ... }`.
void forEachNamespace(std::ostringstream& out, const std::map<std::string, std::vector<std::string>>& blocks) {
  for (const auto& [ns, lines] : blocks) {
    out << "\nnamespace " << ns << " {\n\n";
    for (const std::string& line : lines) out << line;
    out << "\n}  // namespace " << ns << "\n";
  }
}

}  // namespace

std::string cppArgumentType(const Argument& argument) {
  const Type& t = *argument.type;
  if (t.kind() == TypeKind::Tensor && argument.is_write()) return "::sy::Tensor&";
  return passedByReference(t) ? "const " + valueType(t) + "&" : valueType(t);
}

std::string cppReturnType(const FunctionSchema& schema) {
  const auto& returns = schema.returns();
  auto one = [&](size_t i) {
    const bool aliases_written = schema.aliasedArgumentOfReturn(i) >= 0;
    return valueType(*returns[i].type) + (aliases_written ? "&" : "");
  };
  if (returns.empty()) return "void";
  if (returns.size() == 1) return one(0);
  std::string s = "::std::tuple<";
  for (size_t i = 0; i < returns.size(); ++i) s += (i ? ", " : "") + one(i);
  return s + ">";
}

std::string cppFunctionType(const FunctionSchema& schema) {
  std::string s = cppReturnType(schema) + "(";
  for (size_t i = 0; i < schema.arguments().size(); ++i) s += (i ? ", " : "") + cppArgumentType(schema.arguments()[i]);
  return s + ")";
}

namespace {

const char* const kIncludes =
    "#include <cstdint>\n#include <optional>\n#include <string_view>\n#include <tuple>\n#include <vector>\n\n"
    "#include \"switchyard/ivalue/ivalue.h\"\n#include \"switchyard/ivalue/scalar.h\"\n#include \"switchyard/ivalue/tensor.h\"\n";

// SY_LIBRARY_FRAGMENT blocks defining the `func:` operators, one per namespace.
std::string schemaDefinitions(const std::vector<const OperatorEntry*>& selected) {
  std::ostringstream out;
  std::map<std::string, std::vector<const OperatorEntry*>> by_ns;
  for (const OperatorEntry* op : selected) {
    if (op->defines_schema) by_ns[namespaceOf(op->schema.operator_name())].push_back(op);
  }
  for (const auto& [ns, ops] : by_ns) {
    out << "\nSY_LIBRARY_FRAGMENT(" << ns << ", m) {\n";
    for (const OperatorEntry* op : ops) {
      out << "  m.def(" << cppString(op->schema.toString()) << ", " << siteLiteral(op->site) << ");\n";
    }
    out << "}\n";
  }
  return out.str();
}

bool registersOnKey(const KernelLibrary& library, const Kernel& k) { return !library.dispatch_key.empty() && k.key.isDefault(); }

// The kernels that go to sy::PartialKernelRegistry, or "" when there are none.
std::string partialKernelRegistrations(const KernelLibrary& library, const std::vector<const OperatorEntry*>& selected) {
  std::ostringstream out;
  bool any = false;
  for (const OperatorEntry* op : selected) {
    const OperatorName& name = op->schema.operator_name();
    const std::string type = cppFunctionType(op->schema);
    for (const Kernel& k : op->kernels) {
      if (registersOnKey(library, k)) continue;
      any = true;
      out << "    handles.push_back(registry.registerKernel(::sy::OperatorName{" << cppString(name.name) << ", "
          << cppString(name.overload_name) << "}, " << keyLiteral(k.key) << ",\n        static_cast<::std::add_pointer_t<" << type
          << ">>(&::" << k.qualifiedName() << "), " << cppString(k.qualifiedName()) << ", " << siteLiteral(k.site) << "));\n";
    }
  }
  if (!any) return "";
  return "\nnamespace {\n\nstruct Registrations {\n  std::vector<::sy::RegistrationHandle> handles;\n  Registrations() {\n"
         "    auto& registry = ::sy::PartialKernelRegistry::singleton();\n" +
         out.str() + "  }\n};\nconst Registrations registrations;\n\n}  // namespace\n";
}

// The default kernels of the owning library, as ordinary kernels on its key: one SY_LIBRARY_IMPL
// block per namespace. See Note [A library's own operators register their default kernels on its dispatch key].
std::string keyRegistrations(const KernelLibrary& library, const std::vector<const OperatorEntry*>& selected) {
  std::ostringstream out;
  std::map<std::string, std::vector<std::string>> by_ns;
  for (const OperatorEntry* op : selected) {
    for (const Kernel& k : op->kernels) {
      if (!registersOnKey(library, k)) continue;
      by_ns[namespaceOf(op->schema.operator_name())].push_back(
          "  m.impl(" + cppString(op->schema.operator_name().toString()) + ", SY_FN(::" + k.qualifiedName() + "), " +
          siteLiteral(k.site) + ");\n");
    }
  }
  for (const auto& [ns, lines] : by_ns) {
    out << "\nSY_LIBRARY_IMPL(" << ns << ", " << library.dispatch_key << ", m) {\n";
    for (const std::string& line : lines) out << line;
    out << "}\n";
  }
  return out.str();
}

// Note [Owned kernels bind directly inside their library]
// When registration and kernel shared a translation unit, the compiler inlined the kernel into its
// unboxed trampoline. Generated registrations live in RegisterOperators.cpp, and a call from there
// to a default-visibility kernel elsewhere in libswitchyard.so goes through the PLT: bench/overhead.py
// measured the dispatcher's cost on acos.out at 25 instructions against 23. The owning library's
// kernels are therefore declared with protected visibility: still exported (code may call
// sy::cpu::acos_out_cpu directly), but not interposable, so the trampoline is one direct jump to
// the kernel (24: the one instruction left is the jump the inlining saved). Only the library's own translation units may
// see the attribute (they define SY_NATIVE_KERNELS_ARE_LOCAL: ops/ and backends/cpu/): a program
// seeing it would expect the kernels in its own image and fail to link.
const char* const kProtectedKernelMacro =
    "\n#ifndef SY_NATIVE_KERNEL\n"
    "#if defined(SY_NATIVE_KERNELS_ARE_LOCAL) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))\n"
    "// See Note [Owned kernels bind directly inside their library] in codegen/emit.cpp.\n"
    "#define SY_NATIVE_KERNEL __attribute__((visibility(\"protected\")))\n"
    "#else\n#define SY_NATIVE_KERNEL\n#endif\n#endif\n";

std::string nativeFunctions(const KernelLibrary& library, const std::vector<const OperatorEntry*>& selected) {
  const bool owned = !library.dispatch_key.empty();
  std::ostringstream out;
  out << kBanner << "// The kernels this library implements, with the C++ signatures their operators require.\n"
      << "#pragma once\n\n" << kIncludes << (owned ? kProtectedKernelMacro : "");
  std::map<std::string, std::vector<std::string>> blocks;
  std::set<std::string> declared;
  for (const OperatorEntry* op : selected) {
    for (const Kernel& k : op->kernels) {
      std::string decl = (owned ? "SY_NATIVE_KERNEL " : "") + cppReturnType(op->schema) + " " + k.function + "(" +
                         parameterList(op->schema) + ");\n";
      if (!declared.insert(k.cpp_namespace + "|" + decl).second) continue;
      blocks[k.cpp_namespace].push_back("// " + op->schema.operator_name().toString() + " (" + k.site.str() + ")\n" + decl);
    }
  }
  forEachNamespace(out, blocks);
  return out.str();
}

// Functions.h / Functions.cpp: one helper per `func:` operator, calling through a typed handle
// made once at namespace scope (Dispatcher::staticTypedHandle), exactly as the hand-written
// sy::ops helpers did: one dispatch per call, no initialisation guard.
void helpers(const std::vector<const OperatorEntry*>& selected, GeneratedFiles& files) {
  std::ostringstream h, cpp;
  h << kBanner << "// Helpers calling the library's operators through the dispatcher, out= first as in sy::ops.\n"
    << "#pragma once\n\n" << kIncludes;
  cpp << kBanner << "#include \"Functions.h\"\n\n#include \"switchyard/dispatcher/dispatcher.h\"\n"
      << "#include \"switchyard/dispatcher/operator_handle.h\"\n";
  std::map<std::string, std::vector<std::string>> decls;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> defs;  // handle, helper
  // Helpers of one name are C++ overloads: two with the same parameter types could never be called.
  std::map<std::string, const OperatorEntry*> signatures;
  for (const OperatorEntry* op : selected) {
    if (!op->defines_schema) continue;
    const FunctionSchema& s = op->schema;
    std::vector<size_t> order;
    for (size_t i = 0; i < s.arguments().size(); ++i) {
      if (s.arguments()[i].is_out()) order.push_back(i);
    }
    for (size_t i = 0; i < s.arguments().size(); ++i) {
      if (!s.arguments()[i].is_out()) order.push_back(i);
    }
    // C++ defaults must be a suffix: keep them from the last parameter back to the first without one.
    std::vector<std::string> defaults(order.size());
    for (size_t p = order.size(); p-- > 0;) {
      defaults[p] = cppDefault(*op, s.arguments()[order[p]]);
      if (defaults[p].empty()) break;
    }
    std::string params, params_with_defaults, call_args, types;
    for (size_t p = 0; p < order.size(); ++p) {
      const Argument& a = s.arguments()[order[p]];
      const std::string param = cppArgumentType(a) + " " + a.name;
      params += (p ? ", " : "") + param;
      types += (p ? ", " : "") + cppArgumentType(a);
      params_with_defaults += (p ? ", " : "") + param + (defaults[p].empty() ? "" : " = " + defaults[p]);
    }
    for (size_t i = 0; i < s.arguments().size(); ++i) call_args += (i ? ", " : "") + s.arguments()[i].name;
    const std::string ns = helperNamespace(s.operator_name());
    const std::string name = helperName(s);
    const std::string handle = handleName(s.operator_name());
    const std::string ret = cppReturnType(s);
    auto [it, inserted] = signatures.emplace(ns + "::" + name + "(" + types + ")", op);
    if (!inserted) {
      throw CodegenError(op->site.str() + ": error: helper overload: " + s.operator_name().toString() + " and " +
                         it->second->schema.operator_name().toString() + " (" + it->second->site.str() + ") both give " +
                         ns + "::" + name + "(" + types + "); C++ cannot tell them apart");
    }
    decls[ns].push_back("// " + s.toString() + "\n" + ret + " " + name + "(" + params_with_defaults + ");\n");
    defs[ns].emplace_back("const auto " + handle + " = ::sy::Dispatcher::singleton().staticTypedHandle<" + cppFunctionType(s) +
                              ">(" + cppString(s.operator_name().name) + ", " + cppString(s.operator_name().overload_name) + ");\n",
                          ret + " " + name + "(" + params + ") { return " + handle + ".call(" + call_args + "); }\n");
  }
  forEachNamespace(h, decls);
  // The handles are internal: each namespace's definitions open an unnamed namespace for them.
  for (const auto& [ns, lines] : defs) {
    cpp << "\nnamespace " << ns << " {\nnamespace {\n\n";
    for (const auto& def : lines) cpp << def.first;
    cpp << "\n}  // namespace\n\n";
    for (const auto& def : lines) cpp << def.second;
    cpp << "\n}  // namespace " << ns << "\n";
  }
  files.functions_h = h.str();
  files.functions_cpp = cpp.str();
}

}  // namespace

GeneratedFiles generate(const KernelLibrary& full_library, const OperatorSelection& selection) {
  // See Note [Selective build keeps the kernels a program's keys resolve to] in program_operators.h.
  const KernelLibrary library = selectedKernels(full_library, selection);
  std::vector<const OperatorEntry*> selected;
  for (const OperatorEntry& op : library.operators) selected.push_back(&op);
  GeneratedFiles files;
  files.owns_operators = !library.dispatch_key.empty();
  const std::string partial = partialKernelRegistrations(library, selected);
  const std::string partial_includes = "#include <type_traits>\n#include <vector>\n\n#include \"NativeFunctions.h\"\n"
                                       "#include \"switchyard/dispatcher/partial_kernels.h\"\n";
  if (files.owns_operators) {
    files.register_operators_cpp = std::string(kBanner) + "// The operators' schemas and their default kernels on the " +
                                   library.dispatch_key + " key" + (partial.empty() ? "" : ", and the partial kernels") +
                                   ".\n#include \"NativeFunctions.h\"\n#include \"switchyard/dispatcher/library.h\"\n" +
                                   (partial.empty() ? "" : "#include \"switchyard/dispatcher/partial_kernels.h\"\n") +
                                   schemaDefinitions(selected) + keyRegistrations(library, selected) + partial;
  } else {
    files.register_schema_cpp = std::string(kBanner) + "// The operators the kernel YAML defines with `func:`.\n"
                                "#include \"switchyard/dispatcher/library.h\"\n" + schemaDefinitions(selected);
    files.register_kernels_cpp = std::string(kBanner) + "// Registers every kernel key of the library with sy::PartialKernelRegistry.\n" +
                                 partial_includes + partial;
  }
  files.native_functions_h = nativeFunctions(library, selected);
  helpers(selected, files);
  return files;
}

void writeGeneratedFiles(const GeneratedFiles& files, const std::string& dir) {
  std::vector<std::pair<const char*, const std::string*>> outputs = {
      {"NativeFunctions.h", &files.native_functions_h}, {"Functions.h", &files.functions_h}, {"Functions.cpp", &files.functions_cpp}};
  if (files.owns_operators) {
    outputs.push_back({"RegisterOperators.cpp", &files.register_operators_cpp});
  } else {
    outputs.push_back({"RegisterSchema.cpp", &files.register_schema_cpp});
    outputs.push_back({"RegisterKernels.cpp", &files.register_kernels_cpp});
  }
  for (const auto& [name, content] : outputs) {
    const std::string path = dir + "/" + name;
    std::ifstream existing(path, std::ios::binary);
    if (existing) {
      std::stringstream current;
      current << existing.rdbuf();
      if (current.str() == *content) continue;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << *content;
    if (!out) throw CodegenError(path + ": error: cannot write the generated file");
  }
}

}  // namespace sy::codegen
