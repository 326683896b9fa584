// A bounded mutation fuzz of the loader and the kernels a program reaches: a fixed number of
// corrupted variants (fixed seed) of valid programs are loaded, inspected, and when they load,
// their methods are loaded and run. The seeds are every reference program ExecuTorch wrote (the
// files under ../shared/programs and wild/ of up to 64 KiB and 1 MiB of planned memory) and programs built here around the
// arguments hostile files have used: a planned DYNAMIC_UNBOUND tensor, a Bool sharing a Float's
// planned bytes, pooling and convolution with their size arguments, slicing, expanding and ranges.
// Every variant must come back as a value or an absl::Status error, never a crash or a hang; under
// ASan+UBSan (./test.sh) any out-of-bounds access or overflow fails the run. Memory the kernels
// allocate is capped, so a mutated size is an error rather than gigabytes filled.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/storage.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"
#include "test_support.h"

namespace sy {
namespace {

using testing::ProgramBuilder;

// Variants per run: about two seconds in the Release build; sanitizer builds run a fifth of them.
#if SY_TEST_SANITIZED
constexpr int kFuzzedPrograms = 6000;
#else
constexpr int kFuzzedPrograms = 30000;
#endif

std::vector<uint8_t> builtArithmetic() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 0);
  int c = b.constantTensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  int y = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 32);
  int flag = b.boolValue(true);
  int dims = b.intList({b.intValue(1)});
  b.doubleList({0.5, 1.5});
  b.tensorList({x, y});
  b.jumpFalseCall(flag, 2);
  b.kernelCall(b.op("aten::add", "out"), {x, c, b.intValue(1), y, y});
  b.kernelCall(b.op("aten::mul", "out"), {y, c, y, y});
  b.moveCall(dims, dims);
  b.inputs({x, flag}).outputs({y}).bufferSizes({0, 64});
  return b.finish();
}

std::vector<uint8_t> builtDelegateAndSegment() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0, {}, pte::TensorShapeDynamism::DYNAMIC_UNBOUND);
  b.constantTensor<int64_t>(ScalarType::Long, {2}, {7, 8});
  b.delegate("NoSuchBackend", {1, 2, 3, 4}, {{"key", {9}}}, /*in_segment=*/true);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(2), x, x});
  b.constantsInSegment().inputs({x}).outputs({x}).bufferSizes({0, 16});
  return b.finish();
}

// A Bool tensor over a Float input's planned bytes, read by where, _to_copy, sum and eq.
std::vector<uint8_t> builtSharedBool() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int mask = b.plannedTensor(ScalarType::Bool, {8}, 1, 0);
  int as_float = b.plannedTensor(ScalarType::Float, {8}, 1, 16);
  int picked = b.plannedTensor(ScalarType::Float, {8}, 1, 48);
  int count = b.plannedTensor(ScalarType::Long, {}, 1, 80);
  int same = b.plannedTensor(ScalarType::Bool, {8}, 1, 88);
  int ones = b.constantTensor<float>(ScalarType::Float, {8}, std::vector<float>(8, 1.0f));
  b.kernelCall(b.op("aten::_to_copy", "out"), {mask, b.boolValue(false), b.noneValue(), as_float, as_float});
  b.kernelCall(b.op("aten::where", "self_out"), {mask, ones, as_float, picked, picked});
  b.kernelCall(b.op("aten::sum", "IntList_out"), {mask, b.noneValue(), b.boolValue(false), b.noneValue(), count, count});
  b.kernelCall(b.op("aten::eq", "Tensor_out"), {mask, same, same, same});
  b.inputs({x}).outputs({picked, count, same}).bufferSizes({0, 96});
  return b.finish();
}

// max_pool2d_with_indices and avg_pool2d (ceil_mode, padding) of a (1, 1, 4, 4) input, their size
// arguments as Int values.
std::vector<uint8_t> builtPooling() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1, 1, 4, 4}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {1, 1, 2, 3}, 1, 64);
  int indices = b.plannedTensor(ScalarType::Long, {1, 1, 2, 3}, 1, 88);
  int averaged = b.plannedTensor(ScalarType::Float, {1, 1, 2, 3}, 1, 136);
  int two = b.intValue(2);
  int kernel = b.intList({two, b.intValue(2)});
  int stride = b.intList({b.intValue(2), b.intValue(2)});
  int padding = b.intList({b.intValue(0), b.intValue(1)});
  int dilation = b.intList({b.intValue(1), b.intValue(1)});
  int ceil_mode = b.boolValue(true);
  b.kernelCall(b.op("aten::max_pool2d_with_indices", "out"),
               {x, kernel, stride, padding, dilation, ceil_mode, out, indices, out, indices});
  b.kernelCall(b.op("aten::avg_pool2d", "out"),
               {x, kernel, stride, padding, ceil_mode, b.boolValue(true), b.intValue(3), averaged, averaged});
  b.inputs({x}).outputs({out, indices, averaged}).bufferSizes({0, 160});
  return b.finish();
}

