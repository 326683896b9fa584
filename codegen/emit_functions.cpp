// The Functions.h / Functions.cpp writer: one sy::ops-style helper per `func:` operator, and for the
// library's own aten:: operators the Tensor methods and _ops structs (see emit.h).
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/codegen/emit_common.h"

namespace sy::codegen::detail {
namespace {

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

// An `int[]?` argument (sum's dim): the helper takes ::sy::OptionalIntArrayRef, as at:: takes
// at::OptionalIntArrayRef, so callers may write sum(x, {0, 1}); the handle gets dim.get().
bool takesOptionalIntList(const Argument& a) {
  const Type& t = *a.type;
  if (t.kind() != TypeKind::Optional || t.element()->kind() != TypeKind::List) return false;
  const TypeKind e = t.element()->element()->kind();
  return e == TypeKind::Int || e == TypeKind::SymInt;
}
std::string helperParameterType(const Argument& a) {
  return takesOptionalIntList(a) ? "::sy::OptionalIntArrayRef" : cppArgumentType(a);
}

// Note [Tensor methods are generated with the library]
// PyTorch's Tensor has a method for every operator native_functions.yaml marks `variants: method`.
// Switchyard's YAML does not mark them: an aten:: operator whose first argument is `Tensor self` and
// that is not an out variant gets one (t.add(u), t.add_(u), t.clamp(0, 1)), which covers PyTorch's
// methods for these operators and adds a few PyTorch keeps as functions. Out variants and
// factories stay functions, as in PyTorch. Each method calls its helper, so a method is one
// dispatch, as the function is. The declarations go into TensorMethods.h, which ivalue/tensor.h
// includes inside class Tensor (through the generated switchyard/ops/TensorMethods.h); the
// definitions into Functions.cpp. Only the library's own families are generated so (`gen
// --aten-api`): a kernel library generated elsewhere (a selective build, a user's YAML) would define
// methods the installed class does not declare. The generator itself is built from ivalue/ sources
// compiled without the methods (SY_CODEGEN_BOOTSTRAP, codegen/CMakeLists.txt), as it writes them.
bool hasTensorMethod(const FunctionSchema& schema) {
  if (namespaceOf(schema.operator_name()) != "aten" || isOutVariant(schema) || schema.arguments().empty()) return false;
  const Argument& first = schema.arguments().front();
  return first.name == "self" && first.type->kind() == TypeKind::Tensor;
}

// PyTorch's at::_ops struct name: aten::add.Tensor -> add_Tensor, aten::add_.Tensor -> add__Tensor.
std::string opStructName(const OperatorName& name) {
  return baseName(name) + (name.overload_name.empty() ? "" : "_" + name.overload_name);
}

}  // namespace

// Functions.h / Functions.cpp: one helper per `func:` operator, calling through a typed handle
// made once at namespace scope (Dispatcher::staticTypedHandle), exactly as the hand-written
// sy::ops helpers did: one dispatch per call, no initialisation guard.
void writeHelpers(const std::vector<const OperatorEntry*>& selected, bool aten_api, GeneratedFiles& files) {
  std::ostringstream h, cpp;
  h << kBanner << "// Helpers calling the library's operators through the dispatcher, out= first as in sy::ops.\n"
    << "#pragma once\n\n" << kIncludes;
  cpp << kBanner << "#include \"Functions.h\"\n\n#include \"switchyard/dispatcher/dispatcher.h\"\n"
      << "#include \"switchyard/dispatcher/operator_handle.h\"\n";
  std::map<std::string, std::vector<std::string>> decls;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> defs;  // handle, helper
  // Helpers of one name are C++ overloads: two with the same parameter types could never be called.
  std::map<std::string, const OperatorEntry*> signatures;
  std::string method_decls, method_defs, op_structs;
  for (const OperatorEntry* op : selected) {
    if (!op->defines_schema) continue;
    const FunctionSchema& s = op->schema;
    if (aten_api && namespaceOf(s.operator_name()) == "aten") {
      op_structs += "// " + s.toString() + "\nstruct " + opStructName(s.operator_name()) + " : ::sy::detail::OperatorStruct<" +
                    opStructName(s.operator_name()) + ", " + cppFunctionType(s) + "> {\n  static constexpr const char* name = " +
                    cppString(s.operator_name().name) + ";\n  static constexpr const char* overload_name = " +
                    cppString(s.operator_name().overload_name) + ";\n  static constexpr const char* schema_str = " +
                    cppString(s.toString()) + ";\n};\n";
    }
    if (op->manual_cpp_binding) continue;
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
      const std::string param = helperParameterType(a) + " " + a.name;
      params += (p ? ", " : "") + param;
      types += (p ? ", " : "") + helperParameterType(a);
      params_with_defaults += (p ? ", " : "") + param + (defaults[p].empty() ? "" : " = " + defaults[p]);
    }
    for (size_t i = 0; i < s.arguments().size(); ++i) {
      const Argument& a = s.arguments()[i];
      call_args += (i ? ", " : "") + a.name + (takesOptionalIntList(a) ? ".get()" : "");
    }
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
    if (aten_api && hasTensorMethod(s)) {
      // The helper's parameters but self (order[0]: a method's operator has no out argument).
      std::string m_params, m_params_with_defaults, m_args;
      for (size_t p = 1; p < order.size(); ++p) {
        const Argument& a = s.arguments()[order[p]];
        const std::string param = helperParameterType(a) + " " + a.name;
        const char* sep = p > 1 ? ", " : "";
        m_params += sep + param;
        m_params_with_defaults += sep + param + (defaults[p].empty() ? "" : " = " + defaults[p]);
        m_args += ", " + a.name;
      }
      // In place: the methods are const, as PyTorch's are (only the TensorImpl changes). The helper
      // takes a Tensor&, so it gets a copy of the handle, and the method returns this tensor.
      const std::string helper = "::" + ns + "::" + name;
      const std::string body = s.arguments()[0].is_write() && ret == "::sy::Tensor&"
                                   ? "::sy::Tensor self = *this; " + helper + "(self" + m_args + "); return const_cast<::sy::Tensor&>(*this);"
                                   : "return " + helper + "(*this" + m_args + ");";
      method_decls += "  " + ret + " " + baseName(s.operator_name()) + "(" + m_params_with_defaults + ") const;\n";
      method_defs += ret + " Tensor::" + baseName(s.operator_name()) + "(" + m_params + ") const { " + body + " }\n";
    }
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
  if (!method_defs.empty()) {
    cpp << "\n// The Tensor methods (See Note [Tensor methods are generated with the library]).\nnamespace sy {\n\n"
        << method_defs << "\n}  // namespace sy\n";
  }
  files.functions_h = h.str();
  files.functions_cpp = cpp.str();
  if (!aten_api) return;
  // Included inside class Tensor: declarations only, no include guard.
  files.tensor_methods_h = std::string(kBanner) + "// sy::Tensor's methods for these operators, inside class Tensor (ivalue/tensor.h).\n" +
                           method_decls;
  files.operators_h = std::string(kBanner) + "// PyTorch's at::_ops structs for these operators: call and redispatch with the schema's C++ signature.\n"
                      "#pragma once\n\n" + kIncludes + "#include \"switchyard/ops/operator_struct.h\"\n\nnamespace sy::_ops {\n\n" +
                      op_structs + "\n}  // namespace sy::_ops\n";
}

}  // namespace sy::codegen::detail
