// The optimized kernels (backends/optimized/) against the portable ones (bench/README.md,
// "Optimized kernels"): each unary function's out= form on 1M contiguous Float elements, and
// softmax / log_softmax of a 256x1024 matrix along its rows, once through
// the portable CPU kernel called directly and once through the dispatcher, which takes the
// optimized kernel because this binary links switchyard::optimized. Run on one thread:
//   build/release/bench/optimized_kernel_bench
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "switchyard/backends/cpu/kernels.h"
#include "switchyard/backends/cpu/reduction_kernels.h"
#include "switchyard/backends/cpu/unary_kernels.h"
#include "switchyard/switchyard.h"

namespace {

using sy::Tensor;
using OutKernel = Tensor& (*)(const Tensor&, Tensor&);
using OutHelper = Tensor& (*)(Tensor&, const Tensor&);

// Inputs in each function's domain, so neither kernel takes a NaN or overflow shortcut.
Tensor inputs(int64_t n, float low, float high) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values) v = uniform(rng);
  return sy::tensor<float>(values, {n});
}

void run(benchmark::State& state, Tensor x, OutKernel portable, OutHelper dispatched) {
  Tensor out = sy::empty(x.sizes());
  const bool optimized = state.range(0) == 1;
  for (auto _ : state) {
    if (optimized) {
      dispatched(out, x);
    } else {
      portable(x, out);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
  state.SetLabel(optimized ? "optimized" : "portable");
}

constexpr int64_t kMillion = 1 << 20;

void BM_AcosOut(benchmark::State& s) { run(s, inputs(kMillion, -1, 1), &sy::cpu::acos_out_cpu, &sy::ops::acos_out); }
void BM_ExpOut(benchmark::State& s) { run(s, inputs(kMillion, -10, 10), &sy::cpu::exp_out_cpu, &sy::ops::exp_out); }
void BM_SigmoidOut(benchmark::State& s) {
  run(s, inputs(kMillion, -10, 10), &sy::cpu::sigmoid_out_cpu, &sy::ops::sigmoid_out);
}
void BM_LogOut(benchmark::State& s) { run(s, inputs(kMillion, 0.01f, 100), &sy::cpu::log_out_cpu, &sy::ops::log_out); }
void BM_SinOut(benchmark::State& s) { run(s, inputs(kMillion, -10, 10), &sy::cpu::sin_out_cpu, &sy::ops::sin_out); }
void BM_CosOut(benchmark::State& s) { run(s, inputs(kMillion, -10, 10), &sy::cpu::cos_out_cpu, &sy::ops::cos_out); }
void BM_TanhOut(benchmark::State& s) { run(s, inputs(kMillion, -5, 5), &sy::cpu::tanh_out_cpu, &sy::ops::tanh_out); }

// softmax and log_softmax of a 256x1024 Float matrix along its rows.
template <bool kLog>
void softmaxBench(benchmark::State& state) {
  Tensor x = sy::ops::reshape(inputs(256 * 1024, -5, 5), {256, 1024});
  Tensor out = sy::empty({256, 1024});
  const bool optimized = state.range(0) == 1;
  for (auto _ : state) {
    if (optimized) {
      kLog ? sy::ops::_log_softmax_out(out, x, 1, false) : sy::ops::_softmax_out(out, x, 1, false);
    } else {
      kLog ? sy::cpu::_log_softmax_out_cpu(x, 1, false, out) : sy::cpu::_softmax_out_cpu(x, 1, false, out);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
  state.SetLabel(optimized ? "optimized" : "portable");
}
void BM_SoftmaxOut(benchmark::State& s) { softmaxBench<false>(s); }
void BM_LogSoftmaxOut(benchmark::State& s) { softmaxBench<true>(s); }

// Arg 0: the portable kernel; arg 1: the optimized kernel through the dispatcher.
BENCHMARK(BM_AcosOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ExpOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SigmoidOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SinOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CosOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TanhOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SoftmaxOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogSoftmaxOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
