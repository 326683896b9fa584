#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_graph_builder.h"

#include <cstring>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout.h"
#include "switchyard/core/error.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::xnnpack {
namespace {

std::string_view layoutName(Layout l) { return l == Layout::ChannelsLast ? "channels-last (NHWC)" : "NCHW"; }

Dims dimsOf(const std::vector<int64_t>& sizes) { return Dims(sizes.begin(), sizes.end()); }

}  // namespace

GraphBuilder::GraphBuilder(const export_::ExportedProgram& p) : p_(p) {
  const std::vector<export_::ValueId> users = p.graph().placeholders(export_::InputKind::User);
  const size_t outputs = p.graph().outputs().size();
  g_.num_externs = static_cast<uint32_t>(users.size() + outputs);
  for (size_t i = 0; i < users.size(); ++i) {
    const uint32_t id = addValue(sizesOf(users[i]));
    g_.values[id].is_input = true;
    g_.values[id].external_id = static_cast<uint32_t>(i);
    user_inputs_[users[i]] = id;
  }
}

absl::Status GraphBuilder::refuse(const export_::Node& node, std::string_view why) const {
  return absl::InvalidArgumentError(sy::str("XnnpackBackend preprocess: node %", node.name, " (",
                                            node.op->operator_name().toString(), ") cannot be delegated: ", why));
}

absl::Status GraphBuilder::build() {
  const std::vector<export_::Node>& nodes = p_.graph().nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != export_::NodeKind::CallFunction) continue;
    absl::StatusOr<NodePlan> plan = planNode(p_, static_cast<export_::NodeId>(i));
    if (!plan.ok()) return refuse(nodes[i], std::string(plan.status().message()));
    plans_.push_back({static_cast<export_::NodeId>(i), *std::move(plan)});
  }
  // The partitioner leaves out every node LayoutPlan finds in conflict, so a conflict here is a
  // group it did not make (a hand-made partition, or the whole program lowered at once).
  layouts_ = std::make_unique<LayoutPlan>(p_, plans_);
  if (!layouts_->conflicts().empty()) {
    const LayoutPlan::Conflict& c = layouts_->conflicts()[0];
    return refuse(p_.graph().node(c.node), sy::str(c.reason, "; partition with XnnpackPartitioner"));
  }
  // A node whose results nobody reads, directly or through other nodes, is left out: XNNPACK
  // would compute it for nothing (and Debian's gives such a result no memory).
  std::vector<bool> live(p_.graph().numValues(), false), emitted(plans_.size(), false);
  for (export_::ValueId v : p_.graph().outputs()) live[v] = true;
  for (size_t k = plans_.size(); k-- > 0;) {
    const export_::Node& node = p_.graph().node(plans_[k].id);
    for (export_::ValueId v : node.outputs) emitted[k] = emitted[k] || live[v];
    if (!emitted[k]) continue;
    for (const export_::NodeArgument& a : node.args) {
      for (export_::ValueId v : a.readValues()) live[v] = true;
    }
  }
  for (size_t k = 0; k < plans_.size(); ++k) {
    if (!emitted[k]) continue;
    current_ = &p_.graph().node(plans_[k].id);
    if (absl::Status s = emit(*current_, plans_[k].plan); !s.ok()) return s;
  }
  current_ = nullptr;
  return emitOutputs();
}

uint32_t GraphBuilder::addValue(const std::vector<int64_t>& dims) {
  XnnValue v;
  v.id = static_cast<uint32_t>(g_.values.size());
  v.dims = dimsOf(dims);
  g_.values.push_back(std::move(v));
  written_.push_back(false);
  return static_cast<uint32_t>(g_.values.size() - 1);
}

uint32_t GraphBuilder::addConstant(const std::vector<int64_t>& dims, std::vector<float> data) {
  const uint32_t id = addValue(dims);
  data_.emplace_back(data.size() * sizeof(float));
  if (!data.empty()) std::memcpy(data_.back().data(), data.data(), data_.back().size());
  g_.values[id].data = data_.back().data();
  g_.values[id].data_size = data_.back().size();
  return id;
}

XnnNode& GraphBuilder::addNode(NodeKind kind, std::vector<uint32_t> inputs, uint32_t output) {
  XnnNode n;
  n.kind = kind;
  n.inputs.assign(inputs.begin(), inputs.end());
  n.outputs.push_back(output);
  written_[output] = true;
  if (current_ != nullptr) {
    // ExecuTorch's convention: an XNNPACK node carries its graph node's debug handle.
    n.debug_handle = static_cast<uint32_t>(current_->meta.debug_handle);
    if (current_->meta.debug_handle != 0) debug_handles_[static_cast<int64_t>(g_.nodes.size())] = {current_->meta.debug_handle};
  }
  g_.nodes.push_back(std::move(n));
  return g_.nodes.back();
}

