// The optimized kernels (backends/kernels/optimized/) against the portable ones (bench/README.md,
// "Optimized kernels"): each unary function's out= form on 1M contiguous Float elements, and
// softmax / log_softmax of a 256x1024 matrix along its rows, and the cases issue 13 measured
// against libtorch: mm 256, linear (the MLP's first layer, 32x784 by 512x784 plus bias), conv2d
// 1x32x56x56 with 64 3x3 filters (padding 1), and mm 1024; once through the portable CPU kernel
// called directly and once through the dispatcher, which takes the optimized kernel because this
// binary links switchyard::optimized. bench/torch_kernel_bench.cpp runs the same cases in libtorch.
// --sy_threads=N sets sy::set_num_threads (default 1):
//   build/release/bench/optimized_kernel_bench --sy_threads=2 --benchmark_filter=Mm1024
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/linalg_kernels.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/switchyard.h"

namespace {

using sy::Tensor;
using OutKernel = Tensor& (*)(const Tensor&, Tensor&, const sy::KernelContext&);
using OutHelper = Tensor& (*)(Tensor&, const Tensor&);

// Inputs in each function's domain, so neither kernel takes a NaN or overflow shortcut.
Tensor inputs(int64_t n, float low, float high) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values) v = uniform(rng);
  return sy::tensor<float>(values, {n});
}

