// Data files as ExecuTorch has written them: today's layout (named data with tensor layouts) and
// ExecuTorch 0.6's (a tensors table; See Note [Data files of ExecuTorch 0.6]), both read into the
// same entries and usable by a method's external tensors; and files, programs included, whose
// format version is newer than this build knows, refused naming both versions.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/data_file_builder.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::DataFileBuilder;

std::vector<uint8_t> floatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Two tensors (w: Float[2, 2], b: Float[2]) and an untyped blob.
DataFileBuilder layoutsTestFile() {
  DataFileBuilder b;
  b.tensor("linear.weight", ScalarType::Float, {2, 2}, floatBytes({1, 2, 3, 4}))
      .tensor("linear.bias", ScalarType::Float, {2}, floatBytes({10, 20}))
      .blob("scale", {7, 7, 7});
  return b;
}

class DataFileLayouts : public ::testing::TestWithParam<DataFileBuilder::Layout> {};

TEST_P(DataFileLayouts, AreReadIntoTheSameEntries) {
  const bool old = GetParam() == DataFileBuilder::Layout::V0_6;
  absl::StatusOr<std::shared_ptr<const DataFile>> data =
      DataFile::loadFromBuffer(layoutsTestFile().finish(GetParam()), "weights.ptd");
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ((*data)->layout(), old ? "ExecuTorch 0.6 (a tensors table)" : "ExecuTorch 1.x (named data)");
  EXPECT_EQ((*data)->version(), 0u);
  const DataFile::Entry* w = (*data)->find("linear.weight");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->dtype, ProgramScalarType::Float);
  EXPECT_EQ(w->sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(std::vector<uint8_t>(w->bytes.begin(), w->bytes.end()), floatBytes({1, 2, 3, 4}));
  const DataFile::Entry* bias = (*data)->find("linear.bias");
  ASSERT_NE(bias, nullptr);
  // In 0.6 both tensors share a segment: the entry is the tensor's bytes, not the rest of it.
  EXPECT_EQ(std::vector<uint8_t>(bias->bytes.begin(), bias->bytes.end()), floatBytes({10, 20}));
  const DataFile::Entry* scale = (*data)->find("scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_FALSE(scale->dtype.has_value());
  EXPECT_EQ(std::vector<uint8_t>(scale->bytes.begin(), scale->bytes.end()), (std::vector<uint8_t>{7, 7, 7}));
}

// y = x @ w^T + b with w and b from the data file.
TEST_P(DataFileLayouts, FeedAMethodsExternalTensors) {
  testing::ProgramBuilder p;
  int x = p.plannedTensor(ScalarType::Float, {1, 2}, 1, 0);
  int w = p.externalTensor(ScalarType::Float, {2, 2}, "linear.weight");
  int b = p.externalTensor(ScalarType::Float, {2}, "linear.bias");
  int y = p.plannedTensor(ScalarType::Float, {1, 2}, 1, 16);
  p.kernelCall(p.op("aten::linear", "out"), {x, w, b, y, y});
  p.inputs({x}).outputs({y}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(p.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(layoutsTestFile().finish(GetParam()));
  ASSERT_TRUE(data.ok()) << data.status();
  MethodOptions options;
  options.data_files = {*data};
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 1}, {1, 2})).ok());
  absl::Status s = m->execute();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(testing::valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{13, 27}));
}

// out = _to_copy(w) as Float, with w a Half tensor of the data file.
TEST_P(DataFileLayouts, FeedAMethodTensorsOfReducedPrecisionTypes) {
  const std::vector<uint16_t> half_bits = {0x3C00, 0xC000, 0x7BFF, 0x0001};  // 1, -2, 65504, 2^-24
  std::vector<uint8_t> bytes(half_bits.size() * sizeof(uint16_t));
  std::memcpy(bytes.data(), half_bits.data(), bytes.size());
  DataFileBuilder file;
  file.tensor("w.half", ScalarType::Half, {4}, bytes);
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(file.finish(GetParam()));
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ((*data)->find("w.half")->dtype, ProgramScalarType::Half);
  testing::ProgramBuilder p;
  const int w = p.externalTensor(ScalarType::Half, {4}, "w.half");
  const int out = p.plannedTensor(ScalarType::Float, {4}, 1, 0);
  p.kernelCall(p.op("aten::_to_copy", "out"), {w, p.boolValue(false), p.noneValue(), out, out});
  p.outputs({out, w}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(p.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  MethodOptions options;
  options.data_files = {*data};
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(testing::valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{1, -2, 65504, 0x1p-24f}));
  const Tensor weights = m->get_output(1).toTensor();
  ASSERT_EQ(weights.scalar_type(), ScalarType::Half);
  EXPECT_EQ(std::memcmp(weights.data_ptr(), half_bits.data(), bytes.size()), 0);
}

INSTANTIATE_TEST_SUITE_P(Layouts, DataFileLayouts,
                         ::testing::Values(DataFileBuilder::Layout::Current, DataFileBuilder::Layout::V0_6),
                         [](const ::testing::TestParamInfo<DataFileBuilder::Layout>& info) {
                           return std::string(info.param == DataFileBuilder::Layout::V0_6 ? "ExecuTorch0_6" : "Current");
                         });

TEST(DataFileVersions, ADataFileNewerThanThisBuildIsRefusedNamingBothVersions) {
  for (DataFileBuilder::Layout layout : {DataFileBuilder::Layout::Current, DataFileBuilder::Layout::V0_6}) {
    absl::StatusOr<std::shared_ptr<const DataFile>> data =
        DataFile::loadFromBuffer(layoutsTestFile().version(3).finish(layout), "future.ptd");
    ASSERT_FALSE(data.ok());
    EXPECT_EQ(data.status().code(), absl::StatusCode::kUnimplemented);
    EXPECT_THAT(data.status().message(), HasSubstr("data file 'future.ptd' has format version 3, but this build of "
                                                   "Switchyard reads data files up to version 0"));
  }
}

TEST(DataFileVersions, AProgramNewerThanThisBuildIsRefusedNamingBothVersions) {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1}, 1, 0);
  b.inputs({x}).outputs({x}).bufferSizes({0, 8}).version(1);
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "future.pte");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(program.status().message(), HasSubstr("program 'future.pte' has format version 1, but this build of "
                                                    "Switchyard reads programs up to version 0"));
}

}  // namespace
}  // namespace sy
