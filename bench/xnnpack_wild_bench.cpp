// The published XNNPACK programs (../shared/programs/wild/, bench/README.md "XNNPACK programs from
// the wild"): the convolution (conv.pte: 1x3x16x16, 3x3 convolution to 8 channels, fused ReLU, in
// ExecuTorch's blob between two transposes) and the linear layer (lin129.pte: 129 -> 64), each run
//   xnnpack/N  as the program, its delegate on XNNPACK (and the host steps) with N threads,
//   eager/N    as the same graph through sy::ops, with the weights the blob holds: the portable
//              kernels, or in xnnpack_wild_optimized_bench (built with SY_BENCH_OPTIMIZED, linked
//              with switchyard::optimized) the optimized kernels on N threads.
// Each row's label shows its first output values, to check both compute the same.
//
//   build/release/bench/xnnpack_wild_bench
//   SWITCHYARD_PROGRAMS_DIR=/path/to/programs build/release/bench/xnnpack_wild_bench
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/program/program.h"
#include "switchyard/program/schema/program_generated.h"
#include "switchyard/switchyard.h"
#ifdef SY_BENCH_OPTIMIZED
#include "switchyard/backends/kernels/optimized/threads.h"
#endif

namespace {

using sy::Tensor;
namespace ops = sy::ops;
namespace xnn = sy::xnnpack;

std::string programPath(const std::string& file) {
  const char* env = std::getenv("SWITCHYARD_PROGRAMS_DIR");
#ifdef SWITCHYARD_PROGRAMS_DIR
  const std::string dir = env != nullptr ? env : SWITCHYARD_PROGRAMS_DIR;
#else
  const std::string dir = env != nullptr ? env : "../shared/programs";
#endif
  return dir + "/wild/" + file;
}

// Named data from a program file, for decoding its delegate's weights.
class FileNamedData final : public sy::NamedDataMap {
 public:
  std::map<std::string, std::vector<uint8_t>, std::less<>> entries;
  absl::StatusOr<sy::FreeableBuffer> get_data(std::string_view key) const override {
    auto it = entries.find(key);
    if (it == entries.end()) return absl::NotFoundError(std::string(key));
    return sy::FreeableBuffer(it->second.data(), it->second.size(), nullptr);
  }
  size_t num_keys() const override { return entries.size(); }
  absl::StatusOr<std::string_view> get_key(size_t) const override { return absl::UnimplementedError("not listed"); }
};

struct WildGraph {
  std::vector<uint8_t> file;
  FileNamedData named;
  std::vector<uint8_t> blob;
  std::optional<xnn::XnnGraph> graph;
};

// The program's first delegate, decoded (nullopt when the file is absent or has none).
std::unique_ptr<WildGraph> decode(const std::string& path) {
  auto w = std::make_unique<WildGraph>();
  std::ifstream in(path, std::ios::binary);
  w->file.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (w->file.size() < 32 || std::memcmp(w->file.data() + 8, "eh00", 4) != 0) return nullptr;
  uint64_t base = 0;
  std::memcpy(&base, w->file.data() + 24, 8);
  const sy::pte::Program* p = sy::pte::GetProgram(w->file.data());
  auto segment = [&](uint32_t i) {
    const sy::pte::DataSegment* s = p->segments()->Get(i);
    return std::vector<uint8_t>(w->file.begin() + static_cast<long>(base + s->offset()),
                                w->file.begin() + static_cast<long>(base + s->offset() + s->size()));
  };
  w->blob = segment(p->execution_plan()->Get(0)->delegates()->Get(0)->processed()->index());
  if (p->named_data() != nullptr) {
    for (const sy::pte::NamedData* n : *p->named_data()) w->named.entries[n->key()->str()] = segment(n->segment_index());
  }
  absl::StatusOr<xnn::XnnGraph> g = xnn::readXnnGraph(w->blob, &w->named);
  if (!g.ok()) return nullptr;
  w->graph = *std::move(g);
  return w;
}

Tensor constantOf(const xnn::XnnGraph& g, uint32_t v) {
  const xnn::XnnValue& value = g.values[v];
  std::vector<float> data(xnn::numelOf(value.dims));
  std::memcpy(data.data(), value.data, data.size() * sizeof(float));
  return sy::tensor<float>(data, std::vector<int64_t>(value.dims.begin(), value.dims.end()));
}

// The delegate's convolution or fully connected layer through sy::ops, NCHW in and out.
std::function<Tensor(const Tensor&)> eagerOf(const xnn::XnnGraph& g) {
  for (const xnn::XnnNode& n : g.nodes) {
    if (n.kind == xnn::NodeKind::Conv2d) {
      const Tensor w = ops::contiguous(ops::permute(constantOf(g, n.inputs[1]), {0, 3, 1, 2}));  // OHWI -> OIHW
      const Tensor b = constantOf(g, n.inputs[2]);
      const xnn::XnnNode::Window win = n.window;
      const bool relu = n.output_min == 0;
      return [w, b, win, relu](const Tensor& x) {
        Tensor y = ops::conv2d(x, w, b, {win.stride_h, win.stride_w}, {win.pad_top, win.pad_left});
        return relu ? ops::relu(y) : y;
      };
    }
    if (n.kind == xnn::NodeKind::FullyConnected) {
      const Tensor w = constantOf(g, n.inputs[1]), b = constantOf(g, n.inputs[2]);
      return [w, b](const Tensor& x) { return ops::linear(x, w, b); };
    }
  }
  return nullptr;
}

std::string firstValues(const Tensor& out) {
  const Tensor dense = ops::contiguous(out);
  char text[96];
  std::snprintf(text, sizeof(text), "out[0:3]=%.6f,%.6f,%.6f", dense.data_ptr<float>()[0], dense.data_ptr<float>()[1],
                dense.data_ptr<float>()[2]);
  return text;
}

Tensor inputOf(const sy::Program& program) {
  const sy::MethodMeta meta = *program.method_meta("forward");
  const std::vector<int64_t>& sizes = meta.inputs[0].sizes;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<float>((i * 7919) % 200) / 100.0f - 1.0f;
  return sy::tensor<float>(values, sizes);
}

void xnnpackRow(benchmark::State& state, const char* file) {
  absl::StatusOr<sy::Program> program = sy::Program::load(programPath(file));
  if (!program.ok()) return state.SkipWithError(std::string(program.status().message()).c_str());
  sy::MethodOptions options;
  options.backend_options["XnnpackBackend"] = {{"num_threads", std::to_string(state.range(0))}};
  absl::StatusOr<sy::Method> m = program->load_method("forward", options);
  if (!m.ok()) return state.SkipWithError(std::string(m.status().message()).c_str());
  const Tensor x = inputOf(*program);
  for (auto _ : state) {
    if (!m->set_input(0, x).ok() || !m->execute().ok()) return state.SkipWithError("execute failed");
  }
  state.SetLabel(firstValues(m->get_output(0).toTensor()));
}

void eagerRow(benchmark::State& state, const char* file) {
#ifdef SY_BENCH_OPTIMIZED
  sy::set_num_threads(static_cast<int>(state.range(0)));
#endif
  std::unique_ptr<WildGraph> w = decode(programPath(file));
  absl::StatusOr<sy::Program> program = sy::Program::load(programPath(file));
  if (w == nullptr || !program.ok()) return state.SkipWithError("the program is absent or not an XNNPACK program");
  const std::function<Tensor(const Tensor&)> forward = eagerOf(*w->graph);
  if (!forward) return state.SkipWithError("no convolution or fully connected node");
  const Tensor x = inputOf(*program);
  state.SetLabel(firstValues(forward(x)));
  for (auto _ : state) benchmark::DoNotOptimize(forward(x));
}

#ifdef SY_BENCH_OPTIMIZED
#define SY_WILD_KERNEL_THREADS Arg(1)->Arg(2)
#else
#define SY_WILD_KERNEL_THREADS Arg(1)
#endif
BENCHMARK_CAPTURE(eagerRow, Conv, "djl-executorch-engine__conv.pte")->SY_WILD_KERNEL_THREADS->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(xnnpackRow, Conv, "djl-executorch-engine__conv.pte")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(eagerRow, Lin129, "djl-executorch-engine__lin129.pte")->SY_WILD_KERNEL_THREADS->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(xnnpackRow, Lin129, "djl-executorch-engine__lin129.pte")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
