#include "switchyard/backends/xnnpack/runtime/xnnpack_executable.h"

#include <xnnpack.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "switchyard/backends/xnnpack/schema/syxn_graph_generated.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_transpose.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_shape_check.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::xnnpack {
namespace {

std::atomic<size_t> live_executables{0};

// Limits far above any real model that keep every size computation in range.
constexpr size_t kMaxValues = size_t{1} << 20;
constexpr uint64_t kMaxElements = uint64_t{1} << 36;

absl::string_view statusName(xnn_status s) {
  switch (s) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid_parameter";
    case xnn_status_invalid_state: return "invalid_state";
    case xnn_status_unsupported_parameter: return "unsupported_parameter";
    case xnn_status_unsupported_hardware: return "unsupported_hardware";
    case xnn_status_out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

absl::Status malformed(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend init: malformed blob: ", why));
}

struct Counts {
  size_t inputs, params;  // params: exact count, or SIZE_MAX for "1 to 6" (reshape)
  bool optional_last_input;
};

Counts countsOf(syxn::NodeKind kind) {
  switch (kind) {
    case syxn::NodeKind::Convolution2d: return {3, 13, true};
    case syxn::NodeKind::DepthwiseConvolution2d: return {3, 12, true};
    case syxn::NodeKind::FullyConnected: return {3, 0, true};
    case syxn::NodeKind::Add:
    case syxn::NodeKind::Subtract:
    case syxn::NodeKind::Multiply:
    case syxn::NodeKind::Divide: return {2, 0, false};
    case syxn::NodeKind::MaxPooling2d: return {1, 10, false};
    case syxn::NodeKind::AveragePooling2d: return {1, 8, false};
    case syxn::NodeKind::StaticReshape: return {1, SIZE_MAX, false};
    default: return {1, 0, false};  // Clamp, Sigmoid, Softmax, GlobalAveragePooling2d
  }
}

}  // namespace

// Checks the blob and builds the executable. See Note [An XNNPACK blob is checked before XNNPACK sees it].
class ExecutableBuilder {
 public:
  ExecutableBuilder(XnnpackExecutable& e) : e_(e) {}
  ~ExecutableBuilder() {
    if (subgraph_ != nullptr) xnn_delete_subgraph(subgraph_);
  }

  absl::Status build(const void* data, size_t size, size_t num_threads) {
    if (data == nullptr || size < 8 || size > (size_t{1} << 40)) return malformed("too short to be a blob");
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    if (!syxn::GraphBufferHasIdentifier(bytes)) {
      return malformed("no \"SYXN\" identifier: not an XNNPACK delegate blob");
    }
    flatbuffers::Verifier verifier(bytes, size);
    if (!syxn::VerifyGraphBuffer(verifier)) return malformed("the FlatBuffers buffer does not verify");
    const syxn::Graph* g = syxn::GetGraph(bytes);
    if (g->version() != kXnnpackBlobVersion) {
      return absl::FailedPreconditionError(absl::StrCat("XnnpackBackend init: blob version ", g->version(),
                                                        " is not the version this build reads (",
                                                        kXnnpackBlobVersion, "): export the program again"));
    }
    if (g->values() == nullptr || g->values()->size() > kMaxValues) return malformed("no values, or too many");
    num_values_ = g->values()->size();
    e_.num_inputs_ = g->num_inputs();
    e_.num_outputs_ = g->num_outputs();
    if (e_.num_inputs_ > kMaxValues || e_.num_outputs_ > kMaxValues) return malformed("too many arguments");
    if (absl::Status s = checkValues(g); !s.ok()) return s;
    if (absl::Status s = checkEdges(g->inputs(), false, e_.inputs_); !s.ok()) return s;
    if (absl::Status s = checkEdges(g->outputs(), true, e_.outputs_); !s.ok()) return s;
    if (absl::Status s = checkNodes(g); !s.ok()) return s;
    return define(g, num_threads);
  }

