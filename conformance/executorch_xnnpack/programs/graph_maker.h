// graph_maker.h: building an XNNPACK graph by hand (sy::xnnpack::XnnGraph, the structure Switchyard's
// blob writer serializes), and lowering a captured program to it.
//
// The exporter only emits the node kinds its partitioner recognises. To cover the other node kinds
// ExecuTorch's runtime defines, a case builds the graph itself with GraphMaker; lowerHandMade then
// runs the ordinary lowering (to_backend("XnnpackBackend")) with the XnnpackBackend preprocess
// swapped for one that writes that graph, so the program is still entirely Switchyard-written.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <functional>
#include <utility>
#include <vector>

#include "program_case.h"
#include "switchyard/export/capture.h"

namespace conformance {

namespace xnn = sy::xnnpack;
using K = xnn::NodeKind;

class GraphMaker {
 public:
  // Graph inputs and outputs are numbered (external ids) in the order they are created.
  uint32_t input(xnn::Dims dims, xnn::Datatype type = xnn::Datatype::Fp32) { return external(std::move(dims), type, true); }
  uint32_t output(xnn::Dims dims, xnn::Datatype type = xnn::Datatype::Fp32) { return external(std::move(dims), type, false); }

  uint32_t internal(xnn::Dims dims, xnn::Datatype type = xnn::Datatype::Fp32) {
    xnn::XnnValue v;
    v.datatype = type;
    v.dims = std::move(dims);
    return add(std::move(v));
  }

  uint32_t constant(xnn::Dims dims, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return constantBytes(std::move(dims), xnn::Datatype::Fp32, std::move(bytes));
  }

  // A constant of any datatype; the bytes stay owned by the maker until the blob is written.
  uint32_t constantBytes(xnn::Dims dims, xnn::Datatype type, std::vector<uint8_t> bytes, xnn::QuantParams quant = {}) {
    storage_.push_back(std::move(bytes));
    xnn::XnnValue v;
    v.datatype = type;
    v.dims = std::move(dims);
    v.data = storage_.back().data();
    v.data_size = storage_.back().size();
    v.quant = std::move(quant);
    return add(std::move(v));
  }

  void quantizePerTensor(uint32_t id, float scale, int32_t zero_point) {
    xnn::QuantParams& q = graph_.values[id].quant;
    q.kind = xnn::QuantParams::Kind::PerTensor;
    q.scale = scale;
    q.zero_point = zero_point;
  }

  // Dynamically quantized per token (row): the qdint8 input of a dynamic-quant FullyConnected.
  void quantizePerToken(uint32_t id, uint32_t nonbatch_dims = 1) {
    xnn::QuantParams& q = graph_.values[id].quant;
    q.kind = xnn::QuantParams::Kind::PerToken;
    q.num_nonbatch_dims = nonbatch_dims;
  }

  // Adds a node; the reference stays valid only until the next node is added.
  xnn::XnnNode& node(xnn::NodeKind kind, const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
    xnn::XnnNode n;
    n.kind = kind;
    n.debug_handle = static_cast<uint32_t>(graph_.nodes.size() + 1);
    n.inputs.assign(inputs.begin(), inputs.end());
    n.outputs.assign(outputs.begin(), outputs.end());
    graph_.nodes.push_back(std::move(n));
    return graph_.nodes.back();
  }

  xnn::XnnGraph& graph() { return graph_; }

 private:
  uint32_t external(xnn::Dims dims, xnn::Datatype type, bool is_input) {
    xnn::XnnValue v;
    v.datatype = type;
    v.dims = std::move(dims);
    v.is_input = is_input;
    v.is_output = !is_input;
    v.external_id = graph_.num_externs++;
    const uint32_t id = add(std::move(v));
    (is_input ? graph_.inputs : graph_.outputs).push_back(id);
    return id;
  }

  uint32_t add(xnn::XnnValue v) {
    const uint32_t id = static_cast<uint32_t>(graph_.values.size());
    v.id = id;
    graph_.values.push_back(std::move(v));
    return id;
  }

  xnn::XnnGraph graph_;
  std::deque<std::vector<uint8_t>> storage_;  // a deque: growing it never moves earlier constants
};

// A square pooling/convolution window with equal padding on every side.
inline xnn::XnnNode::Window squareWindow(uint32_t kernel, uint32_t stride, uint32_t pad, uint32_t dilation = 1) {
  xnn::XnnNode::Window w;
  w.kernel_h = w.kernel_w = kernel;
  w.stride_h = w.stride_w = stride;
  w.dilation_h = w.dilation_w = dilation;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = pad;
  return w;
}

// A case whose delegate is the graph `build` makes; `eager` is the reference it is checked against.
inline ProgramCase handMadeCase(std::string name, std::vector<Shape> inputs, sy::export_::Model eager, std::string notes,
                                double tolerance, std::function<void(GraphMaker&)> build) {
  ProgramCase c;
  c.name = std::move(name);
  c.lowering = Lowering::Hand;
  c.inputs = std::move(inputs);
  c.model = std::move(eager);
  c.notes = std::move(notes);
  c.tolerance = tolerance;
  c.hand = std::move(build);
  return c;
}

// Lowers `program` to one XnnpackBackend delegate holding the graph `build` makes (hand_lowering.cpp).
sy::export_::ExportedProgram lowerHandMade(const sy::export_::ExportedProgram& program,
                                           const std::function<void(GraphMaker&)>& build,
                                           xnn::ConstantPlacement placement);

}  // namespace conformance