// convolution of a (1, 1, 4, 4) input with a 2x2 kernel, its stride, padding, dilation and groups
// as Int values.
std::vector<uint8_t> builtConvolution() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1, 1, 4, 4}, 1, 0);
  int weight = b.constantTensor<float>(ScalarType::Float, {1, 1, 2, 2}, {1, -1, 2, 0.5f});
  int bias = b.constantTensor<float>(ScalarType::Float, {1}, {0.25f});
  int out = b.plannedTensor(ScalarType::Float, {1, 1, 3, 3}, 1, 64);
  int stride = b.intList({b.intValue(1), b.intValue(1)});
  int padding = b.intList({b.intValue(0), b.intValue(0)});
  int dilation = b.intList({b.intValue(1), b.intValue(1)});
  int output_padding = b.intList({b.intValue(0), b.intValue(0)});
  b.kernelCall(b.op("aten::convolution", "out"), {x, weight, bias, stride, padding, dilation, b.boolValue(false),
                                                   output_padding, b.intValue(1), out, out});
  b.inputs({x}).outputs({out}).bufferSizes({0, 112});
  return b.finish();
}

// slice_copy with a step, expand_copy, arange and cat, their sizes and bounds as Int values.
std::vector<uint8_t> builtShapes() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4, 2}, 1, 0);
  int sliced = b.plannedTensor(ScalarType::Float, {2, 2}, 1, 32);
  int expanded = b.plannedTensor(ScalarType::Float, {3, 4, 2}, 1, 48);
  int range = b.plannedTensor(ScalarType::Long, {4}, 1, 144);
  int joined = b.plannedTensor(ScalarType::Float, {8, 2}, 1, 176);
  b.kernelCall(b.op("aten::slice_copy", "Tensor_out"),
               {x, b.intValue(0), b.intValue(1), b.intValue(4), b.intValue(2), sliced, sliced});
  b.kernelCall(b.op("aten::expand_copy", "out"),
               {x, b.intList({b.intValue(3), b.intValue(-1), b.intValue(2)}), b.boolValue(false), expanded, expanded});
  b.kernelCall(b.op("aten::arange", "start_out"), {b.intValue(-3), b.intValue(5), b.intValue(2), range, range});
  b.kernelCall(b.op("aten::cat", "out"), {b.tensorList({x, x}), b.intValue(0), joined, joined});
  b.inputs({x}).outputs({sliced, expanded, range, joined}).bufferSizes({0, 240});
  return b.finish();
}

// The planned memory of a program's methods: a seed that plans hundreds of megabytes (one of the
// wild programs expands to 512 MiB) would spend the run filling it.
uint64_t plannedBytes(const std::vector<uint8_t>& bytes) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes);
  uint64_t total = 0;
  for (const std::string& name : program.ok() ? program->method_names() : std::vector<std::string>{}) {
    absl::StatusOr<MethodMeta> meta = program->method_meta(name);
    for (int64_t size : meta.ok() ? meta->planned_buffer_sizes : std::vector<int64_t>{}) total += static_cast<uint64_t>(size);
  }
  return total;
}

std::vector<std::vector<uint8_t>> fuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds = {builtArithmetic(), builtDelegateAndSegment(), builtSharedBool(),
                                             builtPooling(),    builtConvolution(),        builtShapes()};
  std::vector<std::string> files;
  for (const std::string& dir : {testing::referenceProgramsDir(), testing::referenceProgramsDir() + "/wild"}) {
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".pte" && entry.file_size() <= (64u << 10)) files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());  // the directory's order is not the same everywhere
  for (const std::string& file : files) {
    std::vector<uint8_t> bytes = testing::readFile(file);
    if (plannedBytes(bytes) <= (1u << 20)) seeds.push_back(std::move(bytes));
  }
  return seeds;
}

