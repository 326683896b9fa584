// `switchyard ops`, `switchyard bench` and `switchyard demo`: what a backend author asks of a build
// from the shell (which operators exist, what runs for each dispatch key, what a call costs), and
// the demo that ./run.sh ends with.
#include <cstdlib>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"
#include "test_support.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/emit.h"
#include "switchyard/switchyard.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace sy::testing::cli;

TEST(CliOps, ListsEveryOperatorWithItsSchema) {
  Result r = runCli("ops");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" operators (`switchyard ops NAME` shows one's dispatch table):\n"));
  EXPECT_THAT(r.out, HasSubstr("  aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"));
  EXPECT_THAT(r.out, HasSubstr("  aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"));
  // Sorted by name.
  EXPECT_LT(r.out.find("aten::acos("), r.out.find("aten::add.Tensor("));
}

TEST(CliOps, ShowsOneOverloadsSchemaAndDispatchTableWithRegistrationSites) {
  Result r = runCli("ops aten::acos.out");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"));
  // Both come from the operator's YAML entry (backends/devices/cpu/unary_ops.yaml), not from generated code.
  EXPECT_THAT(r.out, HasSubstr("schema registered at backends/devices/cpu/unary_ops.yaml:"));
  EXPECT_THAT(r.out, HasSubstr("  CPU: kernel [registered at backends/devices/cpu/unary_ops.yaml:"));
  EXPECT_THAT(r.out, HasSubstr("  Accel: backend fallback [registered at backends/devices/accel/accel_cpu_fallback.cpp:"));
  EXPECT_THAT(r.out, HasSubstr("  BackendSelect: backend fallback (fallthrough)"));
  EXPECT_THAT(r.out, HasSubstr("  PrivateUse1: missing"));
  // The autograd recorder is only the default on the private-use autograd keys, and says so (See
  // Note [A backend's own fallback replaces the library's default]).
  EXPECT_THAT(r.out, HasSubstr("  AutogradPrivateUse1: backend fallback [registered at autograd/autograd_fallback.cpp:"));
  EXPECT_THAT(r.out, HasSubstr("(the library's default for AutogradPrivateUse1; a backend's own fallback there replaces it)\n"));
  // Only the overload asked for.
  EXPECT_THAT(r.out, Not(HasSubstr("aten::acos(Tensor self) -> Tensor")));
}

TEST(CliOps, ABareNameShowsEveryOverload) {
  Result r = runCli("ops aten::acos");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("aten::acos(Tensor self) -> Tensor\n"));
  EXPECT_THAT(r.out, HasSubstr("aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"));
}

TEST(CliOps, AnUnknownOperatorIsOneLineSuggestingSimilarNames) {
  expectOneLineError(runCli("ops aten::acoss"), "no operator named 'aten::acoss' is registered; similar: aten::acos");
  expectOneLineError(runCli("ops nothing::like_this"), "(`switchyard ops` lists them all)");
  expectOneLineError(runCli("ops aten::acos aten::add"), "ops takes at most one operator name");
}

TEST(CliBench, PrintsTheOverheadTableWithEveryRowAndColumn) {
  Result r = runCli("bench --calls 200");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("acos.out"));
  EXPECT_THAT(r.out, HasSubstr("acos "));
  // Instruction counts first (or why there are none), then times: each row a label and a positive
  // median per column; rows below base show their extra, never negative.
  const size_t times = r.out.find("ns/call");
  ASSERT_NE(times, std::string::npos) << r.out;
  EXPECT_LT(r.out.find("instructions/call"), times);
  for (const char* row : {"direct", "base", "per-op kernel", "fallthrough", "backend fallback"}) {
    const size_t at = r.out.find(std::string("  ") + row + " ", times);
    ASSERT_NE(at, std::string::npos) << row << " missing from:\n" << r.out;
    std::istringstream line(r.out.substr(at + 2 + std::string(row).size()));
    double ns = 0;
    line >> ns;
    EXPECT_GT(ns, 0) << row;
  }
  EXPECT_THAT(r.out, ::testing::ContainsRegex("\\((\\+[0-9]+(\\.[0-9])?|~0)\\)"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("(-")));
