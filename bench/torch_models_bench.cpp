// Issue 16's two benchmark models in libtorch eager (Debian's libtorch 1.13), the table's column d
// beside xnnpack_bench's (bench/README.md, "XNNPACK delegate"): the same weights and inputs
// (bench_models.h), the same layers, under torch::InferenceMode, on N intra-op threads
// (at::set_num_threads, and OpenBLAS's own count, which at::set_num_threads leaves alone). Each
// row's label shows its first output values, which must match xnnpack_bench's rows.
// Built only with -DSWITCHYARD_BENCH_LIBTORCH=ON.
//
//   build/torch/bench/torch_models_bench --benchmark_min_time=0.5
#include <torch/torch.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_models.h"
#include "torch_threads.h"

namespace {

torch::Tensor tensorOf(const bench_models::Parameter& p) {
  return torch::from_blob(const_cast<float*>(p.values.data()), p.sizes, torch::kFloat).clone();
}

std::vector<torch::Tensor> tensorsOf(const std::vector<bench_models::Parameter>& parameters) {
  std::vector<torch::Tensor> out;
  for (const bench_models::Parameter& p : parameters) out.push_back(tensorOf(p));
  return out;
}

torch::Tensor cnn(const std::vector<torch::Tensor>& w, const torch::Tensor& x) {
  torch::Tensor h = torch::max_pool2d(torch::relu(torch::conv2d(x, w[0], w[1], 1, 1)), 2);
  h = torch::max_pool2d(torch::relu(torch::conv2d(h, w[2], w[3], 1, 1)), 2);
  h = torch::conv2d(h, w[4], w[5], 1, 1, 1, 32);
  h = torch::relu(torch::conv2d(h, w[6], w[7]));
  h = h.mean({2, 3}, /*keepdim=*/true).view({x.size(0), 32});
  return torch::softmax(torch::linear(h, w[8], w[9]), -1);
}

torch::Tensor mlp(const std::vector<torch::Tensor>& w, const torch::Tensor& x) {
  torch::Tensor h = torch::relu(torch::linear(x, w[0], w[1]));
  h = torch::relu(torch::linear(h, w[2], w[3]));
  return torch::linear(h, w[4], w[5]);
}

std::string firstValues(const torch::Tensor& out) {
  const torch::Tensor flat = out.contiguous().view({-1});
  char text[96];
  std::snprintf(text, sizeof(text), "out[0:3]=%.6f,%.6f,%.6f", flat[0].item<float>(), flat[1].item<float>(),
                flat[2].item<float>());
  return text;
}

using Forward = torch::Tensor (*)(const std::vector<torch::Tensor>&, const torch::Tensor&);

void torchEager(benchmark::State& state, Forward forward, std::vector<bench_models::Parameter> (*parameters)(),
                bench_models::Parameter (*input)()) {
  setTorchThreads(static_cast<int>(state.range(0)));
  torch::InferenceMode inference;
  const std::vector<torch::Tensor> w = tensorsOf(parameters());
  const torch::Tensor x = tensorOf(input());
  state.SetLabel(firstValues(forward(w, x)));
  for (auto _ : state) benchmark::DoNotOptimize(forward(w, x));
}

BENCHMARK_CAPTURE(torchEager, Cnn, &cnn, &bench_models::cnnParameters, &bench_models::cnnInput)
    ->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(torchEager, Mlp, &mlp, &bench_models::mlpParameters, &bench_models::mlpInput)
    ->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
