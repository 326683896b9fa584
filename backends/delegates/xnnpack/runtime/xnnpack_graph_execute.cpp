// Running a GraphExecutable: arguments in, steps, results out. See Note [How an XNNPACK delegate
// runs on Debian's XNNPACK] in xnnpack_graph_executable.h.
#include <cstring>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph_executable.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_shapes.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

// The tensor dtype a delegate argument holding `value` has (Undefined: none can).
ScalarType argumentDtype(const XnnValue& value, bool index) {
  if (index) return ScalarType::Long;
  switch (value.datatype) {
    case Datatype::Fp32: return ScalarType::Float;
    case Datatype::Int32:
    case Datatype::QInt32: return ScalarType::Int;
    default: return ScalarType::Undefined;
  }
}

bool sameDims(IntArrayRef sizes, const Dims& dims) {
  if (sizes.size() != dims.size()) return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (sizes[i] < 0 || static_cast<size_t>(sizes[i]) != dims[i]) return false;
  }
  return true;
}

// Copies the elements of `t` (4-byte elements, any strides) densely into `dst`.
void copyDense(const Tensor& t, uint8_t* dst) {
  const size_t n = static_cast<size_t>(t.numel());
  if (n == 0) return;
  const auto* src = static_cast<const uint8_t*>(t.data_ptr());
  if (t.is_contiguous()) {
    std::memcpy(dst, src, n * 4);
    return;
  }
  const int64_t rank = t.dim();
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);  // a strided input is the one case that allocates
  for (size_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d) offset += index[static_cast<size_t>(d)] * t.strides()[static_cast<size_t>(d)];
    std::memcpy(dst + i * 4, src + offset * 4, 4);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < t.sizes()[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

}  // namespace

std::string GraphExecutable::argumentName(uint32_t value) const {
  const XnnValue& v = g_.values[value];
  return sy::str("argument ", v.external_id, " (", v.is_input ? "input" : "output", " value ", v.id, ", ",
                 datatypeName(v.datatype), dimsString(dims_[value]), ")");
}

// Derives every shape again when an input arrives with other dims than the current ones.
absl::Status GraphExecutable::reshapeFor(absl::Span<IValue*> args) {
  bool changed = false;
  std::vector<Dims> dims;  // allocated only when some input changed shape
  for (uint32_t v : g_.inputs) {
    const Tensor& t = args[g_.values[v].external_id]->toTensor();
    if (sameDims(t.sizes(), dims_[v])) continue;
    const Dims& bound = g_.values[v].dims;
    if (t.dim() != static_cast<int64_t>(bound.size())) {
      if (t.numel() == 1 && numelOf(dims_[v]) == 1) continue;  // a 0-D scalar for a [1] value
      return absl::InvalidArgumentError(sy::str(argumentName(v), " is given a tensor of ", t.dim(), " dims"));
    }
    if (dims.empty()) dims = dims_;
    Dims given(t.sizes().begin(), t.sizes().end());
    for (size_t d = 0; d < given.size(); ++d) {
      if (given[d] > bound[d]) {
        return absl::InvalidArgumentError(sy::str(argumentName(v), " is given dims ", dimsString(given),
                                                  ", past the bound ", dimsString(bound), " the delegate was exported with"));
      }
    }
    dims[v] = std::move(given);
    changed = true;
  }
  if (!changed) return absl::OkStatus();
  for (size_t k = 0; k < g_.nodes.size(); ++k) {
    const XnnNode& n = g_.nodes[k];
    absl::InlinedVector<const Dims*, 5> in;
    for (uint32_t v : n.inputs) in.push_back(v == kNoValue ? nullptr : &dims[v]);
    absl::StatusOr<OutputDims> out = inferOutputDims(n, in);
    if (!out.ok()) {
      return absl::InvalidArgumentError(sy::str("with these input shapes, node ", k, " (", nodeKindName(n.kind),
                                                "): ", out.status().message()));
    }
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      const XnnValue& value = g_.values[n.outputs[o]];
      if (storageBytes(value.datatype, (*out)[o]) > storageBytes(value.datatype, value.dims)) {
        return absl::InvalidArgumentError(sy::str("with these input shapes, node ", k, " (", nodeKindName(n.kind),
                                                  ") makes value ", value.id, " ", dimsString((*out)[o]),
                                                  ", larger than the ", dimsString(value.dims), " it was exported with"));
      }
      dims[n.outputs[o]] = (*out)[o];
    }
  }
  dims_ = std::move(dims);
  return settle();  // the placement stays, unless XNNPACK refuses a node at these shapes
}

