// Kernel YAML: the model the generator builds from ExecuTorch-format kernel YAML files, and the
// parser that checks every rule and reports each broken one at its file:line.
//
//   - func: custom::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)
//     type_alias:
//       T0: [Float, Double]
//     dim_order_alias:
//       D0: [0, 1]              # or [[0, 1]]; a nested list names several dim orders
//     kernels:
//       - arg_meta:
//           self: [T0, D0]
//           out: [T0, D0]
//         kernel_name: custom::scale_out_typed   # binds custom::native::scale_out_typed
//       - arg_meta: null                          # the default kernel
//         kernel_name: custom::scale_out
//     dtypes: [Float, Double]   # what the default kernel computes (codegen/dtype_sets.h)
//   - func: custom::chunks.out(Tensor self, int n, *, Tensor(a!)[] out) -> ()   # a list of outs
//     functional: custom::chunks          # derives custom::chunks(Tensor self, int n) -> Tensor[]
//     functional_outs: custom::chunks_outs  # creates that form's outs (codegen/derived_forms.h)
//     kernels: [{arg_meta: null, kernel_name: custom::chunks_out}]
//   - op: add.out                                 # an existing operator (schema from --schemas)
//     kernels: [{arg_meta: null, kernel_name: custom::add_out}]
//
// Each `arg_meta` expands to one kernel key per combination of the aliases it uses, in the schema's
// argument order (see Note [Kernel keys follow ExecuTorch] in dispatcher/kernel_key.h), counted
// before they are made (codegen/arg_meta.h). What yaml-cpp would accept silently (a key given twice,
// a second document) is refused before the entries are read (codegen/yaml_reading.h).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/dispatcher/kernel_key.h"

namespace sy::codegen {

// A broken rule: "custom_ops.yaml:4: <rule>: <what and how to fix it>".
class CodegenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct YamlSite {
  std::string file;
  int line = 0;  // 1-based
  std::string str() const { return file + ":" + std::to_string(line); }
};

struct Kernel {
  KernelKey key = KernelKey::makeDefault();
  std::string cpp_namespace;  // "custom::native"
  std::string function;       // "scale_out"
  YamlSite site;

  std::string qualifiedName() const { return cpp_namespace + "::" + function; }
};

// A functional or in-place form an out-variant entry derives (`functional:` / `inplace:`), registered
// from the entry's out kernel. See Note [Functional and in-place forms call the out kernel] in
// dispatcher/derived_kernels.h.
struct DerivedForm {
  FunctionSchema schema;
  OutputForm form = OutputForm::Functional;
  YamlSite site;
  // The functional form of a list-out variant (`-> Tensor[]`): the function `functional_outs:` names,
  // which creates the list of outs the out kernel then writes. See Note [A list of outs is created by
  // its own function] in dispatcher/derived_kernels.h.
  std::optional<Kernel> outs_function;
};

struct OperatorEntry {
  FunctionSchema schema;
  bool defines_schema = false;  // `func:` (a new operator) rather than `op:`
  YamlSite site;
  std::vector<Kernel> kernels;
  // PyTorch's `cpp_no_default_args: [min]`: arguments whose default the C++ helper leaves out, so
  // that overloads stay unambiguous (clamp(x) must not match both clamp and clamp.Tensor).
  std::set<std::string> cpp_no_default_args;
  // PyTorch's `manual_cpp_binding: True`: the operator is registered (schema and kernels) but the
  // generator writes no C++ helper for it, because a hand-written one takes its place (a helper
  // named otherwise, or one taking a friendlier type than the schema's).
  bool manual_cpp_binding = false;
  // The forms derived from this out variant, in the order functional, in-place.
  std::vector<DerivedForm> derived;
  // `dtypes:`, the dtypes the default kernel computes, as bits indexed by ScalarType; 0 when the
  // entry declares none (codegen/dtype_sets.h).
  unsigned dtypes = 0;
};

// Note [A library's own operators register their default kernels on its dispatch key]
// A kernel library (backends/kernels/optimized/, a user's custom ops) adds kernels to operators that exist
// or that it defines as out variants; every kernel it has, the default one included, is a partial
// kernel (sy::PartialKernelRegistry), consulted on the PartialKernels key above the portable ones.
// The library that *owns* operators (the portable aten:: library, backends/devices/cpu/*.yaml) is generated with a
// dispatch key (`switchyard_codegen gen --dispatch-key CPU`, from switchyard_generate_operators in
// cmake/SwitchyardCodegen.cmake): then
//   - a `func:` entry defines an ordinary operator: functional, in-place or out variant, of any
//     argument type the dispatcher has, with or without `kernels:` (an operator whose kernels are
//     registered by hand, or only on other keys, has a schema-only entry);
//   - the default kernel (`arg_meta: null`) is registered as the operator's ordinary kernel on that
//     key (m.impl in SY_LIBRARY_IMPL(ns, CPU, m)), exactly like a hand-written registration;
//     kernels with `arg_meta` still go to the partial kernel registry.
// The key is a property of the build, not of each entry: ExecuTorch's format is a bare list of
// entries with no file-level settings, and the same entries could be bound to another key.
struct KernelLibrary {
  std::vector<OperatorEntry> operators;
  // Empty for a kernel library; the owning library's key (e.g. "CPU") otherwise. See the Note above.
  std::string dispatch_key;
  // Registration sites name YAML files relative to this folder when they are under it (as
  // -fmacro-prefix-map does for C++ sites), e.g. "backends/devices/cpu/unary_ops.yaml:12".
  std::string site_root;
};

// Existing operators an `op:` entry may name, by "ns::name.overload".
using SchemaIndex = std::map<std::string, FunctionSchema>;

// Reads `- func: <schema>` entries (the format of the operator-schema dump the build writes).
void readSchemas(const std::string& path, SchemaIndex& index);

// Parses one kernel YAML file and appends its operators to `library`. Raises CodegenError.
void parseKernelYaml(const std::string& path, const SchemaIndex& existing, KernelLibrary& library);
// The same for the text of a file that errors and registration sites call `path`.
void parseKernelYamlText(const std::string& text, const std::string& path, const SchemaIndex& existing,
                         KernelLibrary& library);

// The operators to generate: all of them, or the names listed; for an operator a program selected
// (See Note [A program selects operators and the kernel keys of its calls] in program_operators.h),
// only the kernels its calls need (See Note [Selective build keeps the kernels a program's keys resolve to]).
struct OperatorSelection {
  bool include_all = true;
  std::set<std::string> operators;  // "ns::name.overload"
  // Per operator, the kernel keys ("v1/6;0,1|6;0,1") its calls need; an operator absent here keeps
  // every kernel (listed by name, or by a kernel YAML).
  std::map<std::string, std::set<std::string>> kernel_keys;
  std::vector<std::string> programs;  // the programs the kernel keys came from, named in errors
  bool selects(const OperatorName& name) const { return include_all || operators.count(name.toString()) > 0; }
};
OperatorSelection readSelection(const std::string& path);
void writeSelection(const std::string& path, const OperatorSelection& selection);
// "add.out" -> "aten::add.out"
std::string qualifiedOperatorName(const std::string& name);
// The operators a kernel YAML file has entries for ("ns::name.overload"), without checking them.
std::vector<std::string> operatorNamesIn(const std::string& path);

}  // namespace sy::codegen