#if !SY_TEST_SANITIZED  // valgrind cannot run a sanitizer build
  if (std::system("command -v valgrind > /dev/null 2>&1") == 0) {
    EXPECT_THAT(r.out, HasSubstr("instructions/call   acos.out")) << r.out;
  } else {
    EXPECT_THAT(r.out, HasSubstr("instructions/call: not counted (valgrind is not installed")) << r.out;
  }
#endif
}

// relu(x + w), w in the program's constants: two instructions on a [2, 3] Float input.
std::string writeReluProgram(const std::string& name) {
  const sy::Tensor w = sy::full({2, 3}, 0.5);
  sy::export_::ExportedProgram ep = sy::export_::capture(
      [&](const std::vector<sy::Tensor>& in) { return std::vector<sy::Tensor>{sy::ops::relu(sy::ops::add(in[0], w))}; },
      {sy::ones({2, 3})}, {{"w", w}});
  const std::string program = tempPath(name);
  EXPECT_TRUE(sy::export_::emitProgram(ep)->save(program).ok());
  return program;
}

// "instructions per execute: N" as a number, or -1 when the line has none.
double instructionsPerExecute(const std::string& out) {
  const std::string label = "instructions per execute: ";
  const size_t at = out.find(label);
  if (at == std::string::npos) return -1;
  std::istringstream number(out.substr(at + label.size()));
  double count = -1;
  return number >> count ? count : -1;
}

TEST(CliBench, MeasuresWhatOneExecuteOfAProgramCosts) {
  const std::string program = writeReluProgram("bench_relu.pte");
  Result r = runCli("bench " + program + " --random 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Method 'forward' of " + program + ": 2 instruction(s), inputs set once.\n"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("time per execute: [0-9.]+ (ns|us|ms) ±[0-9.]+ (ns|us|ms) \\(median of 9 runs of "));
#if !SY_TEST_SANITIZED  // valgrind cannot run a sanitizer build
  if (std::system("command -v valgrind > /dev/null 2>&1") == 0) {
    const double once = instructionsPerExecute(r.out);
    EXPECT_GT(once, 0) << r.out;
    // Setting the inputs before every execute is counted too: a runner feeding new inputs pays it.
    Result each = runCli("bench " + program + " --random 1 --set-inputs-each-execute");
    ASSERT_EQ(each.status, 0) << each.err;
    EXPECT_THAT(each.out, HasSubstr("inputs set before every execute"));
    EXPECT_GT(instructionsPerExecute(each.out), once) << each.out;
  } else {
    EXPECT_THAT(r.out, HasSubstr("instructions per execute: not counted: valgrind is not installed")) << r.out;
  }
#endif
  std::remove(program.c_str());
}

TEST(CliBench, AProgramThatCannotRunIsTheErrorNotATable) {
  const std::string program = writeReluProgram("bench_relu_no_inputs.pte");
  expectOneLineError(runCli("bench " + program), "method 'forward' takes 1 input(s); give --inputs FILE.json or --random SEED");
  expectOneLineError(runCli("bench " + program + " --random 1 --method backward"), "backward");
  expectOneLineError(runCli("bench " + tempPath("no_such.pte") + " --random 1"), "no_such.pte");
  std::remove(program.c_str());
}

TEST(CliBench, RefusesArgumentsAndANonPositiveCallCount) {
  expectOneLineError(runCli("bench one.pte two.pte"), "bench takes at most one program file");
  expectOneLineError(runCli("bench --calls 0"), "--calls must be at least 1");
  expectOneLineError(runCli("bench --profile"), "bench does not take --profile");
}

TEST(CliOps, EveryNewSubcommandHasHelp) {
  Result ops = runCli("ops --help");
  EXPECT_EQ(ops.status, 0);
  EXPECT_THAT(ops.out, HasSubstr("usage: switchyard ops [NAME]"));
  Result bench = runCli("bench --help");
  EXPECT_EQ(bench.status, 0);
  EXPECT_THAT(bench.out, HasSubstr("usage: switchyard bench [--calls N]"));
  EXPECT_THAT(bench.out, HasSubstr("--calls"));
}

