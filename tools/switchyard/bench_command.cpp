// `switchyard bench`: the dispatch-overhead table, measured on the spot.
#include <iostream>

#include "absl/flags/flag.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/overhead_table.h"

ABSL_FLAG(int, calls, 50000, "calls per timed run (each cell is the fastest of several runs)");

namespace sy::cli {
namespace {

absl::Status runBench(const std::vector<std::string>& args) {
  if (!args.empty()) return absl::InvalidArgumentError("bench takes no arguments, only flags (see switchyard bench --help)");
  const int calls = absl::GetFlag(FLAGS_calls);
  if (calls < 1) return absl::InvalidArgumentError("--calls must be at least 1");
  OverheadTable table = measureOverheadTable(terminalProgress(""), calls);
  std::cout << "Dispatch overhead: acos.out and acos on a 1-element Float tensor (fastest of 10 runs of " << calls
            << " calls).\nIn parentheses, what the row's extra dispatch key adds to base.\n\n"
            << table.format();
  return absl::OkStatus();
}

}  // namespace

const Command& benchCommand() {
  static const Command command{
      "bench", "measure the dispatcher's overhead per call, with and without fallbacks",
      "usage: switchyard bench [--calls N]\n\n"
      "Measures, in this process, nanoseconds per call of aten::acos.out and aten::acos on a 1-element\n"
      "Float tensor: called directly, through the dispatcher, and with an extra dispatch key served by a\n"
      "per-op kernel, a fallthrough and a boxed backend fallback. bench/README.md has the careful\n"
      "numbers (instruction counts, and PyTorch side by side).",
      {"calls"},
      &runBench};
  return command;
}

}  // namespace sy::cli
