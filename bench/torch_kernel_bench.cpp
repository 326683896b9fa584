// optimized_kernel_bench's cases in libtorch eager (Debian's libtorch 1.13, whose matrix products
// run on OpenBLAS here), for the side-by-side table in bench/README.md ("Optimized kernels"): the
// same sizes and input ranges, out= forms where libtorch has them (conv2d is functional: its
// output allocation is under 1% of its time), under torch::InferenceMode. Arg: the thread count
// (at::set_num_threads and OpenBLAS's own). Built only with -DSWITCHYARD_BENCH_LIBTORCH=ON.
//
//   build/torch/bench/torch_kernel_bench --benchmark_filter=Mm
#include <torch/torch.h>

#include <benchmark/benchmark.h>

#include "torch_threads.h"

namespace {

torch::Tensor uniform(std::vector<int64_t> sizes, double low, double high) {
  torch::manual_seed(42);
  return torch::rand(sizes) * (high - low) + low;
}

template <class Fn>
void timed(benchmark::State& state, Fn&& fn) {
  setTorchThreads(static_cast<int>(state.range(0)));
  torch::InferenceMode inference;
  for (auto _ : state) {
    fn();
    benchmark::ClobberMemory();
  }
}

constexpr int64_t kMillion = 1 << 20;

void BM_TorchAcosOut(benchmark::State& s) {
  torch::Tensor x = uniform({kMillion}, -1, 1), out = torch::empty_like(x);
  timed(s, [&] { torch::acos_out(out, x); });
}
void BM_TorchExpOut(benchmark::State& s) {
  torch::Tensor x = uniform({kMillion}, -10, 10), out = torch::empty_like(x);
  timed(s, [&] { torch::exp_out(out, x); });
}
void BM_TorchSigmoidOut(benchmark::State& s) {
  torch::Tensor x = uniform({kMillion}, -10, 10), out = torch::empty_like(x);
  timed(s, [&] { torch::sigmoid_out(out, x); });
}
void BM_TorchSoftmaxOut(benchmark::State& s) {
  torch::Tensor x = uniform({256, 1024}, -5, 5), out = torch::empty_like(x);
  timed(s, [&] { at::_softmax_out(out, x, 1, false); });
}
// sum and mean of all 1M floats (dim 0 of the 1-d tensor: libtorch 1.13 has no sum.out without a
// dim list), and sum of each row of a 256x1024 matrix.
void BM_TorchSumOut(benchmark::State& s) {
  torch::Tensor x = uniform({kMillion}, -1, 1), out = torch::empty({});
  timed(s, [&] { at::sum_out(out, x, {0}); });
}
void BM_TorchMeanOut(benchmark::State& s) {
  torch::Tensor x = uniform({kMillion}, -1, 1), out = torch::empty({});
  timed(s, [&] { at::mean_out(out, x, {0}); });
}
void BM_TorchSumRowsOut(benchmark::State& s) {
  torch::Tensor x = uniform({256, 1024}, -1, 1), out = torch::empty({256});
  timed(s, [&] { at::sum_out(out, x, {1}); });
}
void torchMm(benchmark::State& s, int64_t n) {
  torch::Tensor a = uniform({n, n}, -1, 1), b = uniform({n, n}, -1, 1), out = torch::empty({n, n});
  timed(s, [&] { torch::mm_out(out, a, b); });
}
void BM_TorchMm256(benchmark::State& s) { torchMm(s, 256); }
void BM_TorchMm1024(benchmark::State& s) { torchMm(s, 1024); }
void BM_TorchLinear(benchmark::State& s) {
  torch::Tensor input = uniform({32, 784}, -1, 1), weight = uniform({512, 784}, -0.05, 0.05);
  torch::Tensor bias = uniform({512}, -0.1, 0.1), out = torch::empty({32, 512});
  timed(s, [&] { at::linear_out(out, input, weight, bias); });
}
void BM_TorchConv2d(benchmark::State& s) {
  torch::Tensor input = uniform({1, 32, 56, 56}, -1, 1), weight = uniform({64, 32, 3, 3}, -0.1, 0.1);
  timed(s, [&] { benchmark::DoNotOptimize(torch::conv2d(input, weight, {}, 1, 1)); });
}

BENCHMARK(BM_TorchAcosOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchExpOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchSigmoidOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchSoftmaxOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchSumOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchMeanOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchSumRowsOut)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchMm256)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchLinear)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchConv2d)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TorchMm1024)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
