// The XNNPACK delegate against the portable kernels (issue 16's table, bench/README.md "XNNPACK"):
// a small CNN (1x3x64x64) and an MLP (784-512-512-10, batch 32), each run
//   eager      through the dispatcher and the portable CPU kernels,
//   program    emitted as a .pte and run by Method::execute on the portable kernels,
//   xnnpack/N  whole in one XNNPACK delegate (preprocess, init once, execute per iteration) on N threads.
//
//   build/release/bench/xnnpack_bench --benchmark_filter=Cnn
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "switchyard/backends/xnnpack/xnnpack_preprocess.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/emit.h"
#include "switchyard/program/method.h"
#include "switchyard/program/program.h"
#include "switchyard/switchyard.h"

namespace {

using sy::Tensor;
namespace ops = sy::ops;

Tensor randomTensor(std::vector<int64_t> sizes, uint32_t seed, float scale = 0.2f) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return sy::tensor<float>(v, sizes);
}

struct Model {
  std::vector<sy::export_::NamedTensor> params;
  std::function<Tensor(const Tensor&)> forward;
  Tensor input;
};

// conv 3->16 3x3 + relu + max_pool 2, conv 16->32 3x3 + relu + max_pool 2, depthwise 3x3 +
// pointwise 1x1 + relu, global average pooling, linear 32->10, softmax.
Model cnn() {
  auto m = std::make_shared<std::vector<Tensor>>(std::vector<Tensor>{
      randomTensor({16, 3, 3, 3}, 1), randomTensor({16}, 2), randomTensor({32, 16, 3, 3}, 3), randomTensor({32}, 4),
      randomTensor({32, 1, 3, 3}, 5), randomTensor({32}, 6), randomTensor({32, 32, 1, 1}, 7), randomTensor({32}, 8),
      randomTensor({10, 32}, 9), randomTensor({10}, 10)});
  const char* names[] = {"c1.w", "c1.b", "c2.w", "c2.b", "dw.w", "dw.b", "pw.w", "pw.b", "fc.w", "fc.b"};
  Model model;
  for (size_t i = 0; i < m->size(); ++i) model.params.push_back({names[i], (*m)[i]});
  model.forward = [m](const Tensor& x) {
    const std::vector<Tensor>& w = *m;
    Tensor h = ops::max_pool2d(ops::relu(ops::conv2d(x, w[0], w[1], {1, 1}, {1, 1})), {2, 2});
    h = ops::max_pool2d(ops::relu(ops::conv2d(h, w[2], w[3], {1, 1}, {1, 1})), {2, 2});
    h = ops::conv2d(h, w[4], w[5], {1, 1}, {1, 1}, {1, 1}, 32);
    h = ops::relu(ops::conv2d(h, w[6], w[7]));
    h = ops::view(ops::mean(h, std::vector<int64_t>{2, 3}, true), {x.size(0), 32});
    return ops::softmax(ops::linear(h, w[8], w[9]), -1);
  };
  model.input = randomTensor({1, 3, 64, 64}, 11, 1.0f);
  return model;
}

Model mlp() {
  auto m = std::make_shared<std::vector<Tensor>>(std::vector<Tensor>{
      randomTensor({512, 784}, 21), randomTensor({512}, 22), randomTensor({512, 512}, 23), randomTensor({512}, 24),
      randomTensor({10, 512}, 25), randomTensor({10}, 26)});
  const char* names[] = {"fc1.w", "fc1.b", "fc2.w", "fc2.b", "fc3.w", "fc3.b"};
  Model model;
  for (size_t i = 0; i < m->size(); ++i) model.params.push_back({names[i], (*m)[i]});
  model.forward = [m](const Tensor& x) {
    const std::vector<Tensor>& w = *m;
    Tensor h = ops::relu(ops::linear(x, w[0], w[1]));
    h = ops::relu(ops::linear(h, w[2], w[3]));
    return ops::linear(h, w[4], w[5]);
  };
  model.input = randomTensor({32, 784}, 27, 1.0f);
  return model;
}

sy::export_::ExportedProgram captured(const Model& m) {
  return sy::export_::capture([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{m.forward(in[0])}; },
                              {m.input}, m.params);
}

void eager(benchmark::State& state, Model (*make)()) {
  const Model m = make();
  for (auto _ : state) benchmark::DoNotOptimize(m.forward(m.input));
}

void program(benchmark::State& state, Model (*make)()) {
  const Model m = make();
  absl::StatusOr<sy::export_::EmittedProgram> file = sy::export_::emitProgram(captured(m));
  if (!file.ok()) return state.SkipWithError(std::string(file.status().message()).c_str());
  absl::StatusOr<sy::Program> p = sy::Program::loadFromBuffer(file->bytes, "bench.pte");
  if (!p.ok()) return state.SkipWithError(std::string(p.status().message()).c_str());
  absl::StatusOr<sy::Method> method = p->load_method("forward");
  if (!method.ok()) return state.SkipWithError(std::string(method.status().message()).c_str());
  for (auto _ : state) {
    if (!method->set_input(0, m.input).ok() || !method->execute().ok()) return state.SkipWithError("execute failed");
  }
}

void xnnpack(benchmark::State& state, Model (*make)()) {
  const Model m = make();
  const sy::export_::ExportedProgram ep = captured(m);
  const std::vector<sy::export_::CompileSpec> specs = {
      sy::export_::CompileSpec::ofString("num_threads", std::to_string(state.range(0)))};
  absl::StatusOr<sy::export_::PreprocessResult> r =
      sy::export_::findBackendDetails(sy::xnnpack::kXnnpackBackendId)->preprocess(ep, specs);
  if (!r.ok()) return state.SkipWithError(std::string(r.status().message()).c_str());
  sy::BackendInterface* backend = sy::get_backend_class(sy::xnnpack::kXnnpackBackendId);
  sy::FreeableBuffer blob(r->processed_bytes.data(), r->processed_bytes.size(), nullptr);
  std::vector<sy::CompileSpec> runtime_specs;
  for (const auto& s : specs) runtime_specs.push_back({s.key, s.value});
  sy::BackendInitContext init{"forward", 0};
  absl::StatusOr<sy::DelegateHandle*> handle = backend->init(init, &blob, runtime_specs);
  if (!handle.ok()) return state.SkipWithError(std::string(handle.status().message()).c_str());
  sy::IValue in(m.input), out(sy::empty(ep.graph().value(ep.graph().outputs()[0]).meta.sizes));
  sy::IValue* args[] = {&in, &out};
  sy::BackendExecutionContext exec{"forward", 0};
  for (auto _ : state) {
    if (!backend->execute(exec, *handle, absl::MakeSpan(args)).ok()) {
      state.SkipWithError("execute failed");
      break;
    }
  }
  backend->destroy(*handle);
}

BENCHMARK_CAPTURE(eager, Cnn, &cnn)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(program, Cnn, &cnn)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xnnpack, Cnn, &cnn)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eager, Mlp, &mlp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(program, Mlp, &mlp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xnnpack, Mlp, &mlp)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
