// `switchyard bench`: the dispatch-overhead table, measured on the spot: instructions per call
// under callgrind when valgrind is there (instruction_counts.h), and times.
#include <iostream>

#include "absl/flags/flag.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/instruction_counts.h"
#include "switchyard/tools/switchyard/overhead_table.h"

ABSL_FLAG(int, calls, 50000, "calls per timed run (each time is the median of 9 runs)");

namespace sy::cli {
namespace {

absl::Status runBench(const std::vector<std::string>& args) {
  // See Note [Instruction counts come from a callgrind child].
  if (isCallgrindChild()) {
    return runCallgrindChild() == 0 ? absl::OkStatus()
                                    : absl::FailedPreconditionError("the callgrind child runs only under callgrind");
  }
  if (!args.empty()) return absl::InvalidArgumentError("bench takes no arguments, only flags (see switchyard bench --help)");
  const int calls = absl::GetFlag(FLAGS_calls);
  if (calls < 1) return absl::InvalidArgumentError("--calls must be at least 1");
  absl::StatusOr<std::vector<std::vector<double>>> instructions = countInstructionsPerCall();
  OverheadTable table = measureOverheadTable(terminalProgress(""), calls);
  if (instructions.ok()) {
    table.instructions = std::move(*instructions);
  } else {
    table.instructions_missing = std::string(instructions.status().message());
  }
  std::cout << "Dispatch overhead: acos.out and acos on a 1-element Float tensor.\n"
            << "Instructions per call (callgrind, the same on a busy machine as on an idle one), then nanoseconds\n"
            << "per call (median of 9 runs of " << calls << " calls, ± half the interquartile range). In parentheses,\n"
            << "what the row's extra dispatch key adds to base; ~0 when it is within the noise.\n\n"
            << table.format();
  return absl::OkStatus();
}

}  // namespace

const Command& benchCommand() {
  static const Command command{
      "bench", "measure the dispatcher's overhead per call, with and without fallbacks",
      "usage: switchyard bench [--calls N]\n\n"
      "Measures, in this process, the cost per call of aten::acos.out and aten::acos on a 1-element\n"
      "Float tensor: called directly, through the dispatcher, and with an extra dispatch key served by a\n"
      "per-op kernel, a fallthrough and a boxed backend fallback. The headline is instructions per call,\n"
      "counted by running itself under valgrind's callgrind when valgrind is installed (it says so when\n"
      "it is not); times follow as medians with their spread. A row's extra over base is never shown\n"
      "negative. bench/README.md has the careful numbers, PyTorch side by side.",
      {"calls"},
      &runBench};
  return command;
}

}  // namespace sy::cli
