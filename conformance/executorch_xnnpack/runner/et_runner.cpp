// et_runner: runs one ExecuTorch program once with ExecuTorch's own runtime (and whatever delegates
// are linked in: here ExecuTorch's XNNPACK delegate), reading the inputs from a text file and
// writing the outputs to another. Derived from the project's et_bench tool
// (/work/shared/tools/executorch_runtime/et_bench.cpp), without its timing loop.
//
//   et_runner PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method forward]
//
// Text format, one file per run: the number of values on the first line, then a line per value,
//   DTYPE NDIM SIZE... NUMEL VALUE...      (a tensor; DTYPE Float, Double, Long, Int or Bool)
//   DTYPE - VALUE                           (a scalar: Int, Double or Bool)
// Floats are written with 9 significant digits, which round-trips a float32 exactly.
//
// RUNNER_VERIFICATION (a compile definition, default Minimal) is the Program::Verification level
// Program::load runs: InternalConsistency adds flatbuffers' verifier over the whole file.
// Exit status 0 on success; on failure a message on stderr, after ExecuTorch's own log lines.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "runner_text.h"

#ifndef RUNNER_VERIFICATION
#define RUNNER_VERIFICATION Minimal
#endif

namespace et = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;

namespace {

using runner_text::fail;

std::string errorText(et::Error e) {
  char text[32];
  std::snprintf(text, sizeof(text), "error 0x%x", static_cast<unsigned>(e));
  return text;
}

struct DtypeInfo {
  const char* name;
  ScalarType type;
  size_t bytes;
};
constexpr DtypeInfo kDtypes[] = {{"Float", ScalarType::Float, 4}, {"Double", ScalarType::Double, 8},
                                 {"Long", ScalarType::Long, 8},   {"Int", ScalarType::Int, 4},
                                 {"Bool", ScalarType::Bool, 1}};

const DtypeInfo& dtypeByName(const std::string& name) {
  for (const DtypeInfo& d : kDtypes)
    if (name == d.name) return d;
  fail("unsupported dtype " + name);
}

const char* dtypeName(ScalarType t) {
  for (const DtypeInfo& d : kDtypes)
    if (d.type == t) return d.name;
  return nullptr;
}

// One input value with the storage its TensorImpl points into.
struct Input {
  std::string dtype, scalar;
  bool tensor = true;
  std::vector<TensorImpl::SizesType> sizes;
  std::vector<TensorImpl::DimOrderType> dim_order;
  std::vector<unsigned char> data;
  std::unique_ptr<TensorImpl> impl;
};

template <class T>
void storeAs(const std::string& text, unsigned char* dst) {
  const T v = runner_text::parseElement<T>(text);
  std::memcpy(dst, &v, sizeof(T));
}

void storeValue(const DtypeInfo& d, const std::string& text, unsigned char* dst) {
  switch (d.type) {
    case ScalarType::Float: storeAs<float>(text, dst); break;
    case ScalarType::Double: storeAs<double>(text, dst); break;
    case ScalarType::Long: storeAs<int64_t>(text, dst); break;
    case ScalarType::Int: storeAs<int32_t>(text, dst); break;
    default: storeAs<bool>(text, dst); break;
  }
}

std::vector<Input> readInputs(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  size_t count = 0;
  in >> count;
  std::vector<Input> inputs(count);
  for (Input& x : inputs) {
    std::string rank;
    in >> x.dtype >> rank;
    if (rank == "-") {
      x.tensor = false;
      in >> x.scalar;
      continue;
    }
    const DtypeInfo& d = dtypeByName(x.dtype);
    x.sizes.resize(std::stoul(rank));
    for (auto& s : x.sizes) in >> s;
    for (size_t i = 0; i < x.sizes.size(); ++i) x.dim_order.push_back(static_cast<TensorImpl::DimOrderType>(i));
    size_t numel = 0;
    in >> numel;
    x.data.assign(numel * d.bytes + 1, 0);  // never empty: a zero-size tensor still needs a pointer
    for (size_t i = 0; i < numel; ++i) {
      std::string text;
      in >> text;
      storeValue(d, text, x.data.data() + i * d.bytes);
    }
    if (!in) fail("malformed input file " + path);
    x.impl = std::make_unique<TensorImpl>(d.type, static_cast<ssize_t>(x.sizes.size()), x.sizes.data(),
                                          x.data.data(), x.dim_order.data());
  }
  return inputs;
}

void setInputs(et::Method& method, std::vector<Input>& inputs) {
  if (inputs.size() != method.inputs_size())
    fail("the method takes " + std::to_string(method.inputs_size()) + " inputs, the file has " +
         std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    Input& x = inputs[i];
    et::EValue value;
    if (x.tensor) value = et::EValue(Tensor(x.impl.get()));
    else if (x.dtype == "Int") value = et::EValue(static_cast<int64_t>(std::stoll(x.scalar)));
    else if (x.dtype == "Double") value = et::EValue(std::stod(x.scalar));
    else if (x.dtype == "Bool") value = et::EValue(x.scalar == "1" || x.scalar == "true");
    else fail("unsupported scalar input " + x.dtype);
    const et::Error e = method.set_input(value, i);
    if (e != et::Error::Ok) fail("set_input(" + std::to_string(i) + ") failed: " + errorText(e));
  }
}

void writeTensor(FILE* f, const Tensor& t) {
  const char* name = dtypeName(t.scalar_type());
  if (!name) fail("unsupported output dtype " + std::to_string(static_cast<int>(t.scalar_type())));
  std::fprintf(f, "%s %zd", name, static_cast<ssize_t>(t.dim()));
  for (auto s : t.sizes()) std::fprintf(f, " %d", static_cast<int>(s));
  std::fprintf(f, " %zd", static_cast<ssize_t>(t.numel()));
  switch (t.scalar_type()) {
    case ScalarType::Float: runner_text::writeElements(f, t.const_data_ptr<float>(), t.numel()); break;
    case ScalarType::Double: runner_text::writeElements(f, t.const_data_ptr<double>(), t.numel()); break;
    case ScalarType::Long: runner_text::writeElements(f, t.const_data_ptr<int64_t>(), t.numel()); break;
    case ScalarType::Int: runner_text::writeElements(f, t.const_data_ptr<int32_t>(), t.numel()); break;
    default: runner_text::writeElements(f, t.const_data_ptr<bool>(), t.numel()); break;
  }
  std::fprintf(f, "\n");
}

void writeOutputs(const et::Method& method, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) fail("cannot write " + path);
  std::fprintf(f, "%zu\n", method.outputs_size());
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const et::EValue& v = method.get_output(i);
    if (v.isTensor()) writeTensor(f, v.toTensor());
    else runner_text::writeScalarLine(f, v);
  }
  std::fclose(f);
}

}  // namespace