 private:
  absl::Status checkValues(const syxn::Graph* g) {
    dims_.resize(num_values_);
    has_data_.resize(num_values_);
    for (uint32_t i = 0; i < num_values_; ++i) {
      const syxn::Value* v = g->values()->Get(i);
      const size_t rank = v->dims() == nullptr ? 0 : v->dims()->size();
      if (rank > XNN_MAX_TENSOR_DIMS) return malformed(absl::StrCat("value ", i, " has ", rank, " dims"));
      uint64_t numel = 1;
      for (size_t d = 0; d < rank; ++d) {
        const uint64_t n = v->dims()->Get(d);
        if (n > kMaxElements || (n != 0 && numel > kMaxElements / n)) {
          return malformed(absl::StrCat("value ", i, " is too large"));
        }
        numel *= n;
        dims_[i].push_back(static_cast<size_t>(n));
      }
      has_data_[i] = v->data() != nullptr;
      if (v->data() != nullptr && v->data()->size() != numel * sizeof(float)) {
        return malformed(absl::StrCat("value ", i, " has ", v->data()->size(), " bytes of data for ", numel,
                                      " floats"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status checkEdges(const flatbuffers::Vector<flatbuffers::Offset<syxn::ExternalValue>>* list, bool output,
                          std::vector<XnnpackExecutable::Edge>& out) {
    if (list == nullptr) return absl::OkStatus();
    const syxn::Graph* g = nullptr;
    (void)g;
    for (const syxn::ExternalValue* x : *list) {
      const uint32_t lo = output ? e_.num_inputs_ : 0, hi = output ? e_.num_inputs_ + e_.num_outputs_ : e_.num_inputs_;
      if (x->value() >= num_values_ || x->arg() < lo || x->arg() >= hi) {
        return malformed(absl::StrCat(output ? "output" : "input", " edge to value ", x->value(), " for argument ",
                                      x->arg()));
      }
      if (x->layout() != syxn::EdgeLayout::Same && x->layout() != syxn::EdgeLayout::NchwToNhwc) {
        return malformed("unknown edge layout");
      }
      const bool transpose = x->layout() == syxn::EdgeLayout::NchwToNhwc;
      if (transpose && dims_[x->value()].size() != 4) return malformed("a transposed edge of a value that is not 4-D");
      if (flags_.count(x->value())) return malformed(absl::StrCat("value ", x->value(), " is external twice"));
      if (has_data_[x->value()]) return malformed(absl::StrCat("value ", x->value(), " is external and has data"));
      flags_[x->value()] = output ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT : XNN_VALUE_FLAG_EXTERNAL_INPUT;
      XnnpackExecutable::Edge edge;
      edge.arg = x->arg();
      edge.value = x->value();
      edge.transpose = transpose;
      edge.dims = dims_[x->value()];
      edge.numel = 1;
      for (size_t d : edge.dims) edge.numel *= d;
      if (!output || transpose) edge.staging.resize(edge.numel + XNN_EXTRA_BYTES / sizeof(float));
      out.push_back(std::move(edge));
    }
    return absl::OkStatus();
  }

  absl::Status checkNodes(const syxn::Graph* g) {
    if (g->nodes() == nullptr) return absl::OkStatus();
    for (uint32_t i = 0; i < g->nodes()->size(); ++i) {
      const syxn::Node* n = g->nodes()->Get(i);
      if (n->kind() < syxn::NodeKind::MIN || n->kind() > syxn::NodeKind::MAX) return malformed(absl::StrCat("node ", i, ": unknown kind"));
      const Counts c = countsOf(n->kind());
      const size_t num_inputs = n->inputs() == nullptr ? 0 : n->inputs()->size();
      const size_t num_outputs = n->outputs() == nullptr ? 0 : n->outputs()->size();
      const size_t num_params = n->params() == nullptr ? 0 : n->params()->size();
      const bool params_ok = c.params == SIZE_MAX ? num_params <= XNN_MAX_TENSOR_DIMS : num_params == c.params;
      if (num_inputs != c.inputs || num_outputs != 1 || !params_ok) {
        return malformed(absl::StrCat("node ", i, " has ", num_inputs, " inputs, ", num_outputs, " outputs and ",
                                      num_params, " parameters"));
      }
      for (size_t k = 0; k < num_inputs; ++k) {
        const uint32_t v = n->inputs()->Get(k);
        const bool may_be_absent = c.optional_last_input && k == num_inputs - 1;
        if (v >= num_values_ && !(may_be_absent && v == kNoValue)) return malformed(absl::StrCat("node ", i, " reads value ", v));
      }
      const uint32_t out = n->outputs()->Get(0);
      if (out >= num_values_) return malformed(absl::StrCat("node ", i, " writes value ", out));
      const auto flag = flags_.find(out);
      if (has_data_[out] || !written_.insert(out).second ||
          (flag != flags_.end() && flag->second == XNN_VALUE_FLAG_EXTERNAL_INPUT)) {
        return malformed(absl::StrCat("node ", i, " writes value ", out, ", a constant, an input or written before"));
      }
      std::vector<uint64_t> params;
      for (size_t k = 0; k < num_params; ++k) {
        params.push_back(n->params()->Get(k));
        if (params.back() > std::numeric_limits<uint32_t>::max()) return malformed(absl::StrCat("node ", i, ": parameter out of range"));
      }
      std::vector<SyxnDims> inputs;
      bool has_bias = true;
      for (size_t k = 0; k < num_inputs; ++k) {
        const uint32_t v = n->inputs()->Get(k);
        if (v == kNoValue) has_bias = false;
        inputs.push_back(v == kNoValue ? SyxnDims{} : dims_[v]);
      }
      if (std::string why = shapeMismatch(n->kind(), inputs, has_bias, params, dims_[out]); !why.empty()) {
        return malformed(absl::StrCat("node ", i, " (", n->operator_name() == nullptr ? "?" : n->operator_name()->str(),
                                      "): ", why));
      }
      e_.nodes_.push_back({n->operator_name() == nullptr ? "?" : n->operator_name()->str()});
    }
    return absl::OkStatus();
  }

  absl::Status define(const syxn::Graph* g, size_t num_threads) {
    xnn_status s = xnn_create_subgraph(num_values_, 0, &subgraph_);
    if (s != xnn_status_success) return xnnError("xnn_create_subgraph", s);
    for (uint32_t i = 0; i < num_values_; ++i) {
      const syxn::Value* v = g->values()->Get(i);
      const void* data = nullptr;
      if (v->data() != nullptr) {
        // Copied: the blob may be freed after init, and XNNPACK reads static data as floats.
        std::vector<float>& c = e_.constants_.emplace_back(v->data()->size() / sizeof(float) + XNN_EXTRA_BYTES / sizeof(float));
        std::memcpy(c.data(), v->data()->data(), v->data()->size());
        data = c.data();
      }
      const auto flag = flags_.find(i);
      uint32_t id = 0;
      s = xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims_[i].size(), dims_[i].data(), data, i,
                                  flag == flags_.end() ? 0 : flag->second, &id);
      if (s != xnn_status_success) return xnnError(absl::StrCat("xnn_define_tensor_value for value ", i), s);
    }
    for (uint32_t i = 0; i < g->nodes()->size(); ++i) {
      s = defineNode(g->nodes()->Get(i));
      if (s != xnn_status_success) {
        return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend init: XNNPACK refused node ", i, " (",
                                                       e_.nodes_[i].operator_name, "): status ", statusName(s)));
      }
    }
    if (num_threads > 1) {
      e_.pool_ = pthreadpool_create(num_threads);
      if (e_.pool_ == nullptr) return absl::ResourceExhaustedError("XnnpackBackend init: pthreadpool_create failed");
    }
    s = xnn_create_runtime_v2(subgraph_, e_.pool_, 0, &e_.runtime_);
    if (s != xnn_status_success) return xnnError("xnn_create_runtime_v2", s);
    e_.externals_.reserve(e_.inputs_.size() + e_.outputs_.size());
    return absl::OkStatus();
  }

  xnn_status defineNode(const syxn::Node* n) {
    const auto in = [&](size_t k) { return n->inputs()->Get(k); };
    const uint32_t out = n->outputs()->Get(0);
    const auto p = [&](size_t k) { return static_cast<uint32_t>(n->params()->Get(k)); };
    const float lo = n->output_min(), hi = n->output_max();
    switch (n->kind()) {
      case syxn::NodeKind::Convolution2d:
        return xnn_define_convolution_2d(subgraph_, p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10),
                                         p(11), p(12), lo, hi, in(0), in(1), in(2), out, 0);
      case syxn::NodeKind::DepthwiseConvolution2d:
        return xnn_define_depthwise_convolution_2d(subgraph_, p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8),
                                                   p(9), p(10), p(11), lo, hi, in(0), in(1), in(2), out, 0);
      case syxn::NodeKind::FullyConnected:
        return xnn_define_fully_connected(subgraph_, lo, hi, in(0), in(1), in(2), out, 0);
      case syxn::NodeKind::Add: return xnn_define_add2(subgraph_, lo, hi, in(0), in(1), out, 0);
      case syxn::NodeKind::Subtract: return xnn_define_subtract(subgraph_, lo, hi, in(0), in(1), out, 0);
      case syxn::NodeKind::Multiply: return xnn_define_multiply2(subgraph_, lo, hi, in(0), in(1), out, 0);
      case syxn::NodeKind::Divide: return xnn_define_divide(subgraph_, lo, hi, in(0), in(1), out, 0);
      case syxn::NodeKind::Clamp: return xnn_define_clamp(subgraph_, lo, hi, in(0), out, 0);
      case syxn::NodeKind::Sigmoid: return xnn_define_sigmoid(subgraph_, in(0), out, 0);
      case syxn::NodeKind::Softmax: return xnn_define_softmax(subgraph_, in(0), out, 0);
      case syxn::NodeKind::MaxPooling2d:
        return xnn_define_max_pooling_2d(subgraph_, p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), lo, hi,
                                         in(0), out, 0);
      case syxn::NodeKind::AveragePooling2d:
        return xnn_define_average_pooling_2d(subgraph_, p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), lo, hi, in(0),
                                             out, 0);
      case syxn::NodeKind::GlobalAveragePooling2d:
        return xnn_define_global_average_pooling_2d(subgraph_, lo, hi, in(0), out, 0);
      case syxn::NodeKind::StaticReshape: {
        std::vector<size_t> shape;
        if (n->params() != nullptr) shape.assign(n->params()->begin(), n->params()->end());
        return xnn_define_static_reshape(subgraph_, shape.size(), shape.data(), in(0), out, 0);
      }
    }
    return xnn_status_invalid_parameter;
  }

