// `switchyard inspect`: what a program holds and what running it needs, without running it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_join.h"
#include "switchyard/core/error.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/graph_dot.h"

// --format and --method are shared with `run` (abseil's flags are global; run_command.cpp defines them).
ABSL_DECLARE_FLAG(std::string, format);
ABSL_DECLARE_FLAG(std::string, method);
ABSL_FLAG(bool, graph, false, "also list each method's instructions: operators, arguments, source lines, delegate calls");

namespace sy::cli {
namespace {

std::string describe(const ValueInfo& v) {
  if (v.kind != "Tensor") return sy::str(v.kind, " (value ", v.value_index, ")");
  std::string s = sy::str(toString(v), " (value ", v.value_index, v.planned ? ", planned" : "", ")");
  if (!v.external_name.empty()) s += sy::str(" external '", v.external_name, "'");
  if (!v.device.empty()) s += sy::str(" on ", v.device, "    <- not the CPU: the method does not load here");
  return s;
}

// "  dynamic shapes: 2 of 3 tensors DYNAMIC_BOUND, ..." when the method has dynamic tensors.
std::string dynamicShapesLine(const MethodMeta& m) {
  size_t tensors = 0, bound = 0, unbound = 0;
  for (const ValueInfo& v : m.values) {
    if (v.kind != "Tensor") continue;
    ++tensors;
    bound += v.dynamism == ShapeDynamism::DynamicBound;
    unbound += v.dynamism == ShapeDynamism::DynamicUnbound;
  }
  if (bound + unbound == 0) return "";
  std::string line = sy::str("  dynamic shapes: ", bound, " of ", tensors, " tensors DYNAMIC_BOUND (sizes shown are upper "
                             "bounds; inputs take any sizes up to them)");
  if (unbound > 0) line += sy::str(", ", unbound, " DYNAMIC_UNBOUND (memory of their own, grown at run time)");
  return line + "\n";
}

// "  dtypes: Float (5 tensors), Half (2 tensors)": every element type the method's tensors have, in
// PyTorch's numbering, so a program with types a kernel may not take shows them before it runs.
std::string dtypesLine(const MethodMeta& m) {
  std::map<int, size_t> counts;
  for (const ValueInfo& v : m.values) {
    if (v.kind == "Tensor" && v.dtype) ++counts[static_cast<int>(*v.dtype)];
  }
  if (counts.empty()) return "";
  std::vector<std::string> parts;
  for (const auto& [code, count] : counts) {
    parts.push_back(sy::str(toString(static_cast<ProgramScalarType>(code)), " (", count, count == 1 ? " tensor)" : " tensors)"));
  }
  return sy::str("  dtypes: ", absl::StrJoin(parts, ", "), "\n");
}

// A compile spec's value as text when it is printable, else its size.
std::string describe(const CompileSpecInfo& spec) {
  bool printable = !spec.value.empty();
  for (uint8_t c : spec.value) printable &= (c >= 0x20 && c < 0x7f);
  if (printable) return sy::str(spec.key, "=\"", std::string(spec.value.begin(), spec.value.end()), "\"");
  return sy::str(spec.key, "=<", spec.value.size(), " bytes>");
}

void printMethod(const MethodMeta& m) {
  std::cout << "\nmethod '" << m.name << "': " << m.num_instructions << " instructions, " << m.num_values << " values\n";
  std::cout << "  inputs:\n";
  for (size_t i = 0; i < m.inputs.size(); ++i) std::cout << "    " << i << ": " << describe(m.inputs[i]) << "\n";
  for (const auto& [input, value] : m.reused_inputs) {
    std::cout << "    (input " << input << "'s planned bytes are reused by value " << value
              << " while the method runs; the method keeps a copy and restores it before each execute)\n";
  }
  std::cout << "  outputs:\n";
  for (size_t i = 0; i < m.outputs.size(); ++i) std::cout << "    " << i << ": " << describe(m.outputs[i]) << "\n";

  size_t missing = 0;
  std::cout << "  operators (" << m.operators.size() << "):\n";
  for (const OperatorName& op : m.operators) {
    const bool registered = Dispatcher::singleton().findSchema(op).has_value();
    missing += !registered;
    std::cout << "    " << op.toString() << (registered ? "" : "    <- not registered") << "\n";
  }
  if (!m.delegates.empty()) {
    std::cout << "  delegates (" << m.delegates.size() << "):\n";
    for (size_t i = 0; i < m.delegates.size(); ++i) {
      const DelegateInfo& d = m.delegates[i];
      const bool registered = get_backend_class(d.backend) != nullptr;
      missing += !registered;
      std::vector<std::string> specs;
      for (const CompileSpecInfo& spec : d.compile_specs) specs.push_back(describe(spec));
      std::cout << "    " << i << ": " << d.backend << ", " << d.processed_size << " bytes "
                << (d.processed_inline ? "inline" : "in a segment")
                << (specs.empty() ? "" : ", compile specs: " + absl::StrJoin(specs, ", "))
                << (registered ? "" : "    <- backend not registered") << "\n";
      for (const std::string& line : d.description) std::cout << "       " << line << "\n";
    }
  }
  std::cout << dtypesLine(m);
  std::cout << dynamicShapesLine(m);
  int64_t planned = 0;
  for (size_t i = 1; i < m.planned_buffer_sizes.size(); ++i) planned += m.planned_buffer_sizes[i];
  std::cout << "  planned memory: " << planned << " bytes in " << (m.planned_buffer_sizes.empty() ? 0 : m.planned_buffer_sizes.size() - 1)
            << " buffer(s)";
  for (size_t i = 1; i < m.planned_buffer_sizes.size(); ++i) std::cout << (i == 1 ? " [" : ", ") << m.planned_buffer_sizes[i];
  std::cout << (m.planned_buffer_sizes.size() > 1 ? "]\n" : "\n");
  if (!m.external_tensors.empty()) {
    std::cout << "  external tensors (need --data FILE.ptd): " << absl::StrJoin(m.external_tensors, ", ") << "\n";
  }
  std::cout << "  runnable here: "
            << (missing == 0 ? "yes" : sy::str("no, ", missing, " operator(s) or backend(s) not registered")) << "\n";
  if (!absl::GetFlag(FLAGS_graph)) return;
  std::cout << "  instructions:\n";
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    const InstructionInfo& ins = m.instructions[i];
    std::cout << "    " << i << ": " << ins.text << (ins.source.empty() ? "" : "  # " + ins.source) << "\n";
    for (const std::string& origin : ins.delegated) std::cout << "         runs " << origin << "\n";
  }
}

// "named data: 2 keys, 1536 bytes" and a line per key, or nothing when the program has none.
void printNamedData(const Program& program) {
  const std::vector<NamedDataInfo> named = program.named_data();
  if (named.empty()) return;
  uint64_t total = 0;
  for (const NamedDataInfo& n : named) total += n.size;
  std::cout << "named data: " << named.size() << (named.size() == 1 ? " key, " : " keys, ") << total << " bytes\n";
  for (const NamedDataInfo& n : named) {
    std::cout << "  " << n.key << ": " << (n.error.empty() ? sy::str(n.size, " bytes") : n.error) << "\n";
  }
}

// Whether `path` holds a .ptd data file (FT01 at byte 4, or the older layout's FH01 at byte 0).
// Anything but a regular file is left to Program::load, which says what it is (opening a FIFO
// here would wait for a writer).
bool isDataFile(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(path, ignored)) return false;
  char head[8] = {};
  std::ifstream in(path, std::ios::binary);
  if (!in.read(head, sizeof(head))) return false;
  return std::string_view(head + 4, 4) == "FT01" || std::string_view(head, 4) == "FH01";
}

