// Programs and partial kernels (See Note [Kernel calls resolve their kernel key at load]): a call
// whose tensors match a key runs that kernel, an operator with only partial kernels loads, and a
// call no kernel covers fails at load, listing the metadata it had and the keys that exist.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "switchyard/switchyard.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

// pk_program::triple.out, defined with no CPU kernel: only partial kernels run it.
Tensor& tripleFloatOut(const Tensor& self, Tensor& out) {
  out.resize_(self.sizes());
  for (int64_t i = 0; i < self.numel(); ++i) out.data_ptr<float>()[i] = 3 * self.data_ptr<float>()[i];
  return out;
}

struct TripleOperator {
  Library def{Library::FRAGMENT, "pk_program"};
  RegistrationHandle float_1d;
  TripleOperator() {
    def.def("triple.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
    float_1d = PartialKernelRegistry::singleton().registerKernel(
        parseOperatorName("pk_program::triple.out"), KernelKey({{ScalarType::Float, {0}}, {ScalarType::Float, {0}}}),
        &tripleFloatOut, "pk_program::native::triple_float_out");
  }
};

std::vector<uint8_t> tripleProgram(ScalarType dtype) {
  ProgramBuilder b;
  const int element = dtype == ScalarType::Double ? 8 : 4;
  int x = b.plannedTensor(dtype, {3}, 1, 0);
  int y = b.plannedTensor(dtype, {3}, 1, static_cast<uint64_t>(4 * element));
  b.kernelCall(b.op("pk_program::triple", "out"), {x, y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 8 * element});
  return b.finish();
}

TEST(ProgramPartialKernels, AnOperatorWithOnlyPartialKernelsLoadsAndRunsTheMatchingOne) {
  TripleOperator triple;
  absl::StatusOr<Program> program = Program::loadFromBuffer(tripleProgram(ScalarType::Float));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, -2, 0.5f}, {3})).ok());
  ASSERT_TRUE(m->execute().ok());
  const Tensor& y = m->get_output(0).toTensor();
  EXPECT_EQ(std::vector<float>(y.data_ptr<float>(), y.data_ptr<float>() + 3), (std::vector<float>{3, -6, 1.5f}));
}

TEST(ProgramPartialKernels, ACallNoKernelCoversFailsAtLoadWithItsMetadataAndTheKeys) {
  TripleOperator triple;
  absl::StatusOr<Program> program = Program::loadFromBuffer(tripleProgram(ScalarType::Double));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("instruction 0 (pk_program::triple.out)"));
  EXPECT_THAT(m.status().message(), HasSubstr("tensor argument 0: Double, dim order 0"));
  EXPECT_THAT(m.status().message(), HasSubstr("v1/6;0|6;0 -> pk_program::native::triple_float_out"));
}

TEST(ProgramPartialKernels, ADefaultKernelCoversTheCallsNoKeyMatches) {
  TripleOperator triple;
  RegistrationHandle fallback = PartialKernelRegistry::singleton().registerKernel(
      parseOperatorName("pk_program::triple.out"), KernelKey::makeDefault(),
      +[](const Tensor& self, Tensor& out) -> Tensor& { return ops::mul_out(out, self, Scalar(3)); },
      "pk_program::native::triple_out");
  absl::StatusOr<Program> program = Program::loadFromBuffer(tripleProgram(ScalarType::Double));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<double>{2, 4, -1}, {3})).ok());
  ASSERT_TRUE(m->execute().ok());
  const Tensor& y = m->get_output(0).toTensor();
  EXPECT_EQ(std::vector<double>(y.data_ptr<double>(), y.data_ptr<double>() + 3), (std::vector<double>{6, 12, -3}));
}

}  // namespace
}  // namespace sy