void mutate(std::vector<uint8_t>& bytes, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !bytes.empty(); ++e) {
    const size_t at = rng() % bytes.size();
    switch (rng() % 6) {
      case 0: bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      case 1: bytes[at] = static_cast<uint8_t>(rng()); break;
      case 2: {  // a 32-bit field to a boundary value
        static const uint32_t kEdges[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0, 64, 255};
        const uint32_t v = kEdges[rng() % 8];
        if (at + 4 <= bytes.size()) std::memcpy(bytes.data() + at, &v, 4);
        break;
      }
      case 3: {  // a 64-bit field (an Int value, an offset) to a boundary value
        static const uint64_t kEdges[] = {uint64_t{1} << 62 | 1, uint64_t{1} << 40, ~uint64_t{0} >> 1,
                                          uint64_t{1} << 63,     ~uint64_t{0},      uint64_t{1} << 31};
        const uint64_t v = kEdges[rng() % 6];
        if (at + 8 <= bytes.size()) std::memcpy(bytes.data() + at, &v, 8);
        break;
      }
      case 4: bytes.resize(at); break;  // truncate
      default: if (at + 1 < bytes.size()) std::swap(bytes[at], bytes[at + 1]); break;
    }
  }
}

// The CPU allocator with a cap: a kernel that a mutated size sends to allocate more fails with an
// sy::Error, as it would on a machine without that much memory, instead of filling this one's.
class CappedAllocator final : public Allocator {
 public:
  static constexpr size_t kCap = size_t{64} << 20;
  explicit CappedAllocator(Allocator* inner) : inner_(inner) {}
  DataPtr allocate(size_t nbytes) override {
    SY_CHECK(nbytes <= kCap, "the fuzz test's allocator refuses ", nbytes, " bytes (more than ", kCap, ")");
    return inner_->allocate(nbytes);
  }

 private:
  Allocator* inner_;
};

// Installs a CappedAllocator for the CPU while it lives.
class CapCpuAllocations {
 public:
  CapCpuAllocations() : previous_(getAllocator(DeviceType::CPU)) {
    static CappedAllocator capped(previous_);  // outlives every tensor it allocates
    setAllocator(DeviceType::CPU, &capped);
  }
  ~CapCpuAllocations() { setAllocator(DeviceType::CPU, previous_); }

 private:
  Allocator* previous_;
};

TEST(ProgramFuzz, CorruptedProgramsAreErrorsNeverCrashes) {
  const std::vector<std::vector<uint8_t>> seeds = fuzzSeeds();
  const CapCpuAllocations cap;
  std::mt19937_64 rng(20240614);
  int loaded = 0, ran = 0;
  for (int tried = 0; tried < kFuzzedPrograms; ++tried) {
    std::vector<uint8_t> bytes = seeds[rng() % seeds.size()];
    mutate(bytes, rng);
    absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "fuzzed.pte");
    if (!program.ok()) {
      EXPECT_FALSE(program.status().message().empty());
      continue;
    }
    ++loaded;
    for (const std::string& name : program->method_names()) {
      (void)program->method_meta(name);
      absl::StatusOr<Method> method = program->load_method(name);
      if (!method.ok()) continue;
      absl::Status status = method->execute();  // a kernel may refuse its arguments: an error, not a crash
      ran += status.ok();
    }
  }
  EXPECT_GT(loaded, kFuzzedPrograms / 20);
  RecordProperty("loaded", loaded);
  RecordProperty("ran", ran);
  std::printf("fuzzed %d programs from %zu seeds: %d loaded, %d methods ran to completion\n", kFuzzedPrograms,
              seeds.size(), loaded, ran);
}

TEST(ProgramFuzz, CorruptedDataFilesAreErrorsNeverCrashes) {
  std::vector<uint8_t> seed = testing::readFile(testing::referenceProgram("xor.ptd"));
  if (seed.empty()) GTEST_SKIP() << "reference data file xor.ptd is absent";
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> bytes = seed;
    mutate(bytes, rng);
    absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(bytes, "fuzzed.ptd");
    if (data.ok()) {
      for (const DataFile::Entry& e : (*data)->entries()) {
        volatile uint8_t sink = 0;
        for (uint8_t b : e.bytes) sink ^= b;  // every byte an entry claims is readable
      }
    }
  }
}

}  // namespace
}  // namespace sy