absl::Status inspectDataFile(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(path);
  if (!data.ok()) return data.status();
  const std::vector<DataFile::Entry>& entries = (*data)->entries();
  uint64_t total = 0;
  for (const DataFile::Entry& e : entries) total += e.bytes.size();
  std::cout << "data file " << (*data)->name() << " (" << (*data)->layout() << ", format version " << (*data)->version()
            << "), " << entries.size() << (entries.size() == 1 ? " entry, " : " entries, ") << total << " bytes\n";
  for (const DataFile::Entry& e : entries) {
    std::cout << "  " << e.key << ": ";
    if (e.dtype) std::cout << toString(*e.dtype) << "[" << absl::StrJoin(e.sizes, ", ") << "], ";
    std::cout << e.bytes.size() << " bytes\n";
  }
  return absl::OkStatus();
}

absl::Status inspect(const std::vector<std::string>& args) {
  if (args.size() != 1) return absl::InvalidArgumentError("inspect takes one program file (see switchyard inspect --help)");
  if (isDataFile(args[0])) {
    if (absl::GetFlag(FLAGS_format) != "text" || !absl::GetFlag(FLAGS_method).empty() || absl::GetFlag(FLAGS_graph)) {
      return absl::InvalidArgumentError(sy::str("'", args[0], "' is a data file (.ptd): inspect lists its entries, and "
                                                "takes none of --format, --method and --graph for it"));
    }
    return inspectDataFile(args[0]);
  }
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format != "text" && format != "dot") {
    return absl::InvalidArgumentError(sy::str("--format for inspect is text or dot, not '", format, "'"));
  }
  absl::StatusOr<Program> program = Program::load(args[0]);
  if (!program.ok()) return program.status();
  std::vector<std::string> names = program->method_names();
  // --method narrows inspect to one method when it is given.
  if (!absl::GetFlag(FLAGS_method).empty()) names = {absl::GetFlag(FLAGS_method)};
  std::vector<MethodMeta> methods;
  for (const std::string& name : names) {
    absl::StatusOr<MethodMeta> meta = program->method_meta(name);
    if (!meta.ok()) return meta.status();
    methods.push_back(std::move(*meta));
  }
  if (format == "dot") {
    // One graph, whatever the number of methods (See graph_dot.h).
    std::cout << methodsToDot(methods, program->name());
    return absl::OkStatus();
  }
  std::cout << "program " << program->name() << " (format version " << program->version() << "), "
            << names.size() << " method(s): " << absl::StrJoin(names, ", ") << "\n";
  printNamedData(*program);
  for (const MethodMeta& meta : methods) printMethod(meta);
  return absl::OkStatus();
}

}  // namespace

