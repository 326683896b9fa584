// Programs computing with the prim operators as ExecuTorch's emitter writes them: sizes read while
// the method runs, combined by executorch_prim arithmetic and read by later calls, and et_view's
// output sharing its input's memory (backends/devices/cpu/prim_ops.cpp, prim_tensor_ops.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;
using testing::valuesOf;

std::vector<float> primRange(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

absl::StatusOr<Method> primMethod(const std::vector<uint8_t>& bytes) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes);
  if (!program.ok()) return program.status();
  return program->load_method("forward");
}

// flat = view_copy(x, [sym_size(x, 0) * 6]) for x of Float[<=4, 6]: a size computed by two prim
// calls (an Int written by one and read by the next) shapes a later kernel's output.
TEST(PrimOpsInPrograms, SizesComputedWhileTheMethodRunsShapeLaterCalls) {
  ProgramBuilder b;
  const auto bound = pte::TensorShapeDynamism::DYNAMIC_BOUND;
  int x = b.plannedTensor(ScalarType::Float, {4, 6}, 1, 0, {}, bound);
  int flat = b.plannedTensor(ScalarType::Float, {24}, 1, 96, {}, bound);
  int rows = b.intValue(4);
  int elements = b.intValue(24);
  b.kernelCall(b.op("aten::sym_size", "int"), {x, b.intValue(0), rows});
  b.kernelCall(b.op("executorch_prim::mul", "Scalar"), {rows, b.intValue(6), elements});
  b.kernelCall(b.op("aten::view_copy", "out"), {x, b.intList({elements}), flat, flat});
  b.inputs({x}).outputs({flat}).bufferSizes({0, 192});
  absl::StatusOr<Method> m = primMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  for (int64_t n : {4, 1, 3}) {
    ASSERT_TRUE(m->set_input(0, tensor(primRange(n * 6), {n, 6})).ok());
    absl::Status s = m->execute();
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(m->get_output(0).toTensor().sizes(), IntArrayRef({n * 6}));
    EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), primRange(n * 6));
  }
}

// y = neg(et_view(x, [6])): the view has no memory of its own in the plan and reads x's bytes.
TEST(PrimOpsInPrograms, EtViewReadsItsInputsMemory) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 0);
  int v = b.unplannedTensor(ScalarType::Float, {6});
  int y = b.plannedTensor(ScalarType::Float, {6}, 1, 24);
  b.kernelCall(b.op("executorch_prim::et_view", "default"), {x, b.intList({b.intValue(6)}), v});
  b.kernelCall(b.op("aten::neg", "out"), {v, y, y});
  b.inputs({x}).outputs({y, v}).bufferSizes({0, 48});
  absl::StatusOr<Method> m = primMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  for (float scale : {1.0f, -2.0f}) {
    std::vector<float> in = primRange(6);
    for (float& f : in) f *= scale;
    ASSERT_TRUE(m->set_input(0, tensor(in, {2, 3})).ok());
    ASSERT_TRUE(m->execute().ok());
    std::vector<float> negated = in;
    for (float& f : negated) f = -f;
    EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), negated);
    EXPECT_EQ(valuesOf<float>(m->get_output(1).toTensor()), in);
    EXPECT_EQ(m->get_output(1).toTensor().sizes(), IntArrayRef({6}));
  }
}

// A prim call's error leaves execute() as a Status naming the instruction and the operator.
TEST(PrimOpsInPrograms, APrimErrorNamesItsInstruction) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int q = b.intValue(0);
  b.kernelCall(b.op("executorch_prim::floordiv", "int"), {b.intValue(5), b.intValue(0), q});
  b.inputs({x}).outputs({x}).bufferSizes({0, 8});
  absl::StatusOr<Method> m = primMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  absl::Status s = m->execute();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("executorch_prim::floordiv.int: integer division by zero"));
}

}  // namespace
}  // namespace sy
