// program_case.h: what one conformance program is, for make_programs.
//
// A ProgramCase is a small model written with Switchyard's operators (its eager outputs on the
// portable kernels are the reference), how it is lowered to the XNNPACK delegate, the inputs it is
// run on and the tolerances its outputs are held to. The case lists live in one file per family:
//   exported_models.cpp    lowered by Switchyard's exporter (XnnpackPartitioner, or the whole graph
//                          with to_backend("XnnpackBackend")): the node kinds the exporter emits
//   blobs_elementwise.cpp  hand-made XNNPACK graphs: unary and binary element-wise nodes, PReLU
//   blobs_layout.cpp       hand-made: slice, pad, concatenate, transpose, resize, bmm, deconvolution
//   blobs_quantized.cpp    hand-made: static int8, dynamic int8 with 8- and 4-bit weights
//   blobs_unsupported.cpp  hand-made: node kinds ExecuTorch's runtime cannot define (expected failures)
// "Hand-made" graphs are for node kinds the exporter never emits; they are still written by
// Switchyard's own blob writer (sy::xnnpack::writeXnnBlob) and program emitter (graph_maker.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_blob_writer.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/export/capture.h"
#include "switchyard/switchyard.h"

namespace conformance {

using Shape = std::vector<int64_t>;
using sy::Tensor;
namespace ops = sy::ops;
// A case's eager model: its outputs from its inputs.
using Outputs = std::vector<Tensor>;
using Inputs = const std::vector<Tensor>&;
class GraphMaker;

enum class Lowering {
  Partitioner,  // ex::to_backend(program, XnnpackPartitioner())
  Whole,        // ex::to_backend("XnnpackBackend", program): the whole graph or an error
  Hand,         // the XNNPACK graph that `hand` builds, written by writeXnnBlob
};

struct ProgramCase {
  std::string name;
  Lowering lowering = Lowering::Whole;
  std::vector<Shape> inputs;                    // the shapes the model is captured with
  sy::export_::Model model;                     // eager reference (and, unless Hand, what is lowered)
  std::vector<sy::export_::NamedTensor> params;  // the model's weights, as named parameters
  double tolerance = 1e-5;                      // |delegate - eager|, absolute
  std::string notes;                            // what the case covers, for the manifest
  std::function<void(GraphMaker&)> hand;        // Lowering::Hand: builds the XNNPACK graph
  // Constants of a hand-made graph: in the program's named data (as ExecuTorch's exporter writes
  // them) or in the blob's own constant region (the older layout).
  sy::xnnpack::ConstantPlacement placement = sy::xnnpack::ConstantPlacement::NamedData;
  bool inline_blobs = false;                    // blobs in Program.backend_delegate_data, not segments
  std::vector<sy::export_::DynamicDim> dynamic;  // non-empty: captured with captureDynamic
  std::vector<std::vector<Shape>> run_shapes;   // one entry per run; empty: three runs at `inputs`
  float input_low = -1.0f, input_high = 1.0f;   // range of the random inputs
  // |ExecuTorch - Switchyard| <= agreement * max(1, |ExecuTorch|): both run the same XNNPACK graph,
  // so they should agree to a few float32 rounding steps whatever `tolerance` allows against eager.
  double agreement = 2e-6;
};
using CaseList = std::vector<ProgramCase>;

// The case families (one file each, see above).
void addExportedModels(CaseList& cases);
void addElementwiseBlobs(CaseList& cases);
void addLayoutBlobs(CaseList& cases);
void addQuantizedBlobs(CaseList& cases);
void addUnsupportedBlobs(CaseList& cases);

// tensor_text.cpp: deterministic random tensors, float contents, and the runners' text format.
Tensor randomTensor(const Shape& sizes, uint32_t seed, float low = -1.0f, float high = 1.0f);
std::vector<float> floatsOf(const Tensor& t);
void writeTensorFile(const std::string& path, const std::vector<Tensor>& values);

// NCHW <-> NHWC for the eager side of hand-made graphs, which XNNPACK computes channels-last.
Tensor toNchw(const Tensor& nhwc);
Tensor toNhwc(const Tensor& nchw);

}  // namespace conformance