const char* const runner_text::kTool = "et_runner";

int main(int argc, char** argv) {
  const runner_text::Args args = runner_text::parseArgs(argc, argv);
  et::runtime_init();
  et::Result<executorch::extension::FileDataLoader> loader =
      executorch::extension::FileDataLoader::from(args.program.c_str());
  if (!loader.ok()) fail("cannot open " + args.program);
  et::Result<et::Program> program = et::Program::load(&loader.get(), et::Program::Verification::RUNNER_VERIFICATION);
  if (!program.ok()) fail("Program::load failed: " + errorText(program.error()));

  et::Result<et::MethodMeta> meta = program->method_meta(args.method.c_str());
  if (!meta.ok()) fail("no method " + args.method);
  // Arenas for the method's own structures and for delegates' scratch, and the planned buffers.
  static unsigned char method_arena[8 << 20], temp_arena[8 << 20];
  et::MemoryAllocator method_allocator(sizeof(method_arena), method_arena);
  et::MemoryAllocator temp_allocator(sizeof(temp_arena), temp_arena);
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<et::Span<uint8_t>> spans;
  for (size_t id = 0; id < meta->num_memory_planned_buffers(); ++id) {
    buffers.emplace_back(static_cast<size_t>(meta->memory_planned_buffer_size(id).get()));
    spans.emplace_back(buffers.back().data(), buffers.back().size());
  }
  et::HierarchicalAllocator planned({spans.data(), spans.size()});
  et::MemoryManager memory(&method_allocator, &planned, &temp_allocator);

  et::Result<et::Method> method = program->load_method(args.method.c_str(), &memory);
  if (!method.ok()) fail("load_method failed: " + errorText(method.error()));
  std::vector<Input> inputs;
  if (!args.inputs.empty()) inputs = readInputs(args.inputs);
  setInputs(*method, inputs);
  const et::Error e = method->execute();
  if (e != et::Error::Ok) fail("execute failed: " + errorText(e));
  if (!args.outputs.empty()) writeOutputs(*method, args.outputs);
  return 0;
}