  absl::Status xnnError(absl::string_view what, xnn_status s) {
    return absl::InternalError(absl::StrCat("XnnpackBackend init: ", what, " failed with status ", statusName(s)));
  }

  XnnpackExecutable& e_;
  xnn_subgraph_t subgraph_ = nullptr;
  uint32_t num_values_ = 0;
  std::vector<std::vector<size_t>> dims_;
  std::vector<bool> has_data_;
  std::set<uint32_t> written_;
  std::map<uint32_t, uint32_t> flags_;
};

absl::StatusOr<std::unique_ptr<XnnpackExecutable>> XnnpackExecutable::create(const void* data, size_t size,
                                                                             size_t num_threads) {
  std::unique_ptr<XnnpackExecutable> e(new XnnpackExecutable());
  ++live_executables;
  ExecutableBuilder builder(*e);
  if (absl::Status s = builder.build(data, size, num_threads); !s.ok()) return s;
  return e;
}

XnnpackExecutable::~XnnpackExecutable() {
  if (runtime_ != nullptr) xnn_delete_runtime(runtime_);
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
  --live_executables;
}

size_t XnnpackExecutable::live() { return live_executables.load(); }

std::string XnnpackExecutable::nodesDescription() const {
  std::vector<std::string> parts;
  for (size_t i = 0; i < nodes_.size(); ++i) parts.push_back(absl::StrCat(i, " (", nodes_[i].operator_name, ")"));
  return absl::StrJoin(parts, ", ");
}