// The portable kernels are called as their out= operator, `op`.
void run(benchmark::State& state, Tensor x, const char* op, OutKernel portable, OutHelper dispatched) {
  const sy::KernelContext ctx{op};
  Tensor out = sy::empty(x.sizes());
  const bool optimized = state.range(0) == 1;
  for (auto _ : state) {
    if (optimized) {
      dispatched(out, x);
    } else {
      portable(x, out, ctx);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
  state.SetLabel(optimized ? "optimized" : "portable");
}

constexpr int64_t kMillion = 1 << 20;

void BM_AcosOut(benchmark::State& s) {
  run(s, inputs(kMillion, -1, 1), "aten::acos.out", &sy::cpu::acos_out_cpu, &sy::ops::acos_out);
}
void BM_ExpOut(benchmark::State& s) {
  run(s, inputs(kMillion, -10, 10), "aten::exp.out", &sy::cpu::exp_out_cpu, &sy::ops::exp_out);
}
void BM_SigmoidOut(benchmark::State& s) {
  run(s, inputs(kMillion, -10, 10), "aten::sigmoid.out", &sy::cpu::sigmoid_out_cpu, &sy::ops::sigmoid_out);
}
void BM_LogOut(benchmark::State& s) {
  run(s, inputs(kMillion, 0.01f, 100), "aten::log.out", &sy::cpu::log_out_cpu, &sy::ops::log_out);
}
void BM_SinOut(benchmark::State& s) {
  run(s, inputs(kMillion, -10, 10), "aten::sin.out", &sy::cpu::sin_out_cpu, &sy::ops::sin_out);
}
void BM_CosOut(benchmark::State& s) {
  run(s, inputs(kMillion, -10, 10), "aten::cos.out", &sy::cpu::cos_out_cpu, &sy::ops::cos_out);
}
void BM_TanhOut(benchmark::State& s) {
  run(s, inputs(kMillion, -5, 5), "aten::tanh.out", &sy::cpu::tanh_out_cpu, &sy::ops::tanh_out);
}

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
      kLog ? sy::cpu::_log_softmax_out_cpu(x, 1, false, out, {"aten::_log_softmax.out"})
           : sy::cpu::_softmax_out_cpu(x, 1, false, out, {"aten::_softmax.out"});
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
  state.SetLabel(optimized ? "optimized" : "portable");
}
void BM_SoftmaxOut(benchmark::State& s) { softmaxBench<false>(s); }
void BM_LogSoftmaxOut(benchmark::State& s) { softmaxBench<true>(s); }

// sum and mean (the reductions of reduction_ops.cpp): of all 1M floats into a 0-dim out, and of
// each row of a 256x1024 matrix. The portable kernels add in Double, the optimized ones in Float
// blocks (see Note [Float sums add blocks pairwise]).
template <class Portable, class Dispatched>
void reductionBench(benchmark::State& state, const Tensor& x, Portable&& portable, Dispatched&& dispatched) {
  const bool optimized = state.range(0) == 1;
  for (auto _ : state) {
    optimized ? dispatched() : portable();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
  state.SetLabel(optimized ? "optimized" : "portable");
}
void BM_SumOut(benchmark::State& s) {
  Tensor x = inputs(kMillion, -1, 1), out = sy::empty({});
  reductionBench(
      s, x, [&] { sy::cpu::sum_out_cpu(x, std::nullopt, out, {"aten::sum.out"}); }, [&] { sy::ops::sum_out(out, x); });
}
void BM_MeanOut(benchmark::State& s) {
  Tensor x = inputs(kMillion, -1, 1), out = sy::empty({});
  reductionBench(
      s, x, [&] { sy::cpu::mean_dtype_out_cpu(x, std::nullopt, out, {"aten::mean.dtype_out"}); },
      [&] { sy::ops::mean_out(out, x); });
}
void BM_SumRowsOut(benchmark::State& s) {
  Tensor x = sy::ops::reshape(inputs(256 * 1024, -1, 1), {256, 1024}), out = sy::empty({256});
  const std::vector<int64_t> last{1};
  reductionBench(
      s, x, [&] { sy::cpu::sum_IntList_out_cpu(x, last, false, std::nullopt, out, {"aten::sum.IntList_out"}); },
      [&] { sy::ops::sum_out(out, x, last); });
}

// The matrix products and the convolution: `portable` calls the CPU kernel directly (with the
// partial kernels excluded, since the composite linear dispatches to addmm), `dispatched` goes
// through sy::ops (the optimized kernel).
template <class Portable, class Dispatched>
void productBench(benchmark::State& state, Portable&& portable, Dispatched&& dispatched, double flops) {
  const bool optimized = state.range(0) == 1;
  if (optimized) {
    for (auto _ : state) {
      dispatched();
      benchmark::ClobberMemory();
    }
  } else {
    sy::ExcludeDispatchKeyGuard portable_only(sy::DispatchKey::PartialKernels);
    for (auto _ : state) {
      portable();
      benchmark::ClobberMemory();
    }
  }
  state.counters["GFLOPS"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(optimized ? "optimized" : "portable");
}

void mmBench(benchmark::State& s, int64_t n) {
  Tensor a = sy::ops::reshape(inputs(n * n, -1, 1), {n, n}), b = sy::ops::reshape(inputs(n * n, -1, 1), {n, n});
  Tensor out = sy::empty({n, n});
  productBench(
      s, [&] { sy::cpu::mm_out_cpu(a, b, out, {"aten::mm.out"}); }, [&] { sy::ops::mm_out(out, a, b); },
      2.0 * n * n * n);
}
void BM_Mm256(benchmark::State& s) { mmBench(s, 256); }
void BM_Mm1024(benchmark::State& s) { mmBench(s, 1024); }

void BM_Linear(benchmark::State& s) {
  Tensor input = sy::ops::reshape(inputs(32 * 784, -1, 1), {32, 784});
  Tensor weight = sy::ops::reshape(inputs(512 * 784, -0.05f, 0.05f), {512, 784});
  Tensor bias = inputs(512, -0.1f, 0.1f);
  Tensor out = sy::empty({32, 512});
  productBench(
      s, [&] { sy::cpu::linear_out_composite(input, weight, bias, out, {"aten::linear.out"}); },
      [&] { sy::ops::linear_out(out, input, weight, bias); }, 2.0 * 32 * 784 * 512);
}

void BM_Conv2d(benchmark::State& s) {
  Tensor input = sy::ops::reshape(inputs(32 * 56 * 56, -1, 1), {1, 32, 56, 56});
  Tensor weight = sy::ops::reshape(inputs(64 * 32 * 9, -0.1f, 0.1f), {64, 32, 3, 3});
  Tensor out = sy::empty({1, 64, 56, 56});
  productBench(
      s,
      [&] {
        sy::cpu::convolution_out_cpu(input, weight, std::nullopt, {1}, {1}, {1}, false, {0}, 1, out,
                                     {"aten::convolution.out"});
      },
      [&] { sy::ops::convolution_out(out, input, weight, std::nullopt, {1}, {1}, {1}, false, {0}, 1); },
      2.0 * 64 * 32 * 9 * 56 * 56);
}

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
BENCHMARK(BM_SumOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MeanOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SumRowsOut)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Mm256)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Linear)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv2d)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Mm1024)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

// --sy_threads=N (default 1) before Google Benchmark reads the other flags.
int main(int argc, char** argv) {
  int threads = 1;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--sy_threads=", 13) == 0) {
      threads = std::atoi(argv[i] + 13);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  sy::set_num_threads(threads);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("sy_threads", std::to_string(sy::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
