// Portable CPU kernel speed (bench/README.md, "Kernels"): add on a million floats, mm 256x256,
// conv2d on a 1x16x32x32 input with sixteen 3x3 filters. Run: build/release/bench/kernel_bench
#include <benchmark/benchmark.h>

#include "switchyard/switchyard.h"

namespace {

using sy::Tensor;

void BM_AddOut(benchmark::State& state) {
  const int64_t n = state.range(0);
  Tensor a = sy::full({n}, 1.5), b = sy::full({n}, 2.5), out = sy::empty({n});
  for (auto _ : state) sy::ops::add_out(out, a, b);
  state.SetBytesProcessed(state.iterations() * n * 3 * sizeof(float));
}
BENCHMARK(BM_AddOut)->Arg(1 << 10)->Arg(1 << 20);

void BM_Mm(benchmark::State& state) {
  const int64_t n = state.range(0);
  Tensor a = sy::full({n, n}, 0.5), b = sy::full({n, n}, 0.25);
  for (auto _ : state) benchmark::DoNotOptimize(sy::ops::mm(a, b));
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Mm)->Arg(256);

void BM_Conv2d(benchmark::State& state) {
  Tensor input = sy::full({1, 16, 32, 32}, 0.5), weight = sy::full({16, 16, 3, 3}, 0.1);
  for (auto _ : state) benchmark::DoNotOptimize(sy::ops::conv2d(input, weight, std::nullopt, {1, 1}, {1, 1}));
  const double flops = 2.0 * 16 * 16 * 9 * 32 * 32;
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Conv2d);

}  // namespace

BENCHMARK_MAIN();
