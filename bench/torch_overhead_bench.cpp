// The dispatch-overhead experiment against PyTorch's own dispatcher (libtorch, Debian's
// libtorch-dev), with the same rows, columns and command line as overhead_bench, so
// bench/overhead.py can print both side by side. Built only with -DSWITCHYARD_BENCH_LIBTORCH=ON.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/acos_cpu_dispatch.h>
#include <ATen/ops/acos_ops.h>
#include <ATen/ops/empty_cpu_dispatch.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>
#include <valgrind/callgrind.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr c10::DispatchKey kExtraKey = c10::DispatchKey::TESTING_ONLY_GenericMode;
const std::vector<std::string> kRows{"direct", "base", "perop_redispatch", "perop_exclude", "fallthrough", "fallback"};

void noopKernel(const at::Tensor&) {}
TORCH_LIBRARY(bench, m) { m.def("noop(Tensor self) -> ()"); }
TORCH_LIBRARY_IMPL(bench, CPU, m) { m.impl("noop", TORCH_FN(noopKernel)); }

void callNoop(const at::Tensor& self) {
  static const auto op =
      c10::Dispatcher::singleton().findSchemaOrThrow("bench::noop", "").typed<void(const at::Tensor&)>();
  op.call(self);
}

at::Tensor& acosOutRedispatch(c10::DispatchKeySet ks, const at::Tensor& self, at::Tensor& out) {
  return at::_ops::acos_out::redispatch(ks.remove(kExtraKey), self, out);
}
at::Tensor acosRedispatch(c10::DispatchKeySet ks, const at::Tensor& self) {
  return at::_ops::acos::redispatch(ks.remove(kExtraKey), self);
}
at::Tensor& acosOutExclude(const at::Tensor& self, at::Tensor& out) {
  c10::impl::ExcludeDispatchKeyGuard off(kExtraKey);
  return at::acos_out(out, self);
}
at::Tensor acosExclude(const at::Tensor& self) {
  c10::impl::ExcludeDispatchKeyGuard off(kExtraKey);
  return at::acos(self);
}
void redispatchBelowExtraKey(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
  op.redispatchBoxed(ks.remove(kExtraKey), stack);
}

struct RowSetup {
  explicit RowSetup(const std::string& row) : row(row) {
    auto fallthrough = [&] {
      libraries.push_back(std::make_unique<torch::Library>(torch::Library::Impl, "_", kExtraKey, __FILE__, __LINE__));
      libraries.back()->fallback(torch::CppFunction::makeFallthrough());
    };
    if (row == "perop_redispatch" || row == "perop_exclude") {
      libraries.push_back(std::make_unique<torch::Library>(torch::Library::Impl, "aten", kExtraKey, __FILE__, __LINE__));
      if (row == "perop_redispatch") {
        libraries.back()->impl("acos.out", TORCH_FN(acosOutRedispatch));
        libraries.back()->impl("acos", TORCH_FN(acosRedispatch));
      } else {
        libraries.back()->impl("acos.out", TORCH_FN(acosOutExclude));
        libraries.back()->impl("acos", TORCH_FN(acosExclude));
      }
      fallthrough();
    } else if (row == "fallthrough") {
      fallthrough();
    } else if (row == "fallback") {
      libraries.push_back(std::make_unique<torch::Library>(torch::Library::Impl, "_", kExtraKey, __FILE__, __LINE__));
      libraries.back()->fallback(torch::CppFunction::makeFromBoxedFunction<&redispatchBelowExtraKey>());
    }
  }
  // Inference mode (as in the targets table) and the extra key, for the calling thread.
  struct ThreadState {
    explicit ThreadState(bool with_key) {
      if (with_key) include = std::make_unique<c10::impl::IncludeDispatchKeyGuard>(kExtraKey);
    }
    c10::InferenceMode inference;
    std::unique_ptr<c10::impl::IncludeDispatchKeyGuard> include;
  };
  std::unique_ptr<ThreadState> enterRowOnThisThread() const {
    return std::make_unique<ThreadState>(row != "direct" && row != "base");
  }
  std::string row;
  std::vector<std::unique_ptr<torch::Library>> libraries;
};

std::function<void()> makeCall(const std::string& row, const std::string& column) {
  const bool direct = row == "direct";
  const int64_t n = column.find("/64") != std::string::npos ? 64 : 1;
  at::Tensor self = at::full({n}, 0.5);
  if (column.rfind("acos.out", 0) == 0) {
    at::Tensor out = at::empty({n});
    if (direct) return [self, out]() mutable { at::cpu::acos_out(out, self); };
    return [self, out]() mutable { at::acos_out(out, self); };
  }
  if (column.rfind("acos", 0) == 0) {
    if (direct) return [self] { benchmark::DoNotOptimize(at::cpu::acos(self)); };
    return [self] { benchmark::DoNotOptimize(at::acos(self)); };
  }
  if (direct) return [self] { benchmark::DoNotOptimize(&self); noopKernel(self); };
  return [self] { callNoop(self); };
}

std::string flagValue(int argc, char** argv, const char* name, const std::string& fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::string row = flagValue(argc, argv, "row", "base");
  bool known = false;
  for (const auto& r : kRows) known = known || r == row;
  if (!known) {
    std::cerr << "unknown row '" << row << "'\n";
    return 2;
  }
  RowSetup setup(row);
  const std::string column = flagValue(argc, argv, "callgrind_column", "");
  if (!column.empty()) {
    auto state = setup.enterRowOnThisThread();
    std::function<void()> call = makeCall(row, column);
    const int iterations = std::stoi(flagValue(argc, argv, "iterations", "1000"));
    for (int i = 0; i < 100; ++i) call();
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < iterations; ++i) call();
    CALLGRIND_TOGGLE_COLLECT;
    return 0;
  }
  for (std::string name : {"acos.out/1", "acos.out/64", "acos/1", "acos/64", "noop"}) {
    benchmark::RegisterBenchmark(name.c_str(), [&setup, row, name](benchmark::State& state) {
      auto thread_state = setup.enterRowOnThisThread();
      std::function<void()> call = makeCall(row, name);
      for (auto _ : state) call();
    });
  }
  benchmark::RegisterBenchmark("acos.out/1/threads", [&setup, row](benchmark::State& state) {
    auto thread_state = setup.enterRowOnThisThread();
    std::function<void()> call = makeCall(row, "acos.out/1");
    for (auto _ : state) call();
  })->Threads(1)->Threads(2)->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
