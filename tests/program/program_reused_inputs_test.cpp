// Inputs whose planned bytes the memory plan gives a later value too: a method run again without
// set_input reads the input it was given, not what that value left there (See Note [Inputs whose
// memory the plan reuses are restored before each execute]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "program/program_test_support.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using testing::valuesOf;

// y = x + x, then z = -y planned over x's bytes (x is dead by then): z = -2x.
std::vector<uint8_t> overwritesItsInputProgram() {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 8);
  int z = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.kernelCall(b.op("aten::neg", "out"), {y, z, z});
  b.inputs({x}).outputs({z}).bufferSizes({0, 16});
  return b.finish();
}

TEST(ReusedInputs, AMethodRunAgainWithoutSetInputReadsTheInputItWasGiven) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(overwritesItsInputProgram());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->reused_inputs, (std::vector<std::pair<size_t, size_t>>{{0, 2}}));
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(m->execute().ok());
    // Without the copy, the second run read x = -2x and gave 4, 8.
    EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{-2, -4})) << run;
  }
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{5, 6}, {2})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{-10, -12}));
  EXPECT_EQ(testing::allocationsDuring([&] {
              for (int i = 0; i < 5; ++i) {
                if (!m->execute().ok()) std::abort();
              }
            }),
            0);
  EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{-10, -12}));
}

// xor_training.pte plans a gradient (value 106, Float[1, 10]) over its Long label input: run
// again without set_input, forward read a label of -4789853776402610336 and failed.
TEST(ReusedInputs, ThePublishedXorTrainingProgramGivesTheSameLossTwice) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data_path, "xor.ptd");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(data_path);
  ASSERT_TRUE(data.ok()) << data.status();
  MethodOptions options;
  options.data_files = {*data};
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 0}, {1, 2})).ok());
  ASSERT_TRUE(m->set_input(1, tensor(std::vector<int64_t>{1}, {1})).ok());
  ASSERT_TRUE(m->execute().ok());
  const float first = m->get_output(0).toTensor().item<float>();
  const absl::Status again = m->execute();
  ASSERT_TRUE(again.ok()) << again;
  EXPECT_EQ(m->get_output(0).toTensor().item<float>(), first);
}

}  // namespace
}  // namespace sy