TEST(CliDemo, RunsEveryLayerAndPassesItsChecks) {
  Result r = runCli("demo --calls 100");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  for (const char* heading : {"== 1. Eager", "== 2. Ahead of time", "== 3. The profiler", "== 4. Dispatch overhead"}) {
    EXPECT_THAT(r.out, HasSubstr(heading));
  }
  // Accel ran some operators natively and sent the rest to the CPU.
  EXPECT_THAT(r.out, HasSubstr("ran natively on Accel:\n    aten::add.Tensor"));
  EXPECT_THAT(r.out, HasSubstr("fell back to the CPU:\n    aten::_softmax"));
  EXPECT_THAT(r.out, HasSubstr("check: Accel against CPU: max abs difference"));
  // Partitioned: the demo delegate takes the logit cap's mul and add, around the portable tanh.
  EXPECT_THAT(r.out, HasSubstr("-> BackendWithCompilerDemo"));
  const size_t left = r.out.find("left to the portable kernels: ");
  ASSERT_NE(left, std::string::npos);
  EXPECT_THAT(r.out.substr(left, r.out.find('\n', left) - left), HasSubstr("aten::tanh"));
  EXPECT_THAT(r.out, HasSubstr("check: lowered program run from C++ against eager: max abs difference"));
  EXPECT_THAT(r.out, HasSubstr("check: loaded program against eager: max abs difference"));
  EXPECT_THAT(r.out, HasSubstr("BackendWithCompilerDemo#0"));  // delegated work, profiled per delegate
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));
  EXPECT_THAT(r.out, HasSubstr("aten::tanh.out"));  // the profiler's table: the portable part
  EXPECT_THAT(r.out, HasSubstr("All checks passed."));
  expectOneLineError(runCli("demo extra"), "demo takes no arguments");
}

TEST(CliInspect, FormatDotDrawsTheDemosPartitionedProgramWithADelegateClusterEach) {
  const std::string program = tempPath("demo.pte");
  Result demo = runCli("demo --calls 100 --save " + program);
  ASSERT_EQ(demo.status, 0) << demo.err;
  Result r = runCli("inspect " + program + " --format dot");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::StartsWith("digraph \"forward\" {\n"));
  EXPECT_THAT(r.out, HasSubstr("subgraph cluster_"));
  EXPECT_THAT(r.out, HasSubstr("label=\"delegate 0: BackendWithCompilerDemo\""));
  EXPECT_THAT(r.out, HasSubstr("aten::mul.Tensor (node 'mul')\\ntools/switchyard/demo_model.cpp:"));
  EXPECT_THAT(r.out, HasSubstr("label=\"input 0\\nFloat[1, 3, 32, 32]\""));
  EXPECT_THAT(r.out, HasSubstr(" planned\"]"));                       // planned values on the edges
  EXPECT_THAT(r.out, HasSubstr("label=\"aten::tanh.out\\ntools/switchyard/demo_model.cpp:"));
  EXPECT_THAT(r.out, ::testing::EndsWith("}\n"));
  expectOneLineError(runCli("inspect " + program + " --format svg"), "--format for inspect is text or dot, not 'svg'");
  std::remove(program.c_str());
}

TEST(CliInspect, FormatDotAnnotatesTheConstantsAProgramOwns) {
  // relu(x + w) with w a parameter: emitted into the program's constant segment.
  const sy::Tensor w = sy::full({2, 3}, 0.5);
  sy::export_::ExportedProgram ep = sy::export_::capture(
      [&](const std::vector<sy::Tensor>& in) { return std::vector<sy::Tensor>{sy::ops::relu(sy::ops::add(in[0], w))}; },
      {sy::ones({2, 3})}, {{"w", w}});
  const std::string program = tempPath("constant.pte");
  ASSERT_TRUE(sy::export_::emitProgram(ep)->save(program).ok());
  Result r = runCli("inspect " + program + " --format dot");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[shape=note, style=filled, fillcolor=\"#eeeeee\", fontsize=8, label=\"constant %"));
  EXPECT_THAT(r.out, HasSubstr("\\nFloat[2, 3]\"];"));
  EXPECT_THAT(r.out, HasSubstr("[label=\"aten::add.out\\ntests/tools/cli_ops_bench_test.cpp:"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("cluster_")));  // nothing delegated
  std::remove(program.c_str());
}

}  // namespace
