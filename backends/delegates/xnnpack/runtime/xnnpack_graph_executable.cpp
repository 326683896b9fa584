// Making a GraphExecutable: placing nodes, giving values their buffers, creating the XNNPACK
// runtimes and host steps. See Note [How an XNNPACK delegate runs on Debian's XNNPACK].
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph_executable.h"

#include <xnnpack.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_support.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

std::atomic<size_t> live_graph_executables{0};

constexpr int kPlacementRounds = 3;
// The float copies host steps make of values stored in other datatypes, all together.
constexpr uint64_t kMaxHostFloatBytes = uint64_t{1} << 34;

// True when input `k` of `n` is a weight XNNPACK packs into its own memory (and so never reads
// past): a convolution's or fully connected node's filter and bias.
bool packedWeight(const XnnNode& n, size_t k) {
  const bool weighted = n.kind == NodeKind::FullyConnected || n.kind == NodeKind::Conv2d ||
                        n.kind == NodeKind::DepthwiseConv2d || n.kind == NodeKind::ConvTranspose2d;
  return weighted && k >= 1;
}

}  // namespace

GraphExecutable::GraphExecutable(XnnGraph graph) : g_(std::move(graph)) { ++live_graph_executables; }

GraphExecutable::~GraphExecutable() {
  runtimes_.clear();
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
  --live_graph_executables;
}

size_t GraphExecutable::live() { return live_graph_executables.load(); }

absl::StatusOr<std::unique_ptr<GraphExecutable>> GraphExecutable::create(XnnGraph graph, size_t num_threads, bool host_only) {
  std::unique_ptr<GraphExecutable> e(new GraphExecutable(std::move(graph)));
  if (absl::Status s = e->place(num_threads, host_only); !s.ok()) return s;
  return e;
}

absl::Status GraphExecutable::place(size_t num_threads, bool host_only) {
  const size_t num_values = g_.values.size(), num_nodes = g_.nodes.size();
  dims_.resize(num_values);
  for (size_t v = 0; v < num_values; ++v) dims_[v] = g_.values[v].dims;
  home_.assign(num_values, nullptr);
  rows_.resize(num_values);
  is_index_.assign(num_values, false);
  constants_.assign(num_values, nullptr);
  std::vector<bool> read_past(num_values, false);
  for (const XnnNode& n : g_.nodes) {
    if (n.kind == NodeKind::ArgMaxPooling2d) is_index_[n.outputs[1]] = true;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      if (n.inputs[k] != kNoValue && !packedWeight(n, k)) read_past[n.inputs[k]] = true;
    }
  }
  for (size_t v = 0; v < num_values; ++v) {
    const XnnValue& value = g_.values[v];
    if (!value.isConstant()) continue;
    constants_[v] = value.data;
    if (read_past[v]) {  // XNNPACK may read up to XNN_EXTRA_BYTES past a constant it does not pack
      auto copy = std::make_unique<uint8_t[]>(value.data_size + XNN_EXTRA_BYTES);
      std::memcpy(copy.get(), value.data, value.data_size);
      constants_[v] = copy.get();
      padded_constants_.push_back(std::move(copy));
    }
  }
  for (uint32_t v = 0; v < num_values; ++v) {
    if (is_index_[v] && g_.values[v].datatype != Datatype::Fp32 && g_.values[v].datatype != Datatype::Int32) {
      return absl::InvalidArgumentError(sy::str("malformed XNNPACK blob: value ", g_.values[v].id, " holds argmax indices but is ",
                                                datatypeName(g_.values[v].datatype)));
    }
  }
  on_host_.assign(num_nodes, false);
  host_reason_.assign(num_nodes, "");
  for (size_t k = 0; k < num_nodes; ++k) {
    host_reason_[k] = host_only ? "the run-time option placement=host" : hostReason(g_, g_.nodes[k]);
    on_host_[k] = !host_reason_[k].empty();
  }
  if (num_threads > 1) {
    pool_ = pthreadpool_create(num_threads);
    if (pool_ == nullptr) return absl::ResourceExhaustedError("pthreadpool_create failed");
  }
  return settle();
}

// build() until no runtime refuses a node (See Note [How an XNNPACK delegate runs on Debian's
// XNNPACK]).
absl::Status GraphExecutable::settle() {
  for (int round = 0;; ++round) {
    absl::Status s = build();
    if (s.ok() || !absl::IsAborted(s)) return s;  // Aborted: some nodes moved to the host; again
    if (round + 1 == kPlacementRounds) {
      for (size_t k = 0; k < g_.nodes.size(); ++k) {
        if (!on_host_[k]) on_host_[k] = true, host_reason_[k] = "XNNPACK refused its runtime";
      }
    }
  }
}

