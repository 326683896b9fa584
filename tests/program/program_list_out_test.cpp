// A program whose kernel call writes a list of outs (`Tensor(a!)[] out`, returning nothing), as
// ExecuTorch's emitter writes split_with_sizes_copy: the call's last argument is a TensorList value
// whose items are the method's planned tensors, and each receives its piece.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ProgramBuilder;
using testing::valuesOf;

// top, rest = split_with_sizes_copy(x, [1, 3]) for x of Float[4, 2]; both are outputs.
std::vector<uint8_t> splitProgram(std::vector<int64_t> sizes) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4, 2}, 1, 0);
  int top = b.plannedTensor(ScalarType::Float, {1, 2}, 1, 32);
  int rest = b.plannedTensor(ScalarType::Float, {3, 2}, 1, 64);
  std::vector<int32_t> size_values;
  for (int64_t s : sizes) size_values.push_back(b.intValue(s));
  b.kernelCall(b.op("aten::split_with_sizes_copy", "out"),
               {x, b.intList(std::vector<int64_t>(size_values.begin(), size_values.end())), b.intValue(0),
                b.tensorList({top, rest})});
  b.inputs({x}).outputs({top, rest}).bufferSizes({0, 96});
  return b.finish();
}

TEST(ListOutsInPrograms, SplitWithSizesCopyWritesEachPieceIntoItsPlannedOut) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(splitProgram({1, 3}));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {4, 2})).ok());
  absl::Status s = m->execute();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(m->get_output(0).toTensor().sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(m->get_output(0).toTensor()), ElementsAre(0, 1));
  EXPECT_THAT(m->get_output(1).toTensor().sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<float>(m->get_output(1).toTensor()), ElementsAre(2, 3, 4, 5, 6, 7));
}

TEST(ListOutsInPrograms, ASplitErrorNamesTheOperatorWhenTheMethodRuns) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(splitProgram({2, 3}));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>(8, 1.0f), {4, 2})).ok());
  absl::Status s = m->execute();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("aten::split_with_sizes_copy.out: expected 'split_sizes' to add up to 4"));
}

}  // namespace
}  // namespace sy
