// The XNNPACK delegate against the portable kernels (issue 16's table, bench/README.md "XNNPACK"):
// a small CNN (1x3x64x64) and an MLP (784-512-512-10, batch 32), each run
//   eager      through the dispatcher and the portable CPU kernels,
//   program    emitted as a .pte and run by Method::execute on the portable kernels,
//   xnnpack/N  whole in one XNNPACK delegate (preprocess, init once, execute per iteration) on N threads.
// The weights and inputs come from bench_models.h, shared with torch_models_bench (libtorch eager,
// the table's column d); each row's label shows its first output values, to compare across the two.
//
//   build/release/bench/xnnpack_bench --benchmark_filter=Cnn
//
// models_optimized_bench is this file built with SY_BENCH_OPTIMIZED and linked with
// switchyard::optimized: its eager/N and program/N rows run the same models on the optimized
// kernels (OpenBLAS products and convolution, SLEEF math) with sy::set_num_threads(N), N = 1, 2.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_preprocess.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/emit.h"
#include "switchyard/program/method.h"
#include "switchyard/program/program.h"
#include "switchyard/switchyard.h"
#include "bench_models.h"
#ifdef SY_BENCH_OPTIMIZED
#include "switchyard/backends/kernels/optimized/threads.h"
#endif

namespace {

using sy::Tensor;
namespace ops = sy::ops;

Tensor tensorOf(const bench_models::Parameter& p) { return sy::tensor<float>(p.values, p.sizes); }

struct Model {
  std::vector<sy::export_::NamedTensor> params;
  std::function<Tensor(const Tensor&)> forward;
  Tensor input;
};

Model modelOf(const std::vector<bench_models::Parameter>& parameters, const bench_models::Parameter& input,
              std::function<Tensor(const std::vector<Tensor>&, const Tensor&)> forward) {
  auto weights = std::make_shared<std::vector<Tensor>>();
  Model model;
  for (const bench_models::Parameter& p : parameters) {
    weights->push_back(tensorOf(p));
    model.params.push_back({p.name, weights->back()});
  }
  model.forward = [weights, forward](const Tensor& x) { return forward(*weights, x); };
  model.input = tensorOf(input);
  return model;
}

// The models of bench_models.h, written with sy::ops.
Model cnn() {
  return modelOf(bench_models::cnnParameters(), bench_models::cnnInput(), [](const std::vector<Tensor>& w, const Tensor& x) {
    Tensor h = ops::max_pool2d(ops::relu(ops::conv2d(x, w[0], w[1], {1, 1}, {1, 1})), {2, 2});
    h = ops::max_pool2d(ops::relu(ops::conv2d(h, w[2], w[3], {1, 1}, {1, 1})), {2, 2});
    h = ops::conv2d(h, w[4], w[5], {1, 1}, {1, 1}, {1, 1}, 32);
    h = ops::relu(ops::conv2d(h, w[6], w[7]));
    h = ops::view(ops::mean(h, std::vector<int64_t>{2, 3}, true), {x.size(0), 32});
    return ops::softmax(ops::linear(h, w[8], w[9]), -1);
  });
}

Model mlp() {
  return modelOf(bench_models::mlpParameters(), bench_models::mlpInput(), [](const std::vector<Tensor>& w, const Tensor& x) {
    Tensor h = ops::relu(ops::linear(x, w[0], w[1]));
    h = ops::relu(ops::linear(h, w[2], w[3]));
    return ops::linear(h, w[4], w[5]);
  });
}

// The first output values, shown as a row's label so the libtorch rows (torch_models_bench) can
// be checked to compute the same model.
std::string firstValues(const Tensor& out) {
  const Tensor dense = out.is_contiguous() ? out : ops::clone(out);
  char text[96];
  std::snprintf(text, sizeof(text), "out[0:3]=%.6f,%.6f,%.6f", dense.data_ptr<float>()[0], dense.data_ptr<float>()[1],
                dense.data_ptr<float>()[2]);
  return text;
}

sy::export_::ExportedProgram captured(const Model& m) {
  return sy::export_::capture([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{m.forward(in[0])}; },
                              {m.input}, m.params);
}

// The optimized kernels' thread count, from the row's argument; the portable kernels use one thread.
void useThreadsOf(const benchmark::State& state) {
#ifdef SY_BENCH_OPTIMIZED
  sy::set_num_threads(static_cast<int>(state.range(0)));
#endif
}

void eager(benchmark::State& state, Model (*make)()) {
  useThreadsOf(state);
  const Model m = make();
  state.SetLabel(firstValues(m.forward(m.input)));
  for (auto _ : state) benchmark::DoNotOptimize(m.forward(m.input));
}

void program(benchmark::State& state, Model (*make)()) {
  useThreadsOf(state);
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

// What preprocess put in the program's named data (the weights), as the delegate's init sees it.
class BenchNamedData final : public sy::NamedDataMap {
 public:
  explicit BenchNamedData(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& entries) : entries_(entries) {}
  absl::StatusOr<sy::FreeableBuffer> get_data(std::string_view key) const override {
    for (const auto& [k, bytes] : entries_) {
      if (k == key) return sy::FreeableBuffer(bytes.data(), bytes.size(), nullptr);
    }
    return absl::NotFoundError(std::string(key));
  }
  size_t num_keys() const override { return entries_.size(); }
  absl::StatusOr<std::string_view> get_key(size_t index) const override { return std::string_view(entries_.at(index).first); }

 private:
  const std::vector<std::pair<std::string, std::vector<uint8_t>>>& entries_;
};

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
  BenchNamedData named(r->named_data);
  sy::BackendInitContext init{"forward", 0, &named};
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
  state.SetLabel(firstValues(out.toTensor()));
  backend->destroy(*handle);
}

// eager and program rows at 1 and 2 threads where the kernels take a thread count.
#ifdef SY_BENCH_OPTIMIZED
#define SY_KERNEL_THREADS Arg(1)->Arg(2)
#else
#define SY_KERNEL_THREADS Arg(1)
#endif
BENCHMARK_CAPTURE(eager, Cnn, &cnn)->SY_KERNEL_THREADS->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(program, Cnn, &cnn)->SY_KERNEL_THREADS->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xnnpack, Cnn, &cnn)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eager, Mlp, &mlp)->SY_KERNEL_THREADS->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(program, Mlp, &mlp)->SY_KERNEL_THREADS->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xnnpack, Mlp, &mlp)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
