// A bounded mutation fuzz of the loader: thousands of corrupted variants of valid programs (built
// ones and ExecuTorch's) are loaded, inspected, and when they load, their methods are loaded and
// run. Every one must come back as a value or an absl::Status error, never a crash; under
// ASan+UBSan (./test.sh) any out-of-bounds read or overflow fails the run. Fixed seed, a time limit.
#include <chrono>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"

namespace sy {
namespace {

using testing::ProgramBuilder;

std::vector<std::vector<uint8_t>> seedPrograms() {
  std::vector<std::vector<uint8_t>> seeds;
  {
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
    seeds.push_back(b.finish());
  }
  {
    ProgramBuilder b;
    int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0);
    b.constantTensor<int64_t>(ScalarType::Long, {2}, {7, 8});
    b.delegate("NoSuchBackend", {1, 2, 3, 4}, {{"key", {9}}}, /*in_segment=*/true);
    b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(2), x, x});
    b.constantsInSegment().inputs({x}).outputs({x}).bufferSizes({0, 16});
    seeds.push_back(b.finish());
  }
  for (const char* file : {"add.pte", "add_constant_segment.pte", "module_linear.pte", "mean_eq_where.pte",
                           "maxpool2d.pte", "xor_training.pte"}) {
    std::vector<uint8_t> bytes = testing::readFile(testing::referenceProgram(file));
    if (!bytes.empty()) seeds.push_back(std::move(bytes));
  }
  return seeds;
}

void mutate(std::vector<uint8_t>& bytes, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !bytes.empty(); ++e) {
    const size_t at = rng() % bytes.size();
    switch (rng() % 5) {
      case 0: bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      case 1: bytes[at] = static_cast<uint8_t>(rng()); break;
      case 2: {  // a 32-bit field to a boundary value
        static const uint32_t kEdges[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0, 64, 255};
        const uint32_t v = kEdges[rng() % 8];
        if (at + 4 <= bytes.size()) std::memcpy(bytes.data() + at, &v, 4);
        break;
      }
      case 3: bytes.resize(at); break;  // truncate
      default: if (at + 1 < bytes.size()) std::swap(bytes[at], bytes[at + 1]); break;
    }
  }
}

TEST(ProgramFuzz, CorruptedProgramsAreErrorsNeverCrashes) {
  const std::vector<std::vector<uint8_t>> seeds = seedPrograms();
  std::mt19937_64 rng(20240614);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int tried = 0, loaded = 0, ran = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<uint8_t> bytes = seeds[rng() % seeds.size()];
    mutate(bytes, rng);
    ++tried;
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
  EXPECT_GT(tried, 100);
  RecordProperty("tried", tried);
  RecordProperty("loaded", loaded);
  RecordProperty("ran", ran);
  std::printf("fuzzed %d programs: %d loaded, %d methods ran to completion\n", tried, loaded, ran);
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
