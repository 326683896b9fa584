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

#include "switchyard/program/program.h"
#include "switchyard/switchyard.h"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "sy_runner: %s\n", what.c_str());
  std::exit(1);
}

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
    case sy::ScalarType::Float: t.data_ptr<float>()[i] = std::strtof(text.c_str(), nullptr); break;
    case sy::ScalarType::Double: t.data_ptr<double>()[i] = std::strtod(text.c_str(), nullptr); break;
    case sy::ScalarType::Long: t.data_ptr<int64_t>()[i] = std::strtoll(text.c_str(), nullptr, 10); break;
    case sy::ScalarType::Int: t.data_ptr<int32_t>()[i] = static_cast<int32_t>(std::strtol(text.c_str(), nullptr, 10)); break;
    default: t.data_ptr<bool>()[i] = text == "1" || text == "true"; break;
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
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.scalar_type()) {
      case sy::ScalarType::Float: std::fprintf(f, " %.9g", static_cast<double>(t.data_ptr<float>()[i])); break;
      case sy::ScalarType::Double: std::fprintf(f, " %.17g", t.data_ptr<double>()[i]); break;
      case sy::ScalarType::Long: std::fprintf(f, " %" PRId64, t.data_ptr<int64_t>()[i]); break;
      case sy::ScalarType::Int: std::fprintf(f, " %d", t.data_ptr<int32_t>()[i]); break;
      case sy::ScalarType::Bool: std::fprintf(f, " %d", t.data_ptr<bool>()[i] ? 1 : 0); break;
      default: fail("unsupported output dtype " + name);
    }
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
    else if (v.isInt()) std::fprintf(f, "Int - %" PRId64 "\n", v.toInt());
    else if (v.isDouble()) std::fprintf(f, "Double - %.17g\n", v.toDouble());
    else if (v.isBool()) std::fprintf(f, "Bool - %d\n", v.toBool() ? 1 : 0);
    else std::fprintf(f, "None - 0\n");
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  std::string program_path, inputs_path, outputs_path, method_name = "forward";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--inputs" && has_value) inputs_path = argv[++i];
    else if (arg == "--outputs" && has_value) outputs_path = argv[++i];
    else if (arg == "--method" && has_value) method_name = argv[++i];
    else if (program_path.empty() && arg.rfind("--", 0) != 0) program_path = arg;
    else fail("usage: sy_runner PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method NAME]");
  }
  if (program_path.empty()) fail("usage: sy_runner PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method NAME]");

  absl::StatusOr<sy::Program> program = sy::Program::load(program_path);
  if (!program.ok()) fail("load: " + std::string(program.status().message()));
  absl::StatusOr<sy::Method> method = program->load_method(method_name, sy::MethodOptions{});
  if (!method.ok()) fail("load_method: " + std::string(method.status().message()));
  std::vector<sy::IValue> inputs;
  if (!inputs_path.empty()) inputs = readInputs(inputs_path);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const absl::Status s = method->set_input(i, inputs[i]);
    if (!s.ok()) fail("set_input(" + std::to_string(i) + "): " + std::string(s.message()));
  }
  const absl::Status s = method->execute();
  if (!s.ok()) fail("execute: " + std::string(s.message()));
  if (!outputs_path.empty()) writeOutputs(*method, outputs_path);
  return 0;
}
