// The program-runtime benchmark (bench/README.md, "Programs"): what a method's instruction costs
// beyond the kernel it runs. One chain of kChainLength `aten::add.out` calls on 4-element Float
// tensors, run three ways, one row per process:
//
//   direct      the CPU kernel called in a C++ loop, without the dispatcher (the floor)
//   dispatcher  the same calls through the dispatcher (sy::ops::add_out)
//   method      a program of the same calls, built with ProgramBuilder, run by Method::execute()
//
//   program_bench                                       Google Benchmark, every row
//   program_bench --row=method --iterations=3000        the chain 3000 times, with callgrind
//                                                       collecting only those (run under valgrind)
//
// bench/overhead.py runs each row under callgrind with two iteration counts and divides the
// difference by the instructions executed in between, as for the dispatch-overhead rows; it also
// runs the method row under memcheck twice to count heap allocations per execute().
#include <valgrind/callgrind.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "benchmark/benchmark.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "switchyard/switchyard.h"

ABSL_FLAG(std::string, row, "", "direct, dispatcher or method; empty: time every row with Google Benchmark");
ABSL_FLAG(int, iterations, 1000, "runs of the chain to make with --row, collecting under callgrind");

namespace {

using sy::Tensor;

// Instructions in the chain: long enough that execute()'s own entry and exit are a small part of
// each instruction's share, as in a real method.
constexpr int kChainLength = 16;
constexpr int64_t kNumel = 4;

// y_0 = x + x, y_i = y_{i-1} + x, alternating between two result tensors.
struct Chain {
  Tensor x = sy::full({kNumel}, 0.5);
  Tensor results[2] = {sy::empty({kNumel}), sy::empty({kNumel})};
  sy::Scalar alpha = 1;
};

constexpr sy::KernelContext kAddOut{"aten::add.out", sy::OutputForm::Out};

void runDirect(Chain& c) {
  const Tensor* previous = &c.x;
  for (int i = 0; i < kChainLength; ++i) {
    Tensor& out = c.results[i & 1];
    sy::cpu::add_out_cpu(*previous, c.x, c.alpha, out, kAddOut);
    previous = &out;
  }
}

void runThroughDispatcher(Chain& c) {
  const Tensor* previous = &c.x;
  for (int i = 0; i < kChainLength; ++i) {
    Tensor& out = c.results[i & 1];
    sy::ops::add_out(out, *previous, c.x, c.alpha);
    previous = &out;
  }
}

// The same chain as a program: x is the input, two planned results, alpha an Int value.
sy::Method loadChainMethod() {
  sy::testing::ProgramBuilder b;
  const int32_t bytes = kNumel * sizeof(float);
  int x = b.plannedTensor(sy::ScalarType::Float, {kNumel}, 1, 0);
  int results[2] = {b.plannedTensor(sy::ScalarType::Float, {kNumel}, 1, bytes),
                    b.plannedTensor(sy::ScalarType::Float, {kNumel}, 1, 2 * bytes)};
  int alpha = b.intValue(1);
  int add = b.op("aten::add", "out");
  int previous = x;
  for (int i = 0; i < kChainLength; ++i) {
    b.kernelCall(add, {previous, x, alpha, results[i & 1], results[i & 1]});
    previous = results[i & 1];
  }
  b.inputs({x}).outputs({previous}).bufferSizes({0, 3 * bytes});
  absl::StatusOr<sy::Program> program = sy::Program::loadFromBuffer(b.finish());
  if (!program.ok()) {
    std::cerr << "building the chain program failed: " << program.status() << "\n";
    std::exit(1);
  }
  absl::StatusOr<sy::Method> method = program->load_method("forward");
  if (!method.ok() || !method->set_input(0, sy::full({kNumel}, 0.5)).ok()) {
    std::cerr << "loading the chain method failed: " << method.status() << "\n";
    std::exit(1);
  }
  return std::move(*method);
}

void executeOrExit(sy::Method& m) {
  absl::Status s = m.execute();
  if (!s.ok()) {
    std::cerr << s << "\n";
    std::exit(1);
  }
}

// One run of the chain for `row`, bound to what it owns.
std::function<void()> makeRow(const std::string& row) {
  if (row == "direct") return [c = std::make_shared<Chain>()] { runDirect(*c); };
  if (row == "dispatcher") return [c = std::make_shared<Chain>()] { runThroughDispatcher(*c); };
  if (row == "method") return [m = std::make_shared<sy::Method>(loadChainMethod())] { executeOrExit(*m); };
  return nullptr;
}

const char* const kRows[] = {"direct", "dispatcher", "method"};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  absl::ParseCommandLine(argc, argv);
  const std::string row = absl::GetFlag(FLAGS_row);
  if (!row.empty()) {
    std::function<void()> run = makeRow(row);
    if (!run) {
      std::cerr << "unknown row '" << row << "' (direct, dispatcher or method)\n";
      return 2;
    }
    for (int i = 0; i < 100; ++i) run();  // warm caches and lazy statics before collecting
    const int iterations = absl::GetFlag(FLAGS_iterations);
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < iterations; ++i) run();
    CALLGRIND_TOGGLE_COLLECT;
    std::cout << "instructions_per_run=" << kChainLength << "\n";  // for bench/overhead.py's division
    return 0;
  }
  for (const char* name : kRows) {
    benchmark::RegisterBenchmark(name, [name](benchmark::State& state) {
      std::function<void()> run = makeRow(name);
      for (auto _ : state) run();
      state.SetItemsProcessed(state.iterations() * kChainLength);  // items: executed instructions
    });
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
