// make_programs: writes the conformance programs (.pte) with Switchyard's exporter, the inputs to run
// them on and the eager outputs to check them against, for roundtrip.sh.
//
//   make_programs OUT_DIR [NAME_SUBSTRING]
//
// For each case NAME (see program_case.h for the families): NAME.pte, NAME.in<k>.txt and
// NAME.eager<k>.txt for k = 1..3, and a line of OUT_DIR/manifest.tsv:
//   name  family  tolerance  agreement  calls  notes
// family is partitioner, whole or hand-made (EXPORT-FAILED when capture, lowering or emission threw:
// notes then hold the error); calls lists the lowered program's instructions (DELEGATE for a call
// into a delegate). A few cases are also written in two other layouts ExecuTorch reads:
// *_region  the hand-made graph's constants in the blob's own constant region, not named data;
// *_inline  the delegate blobs inside the program flatbuffer, not in segments after it.
// Exit status 1 if any case failed to export.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "graph_maker.h"
#include "program_case.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#include "switchyard/export/emit.h"
#include "switchyard/export/lowering.h"

namespace {

using namespace conformance;
namespace ex = sy::export_;

const char* familyName(Lowering l) {
  return l == Lowering::Partitioner ? "partitioner" : l == Lowering::Whole ? "whole" : "hand-made";
}

std::string callsOf(const ex::ExportedProgram& program) {
  std::string calls;
  for (const ex::Node& n : program.graph().nodes()) {
    if (n.kind != ex::NodeKind::CallFunction) continue;
    std::string op = n.op->operator_name().toString();
    if (op == "higher_order::executorch_call_delegate") op = "DELEGATE";
    calls += (calls.empty() ? "" : ",") + op;
  }
  return calls;
}

// The extra layouts, made from cases already in the list.
void addLayoutVariants(CaseList& cases) {
  CaseList variants;
  for (const ProgramCase& c : cases) {
    if (c.name == "blob_prelu" || c.name == "blob_conv_transpose" || c.name == "blob_qint8_linear" ||
        c.name == "blob_qd8_qc8w_linear") {
      ProgramCase v = c;
      v.name += "_region";
      v.placement = xnn::ConstantPlacement::BlobRegion;
      v.notes += "; constants in the blob's constant region, not named data";
      variants.push_back(v);
    }
    if (c.name == "sy_mlp" || c.name == "sy_small_cnn") {
      ProgramCase v = c;
      v.name += "_inline";
      v.inline_blobs = true;
      v.notes += "; delegate blobs inline in Program.backend_delegate_data";
      variants.push_back(v);
    }
  }
  cases.insert(cases.end(), variants.begin(), variants.end());
}

// Captures, lowers and writes one case; returns its manifest line.
std::string writeCase(const ProgramCase& c, const std::string& dir) {
  std::vector<Tensor> examples;
  uint32_t seed = 1000;
  for (const Shape& s : c.inputs) examples.push_back(randomTensor(s, seed++, c.input_low, c.input_high));
  const ex::ExportedProgram captured = c.dynamic.empty() ? ex::capture(c.model, examples, c.params)
                                                         : ex::captureDynamic(c.model, examples, c.dynamic, c.params);
  std::string left_out;
  if (c.lowering == Lowering::Partitioner) {
    for (const auto& l : xnn::XnnpackPartitioner::leftOut(captured)) left_out += (left_out.empty() ? "" : "; ") + l.str();
  }
  const ex::ExportedProgram lowered = c.lowering == Lowering::Partitioner ? ex::to_backend(captured, xnn::XnnpackPartitioner())
                                      : c.lowering == Lowering::Whole     ? ex::to_backend("XnnpackBackend", captured, {})
                                                                          : lowerHandMade(captured, c.hand, c.placement);
  ex::EmitOptions options;
  options.delegate_blobs_in_segments = !c.inline_blobs;
  absl::StatusOr<ex::EmittedProgram> file = ex::emitProgram(lowered, "forward", options);
  if (!file.ok()) throw std::runtime_error("emit: " + std::string(file.status().message()));
  if (absl::Status s = file->save(dir + "/" + c.name + ".pte"); !s.ok()) throw std::runtime_error(std::string(s.message()));

  std::vector<std::vector<Shape>> runs = c.run_shapes;
  if (runs.empty()) runs.assign(3, c.inputs);
  for (size_t k = 0; k < runs.size(); ++k) {
    std::vector<Tensor> inputs;
    uint32_t run_seed = 100 * static_cast<uint32_t>(k + 1);
    for (const Shape& s : runs[k]) inputs.push_back(randomTensor(s, run_seed++, c.input_low, c.input_high));
    const std::string stem = dir + "/" + c.name;
    writeTensorFile(stem + ".in" + std::to_string(k + 1) + ".txt", inputs);
    writeTensorFile(stem + ".eager" + std::to_string(k + 1) + ".txt", c.model(inputs));
  }
  char tolerances[64];
  std::snprintf(tolerances, sizeof(tolerances), "%g\t%g", c.tolerance, c.agreement);
  return c.name + "\t" + familyName(c.lowering) + "\t" + tolerances + "\t" + callsOf(lowered) + "\t" + c.notes +
         (left_out.empty() ? "" : " [left to portable kernels: " + left_out + "]");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_programs OUT_DIR [NAME_SUBSTRING]\n");
    return 2;
  }
  const std::string dir = argv[1], only = argc > 2 ? argv[2] : "";
  CaseList cases;
  addExportedModels(cases);
  addElementwiseBlobs(cases);
  addLayoutBlobs(cases);
  addQuantizedBlobs(cases);
  addUnsupportedBlobs(cases);
  addLayoutVariants(cases);

  std::ofstream manifest(dir + "/manifest.tsv");
  int failed = 0;
  for (const ProgramCase& c : cases) {
    if (!only.empty() && c.name.find(only) == std::string::npos) continue;
    try {
      manifest << writeCase(c, dir) << "\n";
      std::printf("wrote %s (%s)\n", c.name.c_str(), familyName(c.lowering));
    } catch (const std::exception& e) {
      ++failed;
      std::printf("FAILED %s: %s\n", c.name.c_str(), e.what());
      manifest << c.name << "\tEXPORT-FAILED\t0\t0\t-\t" << e.what() << "\n";
    }
  }
  return failed == 0 ? 0 : 1;
}