absl::Status GraphExecutable::bindArguments(absl::Span<IValue*> args) {
  for (const auto* list : {&g_.inputs, &g_.outputs}) {
    for (uint32_t v : *list) {
      const IValue* a = args[g_.values[v].external_id];
      const ScalarType want = argumentDtype(g_.values[v], is_index_[v]);
      if (a == nullptr || !a->isTensor() || !a->toTensor().defined()) {
        return absl::InvalidArgumentError(sy::str(argumentName(v), " is not a tensor"));
      }
      const Tensor& t = a->toTensor();
      if (want == ScalarType::Undefined) {
        return absl::UnimplementedError(sy::str(argumentName(v), ": Switchyard has no tensor type for ",
                                                datatypeName(g_.values[v].datatype), " values"));
      }
      const bool ok_dtype = t.scalar_type() == want || (is_index_[v] && t.scalar_type() == ScalarType::Int);
      if (!ok_dtype || !t.device().is_cpu()) {
        return absl::InvalidArgumentError(sy::str(argumentName(v), " must be a ", toString(want), " CPU tensor, not ",
                                                  toString(t.scalar_type())));
      }
    }
  }
  if (absl::Status s = reshapeFor(args); !s.ok()) return s;
  for (uint32_t v : g_.inputs) {
    const Tensor& t = args[g_.values[v].external_id]->toTensor();
    if (static_cast<size_t>(t.numel()) != numelOf(dims_[v])) {
      return absl::InvalidArgumentError(sy::str(argumentName(v), " is given ", t.numel(), " elements"));
    }
    copyDense(t, home_[v]);
  }
  return absl::OkStatus();
}

absl::Status GraphExecutable::copyOutputs(absl::Span<IValue*> args) {
  for (uint32_t v : g_.outputs) {
    Tensor& t = args[g_.values[v].external_id]->toTensor();
    const size_t n = numelOf(dims_[v]);
    if (static_cast<size_t>(t.numel()) != n || (t.dim() == static_cast<int64_t>(dims_[v].size()) && !sameDims(t.sizes(), dims_[v]))) {
      const std::vector<int64_t> sizes(dims_[v].begin(), dims_[v].end());
      try {
        t.resize_(sizes);
      } catch (const Error& e) {
        return absl::InvalidArgumentError(sy::str(argumentName(v), " cannot be resized to ", dimsString(dims_[v]), ": ", e.what()));
      }
    }
    if (!t.is_contiguous()) return absl::InvalidArgumentError(sy::str(argumentName(v), " must be contiguous"));
    // A result the method never reads may have no memory (its planner gives it none): nothing to copy.
    if (n == 0 || t.data_ptr() == nullptr) continue;
    if (is_index_[v] && t.scalar_type() == ScalarType::Long) {
      const auto* from = reinterpret_cast<const uint32_t*>(home_[v]);
      int64_t* to = t.data_ptr<int64_t>();
      for (size_t i = 0; i < n; ++i) to[i] = from[i];
    } else {
      std::memcpy(t.data_ptr(), home_[v], n * 4);
    }
  }
  return absl::OkStatus();
}

absl::Status GraphExecutable::execute(absl::Span<IValue*> args, EventTracer* tracer) {
  if (args.size() != g_.num_externs) {
    return absl::InvalidArgumentError(sy::str(args.size(), " arguments for a delegate with ", g_.num_externs,
                                              " external values (", g_.inputs.size(), " inputs, ", g_.outputs.size(),
                                              " outputs)"));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status s = bindArguments(args); !s.ok()) return s;
  for (const Step& step : steps_) {
    const uint64_t start = tracer != nullptr ? EventTracer::now() : 0;
    if (step.xnnpack) {
      if (absl::Status s = runtimes_[step.index]->invoke(); !s.ok()) {
        return absl::InternalError(sy::str("XNNPACK runtime ", step.index, ": ", s.message()));
      }
      if (tracer != nullptr) tracer->log_profiling_delegate(runtime_event_names_[step.index], -1, start, EventTracer::now());
      continue;
    }
    HostStep& h = host_steps_[step.index];
    for (Operand& o : h.inputs) {
      if (o.convert) toFloat(g_.values[o.value], dims_[o.value], home_[o.value], rows_[o.value], o.floats.get());
    }
    try {
      h.kernel->run();
    } catch (const Error& e) {
      return absl::InternalError(sy::str("node ", h.node, " (", nodeKindName(g_.nodes[h.node].kind), ") on the host: ", e.what()));
    }
    for (Operand& o : h.outputs) {
      if (o.convert) fromFloat(g_.values[o.value], dims_[o.value], o.floats.get(), home_[o.value], rows_[o.value]);
    }
    if (tracer != nullptr) tracer->log_profiling_delegate({}, g_.nodes[h.node].debug_handle, start, EventTracer::now());
  }
  return copyOutputs(args);
}

}  // namespace sy::xnnpack
