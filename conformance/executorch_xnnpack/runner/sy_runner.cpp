// sy_runner: runs one ExecuTorch program once with Switchyard's program runtime (sy::Program,
// sy::Method, with Switchyard's own XNNPACK delegate), with the same command line and text format
// as et_runner.cpp, so that compare.py can set the two runtimes' outputs side by side.
// Derived from the project's sy_bench tool (/work/shared/tools/executorch_runtime/sy_bench.cpp).
//
//   sy_runner PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method forward]
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "runner_text.h"
#include "switchyard/program/program.h"
#include "switchyard/switchyard.h"

namespace {

using runner_text::fail;
using runner_text::parseElement;

sy::ScalarType dtypeByName(const std::string& name) {
  if (name == "Float") return sy::ScalarType::Float;
  if (name == "Double") return sy::ScalarType::Double;
  if (name == "Long") return sy::ScalarType::Long;
  if (name == "Int") return sy::ScalarType::Int;
  if (name == "Bool") return sy::ScalarType::Bool;
  fail("unsupported dtype " + name);
}

void storeValue(sy::Tensor& t, size_t i, const std::string& text) {
  switch (t.scalar_type()) {
    case sy::ScalarType::Float: t.data_ptr<float>()[i] = parseElement<float>(text); break;
    case sy::ScalarType::Double: t.data_ptr<double>()[i] = parseElement<double>(text); break;
    case sy::ScalarType::Long: t.data_ptr<int64_t>()[i] = parseElement<int64_t>(text); break;
    case sy::ScalarType::Int: t.data_ptr<int32_t>()[i] = parseElement<int32_t>(text); break;
    default: t.data_ptr<bool>()[i] = parseElement<bool>(text); break;
  }
}

std::vector<sy::IValue> readInputs(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  size_t count = 0;
  in >> count;
  std::vector<sy::IValue> values;
  for (size_t k = 0; k < count; ++k) {
    std::string dtype, rank;
    in >> dtype >> rank;
    if (rank == "-") {
      std::string text;
      in >> text;
      if (dtype == "Int") values.emplace_back(static_cast<int64_t>(std::stoll(text)));
      else if (dtype == "Double") values.emplace_back(std::stod(text));
      else if (dtype == "Bool") values.emplace_back(text == "1" || text == "true");
      else fail("unsupported scalar input " + dtype);
      continue;
    }
    std::vector<int64_t> sizes(std::stoul(rank));
    for (auto& s : sizes) in >> s;
    size_t numel = 0;
    in >> numel;
    sy::Tensor t = sy::empty(sizes, sy::TensorOptions().dtype(dtypeByName(dtype)));
    for (size_t i = 0; i < numel; ++i) {
      std::string text;
      in >> text;
      storeValue(t, i, text);
    }
    if (!in) fail("malformed input file " + path);
    values.emplace_back(std::move(t));
  }
  return values;
}

void writeTensor(FILE* f, const sy::Tensor& t) {
  if (!t.is_contiguous()) fail("an output is not contiguous");
  const std::string name(sy::toString(t.scalar_type()));
  std::fprintf(f, "%s %zu", name.c_str(), static_cast<size_t>(t.sizes().size()));
  for (auto s : t.sizes()) std::fprintf(f, " %" PRId64, static_cast<int64_t>(s));
  std::fprintf(f, " %" PRId64, static_cast<int64_t>(t.numel()));
  switch (t.scalar_type()) {
    case sy::ScalarType::Float: runner_text::writeElements(f, t.data_ptr<float>(), t.numel()); break;
    case sy::ScalarType::Double: runner_text::writeElements(f, t.data_ptr<double>(), t.numel()); break;
    case sy::ScalarType::Long: runner_text::writeElements(f, t.data_ptr<int64_t>(), t.numel()); break;
    case sy::ScalarType::Int: runner_text::writeElements(f, t.data_ptr<int32_t>(), t.numel()); break;
    case sy::ScalarType::Bool: runner_text::writeElements(f, t.data_ptr<bool>(), t.numel()); break;
    default: fail("unsupported output dtype " + name);
  }
  std::fprintf(f, "\n");
}

void writeOutputs(const sy::Method& method, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) fail("cannot write " + path);
  std::fprintf(f, "%zu\n", method.outputs_size());
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const sy::IValue& v = method.get_output(i);
    if (v.isTensor()) writeTensor(f, v.toTensor());
    else runner_text::writeScalarLine(f, v);
  }
  std::fclose(f);
}

}  // namespace

const char* const runner_text::kTool = "sy_runner";

int main(int argc, char** argv) {
  const runner_text::Args args = runner_text::parseArgs(argc, argv);
  absl::StatusOr<sy::Program> program = sy::Program::load(args.program);
  if (!program.ok()) fail("load: " + std::string(program.status().message()));
  absl::StatusOr<sy::Method> method = program->load_method(args.method, sy::MethodOptions{});
  if (!method.ok()) fail("load_method: " + std::string(method.status().message()));
  std::vector<sy::IValue> inputs;
  if (!args.inputs.empty()) inputs = readInputs(args.inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const absl::Status s = method->set_input(i, inputs[i]);
    if (!s.ok()) fail("set_input(" + std::to_string(i) + "): " + std::string(s.message()));
  }
  const absl::Status s = method->execute();
  if (!s.ok()) fail("execute: " + std::string(s.message()));
  if (!args.outputs.empty()) writeOutputs(*method, args.outputs);
  return 0;
}
