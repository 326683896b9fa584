// The dispatch-overhead experiment (bench/README.md), one row per process:
//
//   overhead_bench --row=base                                     Google Benchmark, every column
//   overhead_bench --row=fallback --callgrind_column=acos/1 --iterations=2000
//                                                                 N calls, with callgrind collecting
//                                                                 only those (run under valgrind)
//
// bench/overhead.sh runs every row both ways and prints the table.
#include <valgrind/callgrind.h>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "benchmark/benchmark.h"
#include "overhead_rows.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/switchyard.h"

ABSL_FLAG(std::string, row, "base",
          "direct, base, perop_redispatch, perop_exclude, fallthrough, fallback, fallback_reading, partial_decline, "
          "partial_exact or no_grad");
ABSL_FLAG(std::string, callgrind_column, "", "run only this column, --iterations times, collecting under callgrind");
ABSL_FLAG(int, iterations, 1000, "calls to make in --callgrind_column mode");

namespace {

using sy::Tensor;
using sy::bench::Row;

// The pure-dispatch operator: one tensor in, nothing out, nothing done.
void noopKernel(const Tensor&) {}
SY_LIBRARY(bench, m) { m.def("noop(Tensor self) -> ()"); }
SY_LIBRARY_IMPL(bench, CPU, m) { m.impl("noop", SY_FN(noopKernel)); }

const auto noop_op = sy::Dispatcher::singleton().staticTypedHandle<void(const Tensor&)>("bench::noop", "");
void callNoop(const Tensor& self) { noop_op.call(self); }

using sy::bench::Column;

constexpr sy::KernelContext kAddOut{"aten::add.out", sy::OutputForm::Out};

// The acos columns (overhead_rows.h), a one-element add.out (the binary kernels' fixed cost: two
// inputs, alpha) and the pure-dispatch one.
std::vector<Column> columns() {
  std::vector<Column> all = sy::bench::acosColumns({1, 64});
  all.push_back({"add.out/1", 1, [](const sy::bench::RowSetup& setup) -> std::function<void()> {
                   Tensor self = sy::full({1}, 0.5);
                   Tensor other = sy::full({1}, 0.25);
                   Tensor out = sy::empty({1});
                   const sy::Scalar alpha = 1;
                   setup.prepare(self);
                   setup.prepare(other);
                   setup.prepare(out);
                   if (setup.row() == Row::Direct) {
                     return [self, other, out, alpha]() mutable { sy::cpu::add_out_cpu(self, other, alpha, out, kAddOut); };
                   }
                   return [self, other, out, alpha]() mutable { sy::ops::add_out(out, self, other, alpha); };
                 }});
  all.push_back({"noop", 1, [](const sy::bench::RowSetup& setup) -> std::function<void()> {
                   Tensor self = sy::full({1}, 0.5);
                   setup.prepare(self);
                   if (setup.row() == Row::Direct) return [self] { benchmark::DoNotOptimize(&self); noopKernel(self); };
                   return [self] { callNoop(self); };
                 }});
  return all;
}

int runUnderCallgrind(const sy::bench::RowSetup& setup, const std::string& column_name, int iterations) {
  for (const Column& column : columns()) {
    if (column.name != column_name) continue;
    std::function<void()> call = column.make(setup);
    for (int i = 0; i < 100; ++i) call();  // warm caches and lazy statics before collecting
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < iterations; ++i) call();
    CALLGRIND_TOGGLE_COLLECT;
    return 0;
  }
  std::cerr << "unknown column '" << column_name << "'\n";
  return 2;
}

void registerBenchmarks(const sy::bench::RowSetup& setup) {
  for (const Column& column : columns()) {
    auto body = [&setup, column](benchmark::State& state) {
      auto guard = setup.enterRowOnThisThread();  // TLS: each benchmark thread enters the row
      std::function<void()> call = column.make(setup);
      for (auto _ : state) call();
      state.SetItemsProcessed(state.iterations());
    };
    benchmark::RegisterBenchmark(column.name.c_str(), body);
  }
  // The multi-threaded row: the same call from 1 and 2 threads; per-call time must not grow.
  Column first = columns()[0];
  benchmark::RegisterBenchmark((first.name + "/threads").c_str(),
                               [&setup, first](benchmark::State& state) {
                                 auto guard = setup.enterRowOnThisThread();
                                 std::function<void()> call = first.make(setup);
                                 for (auto _ : state) call();
                                 state.SetItemsProcessed(state.iterations());
                               })
      ->Threads(1)
      ->Threads(2)
      ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  absl::ParseCommandLine(argc, argv);
  Row row;
  if (!sy::bench::parseRow(absl::GetFlag(FLAGS_row), &row)) {
    std::cerr << "unknown row '" << absl::GetFlag(FLAGS_row) << "'\n";
    return 2;
  }
  sy::bench::RowSetup setup(row);
  if (!absl::GetFlag(FLAGS_callgrind_column).empty()) {
    return runUnderCallgrind(setup, absl::GetFlag(FLAGS_callgrind_column), absl::GetFlag(FLAGS_iterations));
  }
  registerBenchmarks(setup);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
