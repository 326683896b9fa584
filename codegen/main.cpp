// switchyard_codegen: turns kernel YAML into C++ registration code (see emit.h for the files).
//
//   switchyard_codegen gen --functions-yaml functions.yaml --custom-ops-yaml custom_ops.yaml \
//       --schemas operator_schemas.yaml [--selected-ops selected_operators.yaml] --output-dir out/
//   switchyard_codegen gen --dispatch-key CPU --functions-yaml backends/devices/cpu/unary_ops.yaml --site-root SRC --output-dir out/
//       (the library that owns the operators: see Note [A library's own operators register their
//        default kernels on its dispatch key] in kernel_yaml.h; libswitchyard's own aten:: families add
//        --aten-api for the Tensor methods and _ops structs)
//   switchyard_codegen select --output selected_operators.yaml \
//       [--root-ops aten::add.out,custom::scale.out] [--include-all-operators] [--ops-schema-yaml custom_ops.yaml]
//       [--model add.pte --schemas operator_schemas.yaml]   (the operators add.pte calls, with their kernel keys)
//
// The CMake functions in cmake/SwitchyardCodegen.cmake run it; a broken rule prints
// "file:line: error: <rule>: <detail>" and exits with status 1.
#include <filesystem>
#include <optional>
#include <set>
#include <iostream>
#include <string>
#include <vector>

#include "switchyard/codegen/dtype_sets.h"
#include "switchyard/codegen/emit.h"
#include "switchyard/core/dispatch_key.h"
#include "switchyard/codegen/kernel_yaml.h"
#include "switchyard/codegen/program_operators.h"

namespace {

using namespace sy::codegen;

struct Options {
  std::string command;
  std::vector<std::string> kernel_yamls;  // functions.yaml, custom_ops.yaml, in that order
  std::vector<std::string> schemas;
  std::string selected_ops;
  std::string dispatch_key;
  std::string site_root;
  std::string output_dir;
  std::string output;
  std::string root_ops;
  bool include_all = false;
  bool aten_api = false;
  bool require_dtypes = false;
  std::vector<std::string> ops_schema_yamls;
  std::vector<std::string> models;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "switchyard_codegen: " << why << "\n"
            << "usage: switchyard_codegen gen [--functions-yaml F] [--custom-ops-yaml F] [--schemas F]...\n"
            << "                              [--selected-ops F] [--dispatch-key KEY] [--site-root DIR] [--aten-api]\n"
            << "                              [--require-dtypes]\n"
            << "                              --output-dir DIR\n"
            << "       switchyard_codegen select --output F [--root-ops a,b] [--include-all-operators]\n"
            << "                              [--ops-schema-yaml F]... [--model PROGRAM.pte --schemas F]...\n";
  std::exit(2);
}

Options parseOptions(int argc, char** argv) {
  if (argc < 2) usage("missing command");
  Options o;
  o.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--functions-yaml" || arg == "--custom-ops-yaml") {
      o.kernel_yamls.push_back(value());
    } else if (arg == "--schemas") {
      o.schemas.push_back(value());
    } else if (arg == "--selected-ops") {
      o.selected_ops = value();
    } else if (arg == "--dispatch-key") {
      o.dispatch_key = value();
    } else if (arg == "--site-root") {
      o.site_root = value();
    } else if (arg == "--output-dir") {
      o.output_dir = value();
    } else if (arg == "--output") {
      o.output = value();
    } else if (arg == "--root-ops") {
      o.root_ops = value();
    } else if (arg == "--aten-api") {
      o.aten_api = true;
    } else if (arg == "--require-dtypes") {
      o.require_dtypes = true;
    } else if (arg == "--include-all-operators") {
      o.include_all = true;
    } else if (arg == "--ops-schema-yaml") {
      o.ops_schema_yamls.push_back(value());
    } else if (arg == "--model") {
      o.models.push_back(value());
    } else {
      usage("unknown option " + arg);
    }
  }
  return o;
}

int generateCommand(const Options& o) {
  if (o.output_dir.empty()) usage("gen needs --output-dir");
  SchemaIndex existing;
  for (const std::string& path : o.schemas) readSchemas(path, existing);
  KernelLibrary library;
  if (!o.dispatch_key.empty()) {
    const std::optional<sy::DispatchKey> key = sy::parseDispatchKey(o.dispatch_key);
    if (!key) usage("--dispatch-key " + o.dispatch_key + " is not a dispatch key");
    library.dispatch_key = std::string(sy::toString(*key));  // the enumerator's own name, for SY_LIBRARY_IMPL
  }
  library.site_root = o.site_root;
  for (const std::string& path : o.kernel_yamls) parseKernelYaml(path, existing, library);
  if (o.require_dtypes) requireDeclaredDtypes(library);
  OperatorSelection selection;
  if (!o.selected_ops.empty()) selection = readSelection(o.selected_ops);
  std::filesystem::create_directories(o.output_dir);
  writeGeneratedFiles(generate(library, selection, o.aten_api), o.output_dir);
  return 0;
}

int selectCommand(const Options& o) {
  if (o.output.empty()) usage("select needs --output");
  OperatorSelection selection;
  selection.include_all = o.include_all;
  if (!o.models.empty()) {
    // The programs' operators: libswitchyard's schemas and the `func:` entries of the kernel YAML
    // tell each call's tensor arguments from its results.
    SchemaIndex schemas;
    for (const std::string& path : o.schemas) readSchemas(path, schemas);
    for (const std::string& path : o.ops_schema_yamls) {
      KernelLibrary library;
      parseKernelYaml(path, schemas, library);
      for (const OperatorEntry& op : library.operators) {
        if (op.defines_schema) schemas.emplace(op.schema.operator_name().toString(), op.schema);
      }
    }
    for (const std::string& path : o.models) selectProgramOperators(path, schemas, selection);
  }
  std::set<std::string> named;
  size_t start = 0;
  while (start < o.root_ops.size()) {
    size_t comma = o.root_ops.find(',', start);
    std::string name = o.root_ops.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (!name.empty()) named.insert(qualifiedOperatorName(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // Every operator a kernel YAML lists is selected (schemas of `op:` entries are not needed here).
  for (const std::string& path : o.ops_schema_yamls) {
    for (const std::string& name : operatorNamesIn(path)) named.insert(name);
  }
  // An operator selected by name keeps every kernel, whatever a program needs of it.
  for (const std::string& name : named) {
    selection.operators.insert(name);
    selection.kernel_keys.erase(name);
  }
  writeSelection(o.output, selection);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parseOptions(argc, argv);
  try {
    if (o.command == "gen") return generateCommand(o);
    if (o.command == "select") return selectCommand(o);
    usage("unknown command " + o.command);
  } catch (const CodegenError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "switchyard_codegen: error: " << e.what() << "\n";
    return 1;
  }
}