absl::Status XnnpackExecutable::checkArgument(absl::Span<IValue*> args, const Edge& edge, bool output) const {
  const IValue* a = args[edge.arg];
  // Formatted only for an error: execute allocates nothing (See Note [XNNPACK runs in staging buffers]).
  auto what = [&] {
    return absl::StrCat("XnnpackBackend execute: argument ", edge.arg, " (", output ? "output " : "input ",
                        output ? edge.arg - num_inputs_ : edge.arg, ")");
  };
  if (a == nullptr || !a->isTensor()) return absl::InvalidArgumentError(absl::StrCat(what(), " is not a tensor"));
  const Tensor& t = a->toTensor();
  if (!t.defined() || t.scalar_type() != ScalarType::Float || (output && !t.is_contiguous()) || !t.device().is_cpu() ||
      static_cast<size_t>(t.numel()) != edge.numel) {
    return absl::InvalidArgumentError(absl::StrCat(what(), " must be a ", output ? "contiguous " : "",
                                                   "Float CPU tensor of ", edge.numel, " elements"));
  }
  return absl::OkStatus();
}

absl::Status XnnpackExecutable::execute(absl::Span<IValue*> args) {
  if (args.size() != num_inputs_ + num_outputs_) {
    return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend execute: ", args.size(), " arguments for a delegate of ",
                                                   num_inputs_, " inputs and ", num_outputs_, " outputs"));
  }
  for (const Edge& e : inputs_) {
    if (absl::Status s = checkArgument(args, e, false); !s.ok()) return s;
  }
  for (const Edge& e : outputs_) {
    if (absl::Status s = checkArgument(args, e, true); !s.ok()) return s;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  externals_.clear();  // reserved at init
  for (Edge& e : inputs_) {
    // An input made by a view on the portable kernels (a permute left out) may be strided.
    const Tensor& given = args[e.arg]->toTensor();
    const Tensor dense = given.is_contiguous() ? given : ops::contiguous(given);
    const float* src = dense.data_ptr<float>();
    if (e.transpose) {
      transposeBatched(src, e.staging.data(), e.dims[0], e.dims[3], e.dims[1] * e.dims[2]);
    } else if (e.numel != 0) {
      std::memcpy(e.staging.data(), src, e.numel * sizeof(float));
    }
    externals_.push_back({e.value, e.staging.data()});
  }
  for (Edge& e : outputs_) {
    externals_.push_back({e.value, e.transpose ? e.staging.data() : args[e.arg]->toTensor().data_ptr()});
  }
  xnn_status s = xnn_setup_runtime(runtime_, externals_.size(), externals_.data());
  if (s == xnn_status_success) s = xnn_invoke_runtime(runtime_);
  if (s != xnn_status_success) {
    return absl::InternalError(absl::StrCat("XnnpackBackend execute: XNNPACK failed with status ", statusName(s),
                                            " running XNNPACK nodes ", nodesDescription()));
  }
  for (Edge& e : outputs_) {
    if (!e.transpose) continue;
    // NHWC staging -> the NCHW output: rows = H * W, cols = C per image.
    transposeBatched(e.staging.data(), args[e.arg]->toTensor().data_ptr<float>(), e.dims[0], e.dims[1] * e.dims[2],
                     e.dims[3]);
  }
  return absl::OkStatus();
}

}  // namespace sy::xnnpack
