// `switchyard ops`: the operators this build registers, and for one operator its schema and the
// dispatch table computed for it (each key's kernel, where it came from and where it was registered);
// with --coverage FILE.yaml, which of a kernel YAML file's operators this build registers, and for
// which dtypes.
#include <algorithm>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "switchyard/dispatcher/declared_dtypes.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/core/error.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/yaml_coverage.h"

ABSL_FLAG(std::string, coverage, "",
          "a kernel YAML file (ExecuTorch's functions.yaml format): report which of its operators are registered");

namespace sy::cli {
namespace {

std::vector<OperatorHandle> registeredOperators() {
  Dispatcher& d = Dispatcher::singleton();
  std::vector<OperatorHandle> ops;
  for (const OperatorName& name : d.getAllOpNames()) {
    std::optional<OperatorHandle> op = d.findOp(name);
    if (op) ops.push_back(*op);
  }
  std::sort(ops.begin(), ops.end(), [](const OperatorHandle& a, const OperatorHandle& b) {
    return a.operator_name().toString() < b.operator_name().toString();
  });
  return ops;
}

void printList(const std::vector<OperatorHandle>& ops) {
  std::cout << ops.size() << " operators (`switchyard ops NAME` shows one's dispatch table):\n";
  for (const OperatorHandle& op : ops) {
    if (op.hasSchema()) {
      std::cout << "  " << op.schema() << "\n";
    } else {
      std::cout << "  " << op.operator_name() << "    (kernels only, no schema)\n";
    }
  }
}

void printOne(const OperatorHandle& op) {
  std::cout << "\n";
  if (op.hasSchema()) {
    std::cout << op.schema() << "\n  schema registered at " << op.entry().schemaSite() << "\n";
  } else {
    std::cout << op.operator_name() << "\n  no schema yet (kernels only)\n";
  }
  std::cout << op.dumpComputedTable();
}

// An operator counts as registered when the dispatcher has its schema ("aten::add.out").
absl::Status runCoverage(const std::string& path) {
  absl::StatusOr<std::vector<YamlOperator>> operators = readYamlOperators(path);
  if (!operators.ok()) return operators.status();
  std::vector<Coverage> here;
  for (const YamlOperator& op : *operators) {
    const size_t dot = op.name.find('.');
    const OperatorName name{op.name.substr(0, dot), dot == std::string::npos ? "" : op.name.substr(dot + 1)};
    here.push_back({Dispatcher::singleton().findSchema(name).has_value(), declaredDtypes(name)});
  }
  std::cout << coverageReport(path, *operators, here);
  return absl::OkStatus();
}

absl::Status runOps(const std::vector<std::string>& args) {
  const std::string coverage = absl::GetFlag(FLAGS_coverage);
  if (!coverage.empty()) {
    if (!args.empty()) return absl::InvalidArgumentError("ops --coverage takes no operator name (see switchyard ops --help)");
    return runCoverage(coverage);
  }
  const std::vector<OperatorHandle> ops = registeredOperators();
  if (args.empty()) {
    printList(ops);
    return absl::OkStatus();
  }
  if (args.size() > 1) return absl::InvalidArgumentError("ops takes at most one operator name (see switchyard ops --help)");
  const std::string& wanted = args[0];
  // "aten::acos.out" names one overload; "aten::acos" every overload of it.
  const bool names_overload = wanted.find('.') != std::string::npos;
  std::vector<OperatorHandle> matches;
  for (const OperatorHandle& op : ops) {
    const bool match = names_overload ? op.operator_name().toString() == wanted : op.operator_name().name == wanted;
    if (match) matches.push_back(op);
  }
  if (matches.empty()) {
    std::vector<std::string> close;
    const std::string bare = wanted.substr(wanted.rfind(':') == std::string::npos ? 0 : wanted.rfind(':') + 1);
    for (const OperatorHandle& op : ops) {
      // A name that contains the one asked for, or is contained in it ("aten::acoss" finds acos).
      const std::string& name = op.operator_name().name;
      const std::string op_bare = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
      const bool similar = absl::StrContains(op_bare, bare) || (op_bare.size() >= 3 && absl::StrContains(bare, op_bare));
      if (similar && close.size() < 8) close.push_back(op.operator_name().toString());
    }
    return absl::NotFoundError(sy::str("no operator named '", wanted, "' is registered",
                                       close.empty() ? std::string(" (`switchyard ops` lists them all)")
                                                     : sy::str("; similar: ", absl::StrJoin(close, ", "))));
  }
  for (const OperatorHandle& op : matches) printOne(op);
  return absl::OkStatus();
}

}  // namespace

const Command& opsCommand() {
  static const Command command{
      "ops", "list the registered operators, or show one's schema and dispatch table",
      "usage: switchyard ops [NAME]\n"
      "       switchyard ops --coverage FILE.yaml\n\n"
      "Without NAME, lists every operator registered in this build with its schema. With NAME\n"
      "(\"aten::acos.out\" for one overload, \"aten::acos\" for all of them), prints each matching\n"
      "operator's schema and its computed dispatch table: for every dispatch key, the kernel that runs\n"
      "(a kernel, an alias kernel, a backend fallback or a fallthrough, or missing) and where it was\n"
      "registered.\n\n"
      "With --coverage, reads a kernel YAML file (ExecuTorch's functions.yaml format: entries with\n"
      "`op:` or `func:`, named `ns::name.overload` or, in aten, `name.overload`) and prints which of\n"
      "its operators this build registers and which are missing, each with the dtypes its entry's\n"
      "type_alias declares, the dtypes this build's kernel computes (\"here:\", from its kernel YAML)\n"
      "and the file's dtypes it lacks, then \"N of M registered\".",
      {"coverage"},
      &runOps};
  return command;
}

}  // namespace sy::cli