uint32_t GraphBuilder::addResult(export_::ValueId v, Layout layout) {
  const uint32_t id = addValue(layout == Layout::ChannelsLast ? channelsLast(sizesOf(v)) : sizesOf(v));
  produced_[v] = {id, layout};
  ids_[{v, layout, false}] = id;
  return id;
}

std::vector<float> GraphBuilder::constantData(export_::ValueId v) const {
  const Tensor t = ops::contiguous(p_.stateOf(v));
  const float* f = t.data_ptr<float>();
  return std::vector<float>(f, f + t.numel());
}

absl::StatusOr<uint32_t> GraphBuilder::valueAs(export_::ValueId v, Layout want, bool pad) {
  const std::vector<int64_t> shape = pad ? paddedTo4(sizesOf(v)) : sizesOf(v);
  if (shape.size() != 4) want = Layout::Logical;
  const auto key = std::make_tuple(v, want, pad);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  const std::vector<int64_t> dims = want == Layout::ChannelsLast ? channelsLast(shape) : shape;
  uint32_t id;
  if (auto in = user_inputs_.find(v); in != user_inputs_.end()) {
    // A delegate input is NCHW: read channels-last, it is transposed (or, when its bytes are the
    // same either way, reshaped).
    const uint32_t base = in->second;
    if (dimsOf(dims) == g_.values[base].dims) {
      id = base;
    } else {
      id = addValue(dims);
      const bool moves = want == Layout::ChannelsLast && !sameMemoryInBothLayouts(shape);
      XnnNode& n = addNode(moves ? NodeKind::StaticTranspose : NodeKind::StaticReshape, {base}, id);
      n.list_a = moves ? Dims{0, 2, 3, 1} : dimsOf(dims);
    }
  } else if (isConstantValue(p_, v)) {
    std::vector<float> data = constantData(v);
    if (want == Layout::ChannelsLast) {
      std::vector<float> nhwc(data.size());
      transposeBatched(data.data(), nhwc.data(), shape[0], shape[1], shape[2] * shape[3]);
      data = std::move(nhwc);
    }
    id = addConstant(dims, std::move(data));
  } else {
    const auto [base, base_layout] = produced_.at(v);
    if (base_layout != want && !sameMemoryInBothLayouts(shape)) {
      return absl::InvalidArgumentError(sy::str(
          "XnnpackBackend preprocess: node %", current_->name, " reads %", p_.graph().value(v).name, " ",
          p_.graph().value(v).meta.str(), " as ", layoutName(want), " but it is ", layoutName(base_layout),
          " inside the delegate; partition with XnnpackPartitioner"));
    }
    if (g_.values[base].dims == dimsOf(dims)) {
      id = base;
    } else {
      id = addValue(dims);
      addNode(NodeKind::StaticReshape, {base}, id).list_a = dimsOf(dims);
    }
  }
  ids_[key] = id;
  return id;
}

// Each graph output becomes an external output. A result made here in NCHW order is the external
// value itself; a channels-last one leaves through a transpose (or a reshape when its bytes read
// the same either way); one that is not made by a node here (an input or constant passed through)
// or that is already another output gets a copy (a clamp to [-inf, inf]): a value is one external
// value at most.
absl::Status GraphBuilder::emitOutputs() {
  const std::vector<export_::ValueId> outs = p_.graph().outputs();
  const uint32_t first = static_cast<uint32_t>(user_inputs_.size());
  for (size_t k = 0; k < outs.size(); ++k) {
    const export_::ValueId v = outs[k];
    const uint32_t external_id = first + static_cast<uint32_t>(k);
    uint32_t source;
    bool transpose = false;
    if (auto produced = produced_.find(v); produced != produced_.end()) {
      source = produced->second.first;
      transpose = produced->second.second == Layout::ChannelsLast && !sameMemoryInBothLayouts(sizesOf(v));
    } else {
      absl::StatusOr<uint32_t> found = valueAs(v, Layout::Logical);
      if (!found.ok()) return found.status();
      source = *found;
    }
    XnnValue& s = g_.values[source];
    if (!transpose && written_[source] && !s.isExternal() && s.dims == dimsOf(sizesOf(v))) {
      s.is_output = true, s.external_id = external_id;
      continue;
    }
    const uint32_t out = addValue(sizesOf(v));
    g_.values[out].is_output = true, g_.values[out].external_id = external_id;
    if (transpose) {
      addNode(NodeKind::StaticTranspose, {source}, out).list_a = {0, 3, 1, 2};
    } else if (s.dims != g_.values[out].dims) {
      addNode(NodeKind::StaticReshape, {source}, out).list_a = g_.values[out].dims;
    } else {
      addNode(NodeKind::Clamp, {source}, out);
    }
  }
  return absl::OkStatus();
}

}  // namespace sy::xnnpack