// Creates one runtime for `nodes`, binding the values that have homes. A probe (one node tried
// alone) binds every operand that is not a constant, to scratch buffers of its own.
absl::Status GraphExecutable::runtimeFor(absl::Span<const uint32_t> nodes, std::unique_ptr<SubgraphRuntime>& out,
                                         size_t* refused, bool probe) {
  std::vector<uint32_t> touched;
  auto touch = [&](uint32_t v) {
    if (v != kNoValue && !g_.values[v].isConstant() && (probe || home_[v] != nullptr)) touched.push_back(v);
  };
  for (uint32_t k : nodes) {
    for (uint32_t v : g_.nodes[k].inputs) touch(v);
    for (uint32_t v : g_.nodes[k].outputs) touch(v);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  std::vector<SubgraphRuntime::External> externals;
  std::vector<std::unique_ptr<uint8_t, void (*)(void*)>> scratch;
  for (uint32_t v : touched) {
    if (probe) {  // calloc: never touched, so a large value costs nothing
      scratch.emplace_back(static_cast<uint8_t*>(std::calloc(storageBytes(g_.values[v].datatype, dims_[v]) + XNN_EXTRA_BYTES, 1)),
                           &std::free);
      if (scratch.back() == nullptr) return absl::ResourceExhaustedError(sy::str("cannot allocate a probe of value ", g_.values[v].id));
    }
    externals.push_back({v, probe ? scratch.back().get() : home_[v]});
  }
  absl::StatusOr<std::unique_ptr<SubgraphRuntime>> r =
      SubgraphRuntime::create(g_, dims_, nodes, constants_, externals, pool_, refused);
  if (!r.ok()) return r.status();
  if (!probe) out = *std::move(r);
  return absl::OkStatus();
}

absl::Status GraphExecutable::build() {
  const size_t num_nodes = g_.nodes.size(), num_values = g_.values.size();
  runtimes_.clear();
  runtime_nodes_.clear();
  host_steps_.clear();
  steps_.clear();
  host_float_bytes_ = 0;
  // Segments: runs of consecutive XNNPACK nodes.
  std::vector<int64_t> segment_of(num_nodes, -1);
  for (size_t k = 0; k < num_nodes; ++k) {
    if (on_host_[k]) continue;
    if (k == 0 || on_host_[k - 1]) runtime_nodes_.emplace_back();
    segment_of[k] = static_cast<int64_t>(runtime_nodes_.size() - 1);
    runtime_nodes_.back().push_back(static_cast<uint32_t>(k));
  }
  // What an event tracer calls each XNNPACK runtime's step (a host step goes by its node's debug handle).
  runtime_event_names_.clear();
  for (size_t r = 0; r < runtime_nodes_.size(); ++r) {
    const std::vector<uint32_t>& nodes = runtime_nodes_[r];
    runtime_event_names_.push_back(nodes.size() == 1 ? sy::str("XNNPACK runtime ", r, " (node ", nodes[0], ")")
                                                     : sy::str("XNNPACK runtime ", r, " (nodes ", nodes.front(), "-",
                                                               nodes.back(), ")"));
  }
  // Homes. See Note [How an XNNPACK delegate runs on Debian's XNNPACK].
  needs_home_.assign(num_values, false);
  std::vector<int64_t> made_in(num_values, -1);
  for (size_t v = 0; v < num_values; ++v) needs_home_[v] = g_.values[v].isExternal();
  std::vector<bool> read(num_values, false);
  for (size_t k = 0; k < num_nodes; ++k) {
    const XnnNode& n = g_.nodes[k];
    for (uint32_t v : n.inputs) {
      if (v == kNoValue || g_.values[v].isConstant()) continue;
      read[v] = true;
      if (on_host_[k] || made_in[v] != segment_of[k]) needs_home_[v] = true;
    }
    for (uint32_t v : n.outputs) {
      made_in[v] = segment_of[k];
      if (on_host_[k]) needs_home_[v] = true;
    }
  }
  // Debian's XNNPACK gives no memory to an internal value nothing reads, and its operator then
  // asserts on the null output: such a result is bound to a home of its own.
  for (size_t v = 0; v < num_values; ++v) {
    if (made_in[v] >= 0 && !read[v]) needs_home_[v] = true;
  }
  for (size_t v = 0; v < num_values; ++v) {
    if (!needs_home_[v] || home_[v] != nullptr) continue;
    const XnnValue& value = g_.values[v];
    const size_t bytes = storageBytes(value.datatype, value.dims) + XNN_EXTRA_BYTES;
    // calloc: pages of a large buffer cost nothing until touched.
    buffers_.emplace_back(static_cast<uint8_t*>(std::calloc(bytes, 1)), &std::free);
    if (buffers_.back() == nullptr) {
      return absl::ResourceExhaustedError(sy::str("cannot allocate ", bytes, " bytes for value ", value.id));
    }
    home_[v] = buffers_.back().get();
    if (value.datatype == Datatype::QDInt8) rows_[v].reserve(dynamicRows(value, value.dims));
  }
  // Runtimes; refused nodes move to the host.
  bool moved = false;
  runtimes_.resize(runtime_nodes_.size());
  for (size_t r = 0; r < runtime_nodes_.size(); ++r) {
    const std::vector<uint32_t>& nodes = runtime_nodes_[r];
    size_t refused = SIZE_MAX;
    absl::Status s = runtimeFor(nodes, runtimes_[r], &refused, false);
    if (s.ok()) continue;
    if (refused == SIZE_MAX) return s;
    moved = true;
    if (refused < nodes.size()) {
      on_host_[nodes[refused]] = true;
      host_reason_[nodes[refused]] = sy::str("XNNPACK refused it (", s.message(), ")");
      continue;
    }
    // The runtime as a whole: try each node alone; those XNNPACK refuses alone move.
    size_t alone_refused = 0;
    for (uint32_t k : nodes) {
      std::unique_ptr<SubgraphRuntime> probe;
      size_t why = SIZE_MAX;
      const uint32_t one[1] = {k};
      if (absl::Status p = runtimeFor(one, probe, &why, true); !p.ok()) {
        on_host_[k] = true, ++alone_refused;
        host_reason_[k] = sy::str("XNNPACK refused it (", p.message(), ")");
      }
    }
    if (alone_refused == 0) {
      for (uint32_t k : nodes) on_host_[k] = true, host_reason_[k] = sy::str("XNNPACK refused its runtime (", s.message(), ")");
    }
  }
  if (moved) return absl::AbortedError("nodes moved to the host");
  host_steps_.reserve(num_nodes);
  for (size_t k = 0, r = 0; k < num_nodes; ++k) {
    if (!on_host_[k]) {
      if (k == 0 || on_host_[k - 1]) steps_.push_back({true, r++});
      continue;
    }
    host_steps_.emplace_back();
    if (absl::Status s = makeHostStep(static_cast<uint32_t>(k), host_steps_.back()); !s.ok()) return s;
    steps_.push_back({false, host_steps_.size() - 1});
  }
  return absl::OkStatus();
}

absl::Status GraphExecutable::makeHostStep(uint32_t node, HostStep& step) {
  const XnnNode& n = g_.nodes[node];
  step.node = node;
  std::vector<Tensor> in, out;
  auto operand = [&](uint32_t v, bool output, size_t position) -> absl::Status {
    Operand o;
    o.value = v;
    if (v == kNoValue) {
      in.emplace_back();
      step.inputs.push_back(std::move(o));
      return absl::OkStatus();
    }
    const XnnValue& value = g_.values[v];
    if (is_index_[v] && !(output && position == 1)) {
      return absl::UnimplementedError(sy::str("node ", node, " (", nodeKindName(n.kind),
                                              ") reads the indices of an argmax pooling; only a delegate output can"));
    }
    void* stored = value.isConstant() ? const_cast<void*>(static_cast<const void*>(value.data)) : home_[v];
    if (is_index_[v]) {
      o.view = tensorOver(stored, dims_[v], ScalarType::Int);
    } else if (value.datatype == Datatype::Fp32) {
      o.view = tensorOver(stored, dims_[v]);
    } else {
      const size_t n = std::max<size_t>(numelOf(dims_[v]), 1);
      host_float_bytes_ += n * sizeof(float);
      if (host_float_bytes_ > kMaxHostFloatBytes) {
        return absl::ResourceExhaustedError(sy::str("the host steps' float copies of values would take more than 2^34 bytes (value ",
                                                    value.id, ", ", datatypeName(value.datatype), dimsString(dims_[v]), ")"));
      }
      o.floats.reset(new (std::nothrow) float[n]);
      if (o.floats == nullptr) return absl::ResourceExhaustedError(sy::str("cannot allocate the float copy of value ", value.id));
      o.view = tensorOver(o.floats.get(), dims_[v]);
      if (value.isConstant()) {
        toFloat(value, dims_[v], value.data, rows_[v], o.floats.get());
      } else {
        o.convert = true;
      }
    }
    (output ? out : in).push_back(o.view);
    (output ? step.outputs : step.inputs).push_back(std::move(o));
    return absl::OkStatus();
  };
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    if (auto s = operand(n.inputs[k], false, k); !s.ok()) return s;
  }
  for (size_t k = 0; k < n.outputs.size(); ++k) {
    if (auto s = operand(n.outputs[k], true, k); !s.ok()) return s;
  }
  absl::StatusOr<std::unique_ptr<HostKernel>> kernel = makeHostKernel(n, std::move(in), std::move(out));
  if (!kernel.ok()) return kernel.status();
  step.kernel = *std::move(kernel);
  return absl::OkStatus();
}

std::vector<std::string> GraphExecutable::placement() const {
  std::vector<std::string> lines;
  std::vector<size_t> runtime_of(g_.nodes.size(), 0);
  for (size_t r = 0; r < runtime_nodes_.size(); ++r) {
    for (uint32_t k : runtime_nodes_[r]) runtime_of[k] = r;
  }
  for (size_t k = 0; k < g_.nodes.size(); ++k) {
    const XnnNode& n = g_.nodes[k];
    const std::string what = sy::str("node ", k, " (", nodeKindName(n.kind), ", ",
                                     datatypeName(g_.values[n.outputs[0]].datatype), ")");
    lines.push_back(on_host_[k] ? sy::str(what, ": host (", host_reason_[k], ")")
                                : sy::str(what, ": XNNPACK runtime ", runtime_of[k]));
  }
  return lines;
}

}  // namespace sy::xnnpack