const Command& inspectCommand() {
  static const Command command{
      "inspect",
      "show a program's methods, operators, delegates and planned memory",
      "usage: switchyard inspect PROGRAM.pte [--method NAME] [--graph] [--format text|dot]\n"
      "       switchyard inspect DATA.ptd\n\n"
      "Lists the program's named data (the key and size of each blob its delegates read), then each\n"
      "method's inputs and outputs (dtype and sizes; a dynamic tensor's sizes are its bounds, as in\n"
      "Float[<=8, 4] dynamic (bounded), a line counts its tensors of each dtype and one its dynamic\n"
      "tensors), the operators it calls\n"
      "(marking those no library registered), its delegates (backend, blob size, compile specs,\n"
      "registered or not) and its planned memory; with --graph, every instruction too (operator and\n"
      "arguments, source line, and for a delegate call the original operators it runs). Nothing is run,\n"
      "so a program that cannot run here can still be inspected; --method NAME shows that method only.\n"
      "--format dot prints one Graphviz graph instead (each method in a cluster when there are several,\n"
      "each delegate in its own coloured cluster, external .ptd parameters as their own nodes):\n"
      "switchyard inspect model.pte --format dot | dot -Tsvg > model.svg\n"
      "Given a data file (.ptd), lists its entries: key, dtype and sizes for tensors, and bytes.",
      {"method", "graph", "format"},
      &inspect};
  return command;
}

}  // namespace sy::cli
