// `switchyard bench`: the dispatch-overhead table, measured on the spot; `switchyard bench
// PROGRAM.pte`: what one execute of a program's method costs. Instructions under callgrind when
// valgrind is there (instruction_counts.h), and times.
#include <algorithm>
#include <chrono>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "switchyard/core/error.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/instruction_counts.h"
#include "switchyard/tools/switchyard/method_setup.h"
#include "switchyard/tools/switchyard/overhead_table.h"

ABSL_FLAG(int, calls, 50000, "calls per timed run of the overhead table (each time is the median of 9 runs)");
ABSL_FLAG(bool, set_inputs_each_execute, false,
          "bench PROGRAM.pte: set the method's inputs before every execute, and count that too (as a runner that "
          "feeds new inputs each time does)");
// Defined by `switchyard run` (run_command.cpp), which loads a method the same way.
ABSL_DECLARE_FLAG(std::string, data);
ABSL_DECLARE_FLAG(std::string, method);
ABSL_DECLARE_FLAG(std::string, inputs);
ABSL_DECLARE_FLAG(std::optional<int64_t>, random);

namespace sy::cli {
namespace {

// Runs per timed sample, and the time a sample aims at: long enough to dwarf the clock's cost,
// short enough that a large model is timed in about a second.
constexpr int kTimedRuns = 9;
constexpr double kSampleNs = 20e6;
// The callgrind loops aim at this much native time each (callgrind runs some 50 times slower), and
// make at most kMaxLoop executes: the counts are exact, so a few executes of a large model suffice.
constexpr double kLoopNs = 20e6;
constexpr int kMaxLoop = 100;

// "152.3 ns", "12.5 us", "3.41 ms", "1.20 s".
std::string durationText(double ns) {
  if (ns < 1e3) return absl::StrFormat("%.1f ns", ns);
  if (ns < 1e6) return absl::StrFormat("%.1f us", ns / 1e3);
  if (ns < 1e9) return absl::StrFormat("%.2f ms", ns / 1e6);
  return absl::StrFormat("%.2f s", ns / 1e9);
}

// A program's method, loaded with its inputs set, as the flags say.
struct LoadedMethod {
  std::optional<Program> program;
  std::optional<Method> method;
  std::vector<IValue> inputs;
  std::string name;
  size_t instructions = 0;
  bool set_inputs_each_execute = false;
};

absl::Status load(const std::string& path, LoadedMethod& loaded) {
  absl::StatusOr<Program> program = Program::load(path);
  if (!program.ok()) return program.status();
  loaded.program = std::move(*program);
  loaded.name = absl::GetFlag(FLAGS_method).empty() ? "forward" : absl::GetFlag(FLAGS_method);
  absl::StatusOr<MethodMeta> meta = loaded.program->method_meta(loaded.name);
  if (!meta.ok()) return meta.status();
  absl::StatusOr<MethodOptions> options = methodOptions(absl::GetFlag(FLAGS_data), /*verbose=*/false);
  if (!options.ok()) return options.status();
  absl::StatusOr<Method> method = loaded.program->load_method(loaded.name, *options);
  if (!method.ok()) return method.status();
  loaded.method = std::move(*method);
  loaded.instructions = meta->num_instructions;
  absl::StatusOr<std::vector<IValue>> inputs =
      methodInputs(*meta, absl::GetFlag(FLAGS_inputs), absl::GetFlag(FLAGS_random));
  if (!inputs.ok()) return inputs.status();
  loaded.inputs = std::move(*inputs);
  loaded.set_inputs_each_execute = absl::GetFlag(FLAGS_set_inputs_each_execute);
  return setInputs(*loaded.method, loaded.inputs);
}

// One execute, with the inputs set first when --set-inputs-each-execute says so.
absl::Status executeOnce(LoadedMethod& loaded) {
  if (loaded.set_inputs_each_execute) {
    if (absl::Status s = setInputs(*loaded.method, loaded.inputs); !s.ok()) return s;
  }
  return loaded.method->execute();
}

double nanosecondsFor(LoadedMethod& loaded, int executes, absl::Status& status) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < executes && status.ok(); ++i) status = executeOnce(loaded);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

// The child's arguments: this command again, with the flags that load the method.
std::vector<std::string> childArguments(const std::string& path) {
  std::vector<std::string> args = {"bench", path};
  if (!absl::GetFlag(FLAGS_method).empty()) args.push_back("--method=" + absl::GetFlag(FLAGS_method));
  if (!absl::GetFlag(FLAGS_data).empty()) args.push_back("--data=" + absl::GetFlag(FLAGS_data));
  if (!absl::GetFlag(FLAGS_inputs).empty()) args.push_back("--inputs=" + absl::GetFlag(FLAGS_inputs));
  if (absl::GetFlag(FLAGS_random)) args.push_back(sy::str("--random=", *absl::GetFlag(FLAGS_random)));
  if (absl::GetFlag(FLAGS_set_inputs_each_execute)) args.push_back("--set-inputs-each-execute");
  return args;
}

absl::Status benchProgram(const std::string& path) {
  LoadedMethod loaded;
  if (absl::Status s = load(path, loaded); !s.ok()) return s;
  if (isCallgrindChild()) {
    // See Note [Instruction counts come from a callgrind child].
    const int status = runLoopsInCallgrindChild([&] { return executeOnce(loaded).ok(); });
    return status == 0 ? absl::OkStatus() : absl::FailedPreconditionError("the callgrind child could not execute");
  }
  absl::Status status = absl::OkStatus();
  // The first execute warms up, and is the one a failure shows in.
  nanosecondsFor(loaded, 1, status);
  if (!status.ok()) return status;
  int executes = 1;
  while (executes < (1 << 20) && nanosecondsFor(loaded, executes, status) < kSampleNs / 2 && status.ok()) executes *= 2;
  std::vector<double> samples;
  for (int run = 0; run < kTimedRuns && status.ok(); ++run) {
    samples.push_back(nanosecondsFor(loaded, executes, status) / executes);
  }
  if (!status.ok()) return status;
  const double ns = medianOf(samples);
  const int low = std::max(1, std::min(kMaxLoop, static_cast<int>(kLoopNs / std::max(ns, 1.0))));
  absl::StatusOr<double> instructions = countInstructionsPerLoop(childArguments(path), low, 3 * low);

  std::cout << "Method '" << loaded.name << "' of " << path << ": " << loaded.instructions << " instruction(s), inputs set "
            << (loaded.set_inputs_each_execute ? "before every execute" : "once") << ".\n";
  if (instructions.ok()) {
    std::cout << absl::StrFormat("instructions per execute: %.0f (callgrind, from %d and %d executes)\n", *instructions,
                                 low, 3 * low);
  } else {
    std::cout << "instructions per execute: not counted: " << instructions.status().message() << "\n";
  }
  std::cout << absl::StrFormat("time per execute: %s ±%s (median of %d runs of %d executes)\n", durationText(ns),
                               durationText(spreadOf(samples)), kTimedRuns, executes);
  return absl::OkStatus();
}

absl::Status runBench(const std::vector<std::string>& args) {
  if (args.size() > 1) return absl::InvalidArgumentError("bench takes at most one program file (see switchyard bench --help)");
  if (args.size() == 1) return benchProgram(args[0]);
  // See Note [Instruction counts come from a callgrind child].
  if (isCallgrindChild()) {
    return runCallgrindChild() == 0 ? absl::OkStatus()
                                    : absl::FailedPreconditionError("the callgrind child runs only under callgrind");
  }
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
      "bench", "measure the dispatcher's overhead per call, or what one execute of a program costs",
      "usage: switchyard bench [--calls N]\n"
      "       switchyard bench PROGRAM.pte [--data FILE.ptd] [--method NAME] [--inputs FILE.json | --random SEED]\n"
      "                        [--set-inputs-each-execute]\n\n"
      "Without a program: measures, in this process, the cost per call of aten::acos.out and aten::acos on a\n"
      "1-element Float tensor: called directly, through the dispatcher, and with an extra dispatch key served\n"
      "by a per-op kernel, a fallthrough and a boxed backend fallback. A row's extra over base is never shown\n"
      "negative. With a program: loads the method as `switchyard run` does and measures one execute.\n"
      "The headline is instructions (per call, per execute), counted by running itself under valgrind's\n"
      "callgrind when valgrind is installed (it says so when it is not); times follow as medians with their\n"
      "spread. bench/README.md has the careful numbers, PyTorch and ExecuTorch side by side.",
      {"calls", "data", "method", "inputs", "random", "set_inputs_each_execute"},
      &runBench};
  return command;
}

}  // namespace sy::cli
