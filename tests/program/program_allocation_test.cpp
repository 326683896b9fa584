// execute() allocates nothing for a static-shape program: counted by allocation_counter.h, which
// replaces the global operator new of this test binary.
#include <cstdlib>

#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"

namespace sy {
namespace {

using testing::allocationsDuring;
using testing::ProgramBuilder;

TEST(ProgramAllocations, TheCounterSeesAnAllocation) {
  EXPECT_EQ(allocationsDuring([] {
              int* p = new int(3);
              asm volatile("" : : "r"(p) : "memory");  // keep the compiler from eliding the pair
              delete p;
            }),
            1);
}

TEST(ProgramAllocations, ExecuteAllocatesNothingForChainedKernelCalls) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0);
  int slots[2] = {b.plannedTensor(ScalarType::Float, {4}, 1, 16), b.plannedTensor(ScalarType::Float, {4}, 1, 32)};
  int alpha = b.intValue(1);
  int add = b.op("aten::add", "out");
  int mul = b.op("aten::mul", "out");
  int previous = x;
  for (int i = 0; i < 16; ++i) {
    int out = slots[i % 2];
    if (i % 3 == 2) {
      b.kernelCall(mul, {previous, x, out, out});
    } else {
      b.kernelCall(add, {previous, x, alpha, out, out});
    }
    previous = out;
  }
  b.inputs({x}).outputs({previous}).bufferSizes({0, 48});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  Tensor input = tensor(std::vector<float>{1, 2, 3, 4}, {4});
  ASSERT_TRUE(m->set_input(0, input).ok());
  ASSERT_TRUE(m->execute().ok());
  long during = allocationsDuring([&] {
    for (int i = 0; i < 50; ++i) {
      if (!m->set_input(0, input).ok() || !m->execute().ok()) std::abort();
    }
  });
  EXPECT_EQ(during, 0);
}

// A reshape or flatten in a program is view_copy.out: see Note [view_copy of a contiguous tensor
// copies its bytes].
TEST(ProgramAllocations, ExecuteAllocatesNothingForAViewCopy) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {3, 2}, 1, 32);
  b.kernelCall(b.op("aten::view_copy", "out"), {x, b.intList({b.intValue(3), b.intValue(-1)}), out, out});
  b.inputs({x}).outputs({out}).bufferSizes({0, 64});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  Tensor input = tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  ASSERT_TRUE(m->set_input(0, input).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(allocationsDuring([&] {
              for (int i = 0; i < 10; ++i) {
                if (!m->set_input(0, input).ok() || !m->execute().ok()) std::abort();
              }
            }),
            0);
  const Tensor result = m->get_output(0).toTensor();
  EXPECT_EQ(result.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(std::vector<float>(result.data_ptr<float>(), result.data_ptr<float>() + 6),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ProgramAllocations, ExecuteAllocatesNothingForExecuTorchsPrograms) {
  for (const char* file : {"add.pte", "module_linear.pte", "add_constant_segment.pte", "add_root.pte", "mean_eq_where.pte",
                           "softmax.pte", "maxpool2d.pte"}) {
    SY_REFERENCE_PROGRAM_OR_SKIP(path, file);
    absl::StatusOr<Program> program = Program::load(path);
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> m = program->load_method("forward");
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_TRUE(m->execute().ok());
    EXPECT_EQ(allocationsDuring([&] {
                for (int i = 0; i < 20; ++i) {
                  if (!m->execute().ok()) std::abort();
                }
              }),
              0)
        << file;
  }
}

// ExecuTorch's training step (a linear layer's forward, its gradients by hand: permutes, gathers,
// scatters, log_softmax, the products) on the portable and optimized kernels: nothing per step.
TEST(ProgramAllocations, ExecuteAllocatesNothingForTheXorTrainingStep) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data_path, "xor.ptd");
  absl::StatusOr<Program> program = Program::load(path);
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(data_path);
  ASSERT_TRUE(program.ok()) << program.status();
  ASSERT_TRUE(data.ok()) << data.status();
  MethodOptions options;
  options.data_files = {*data};
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  const Tensor x = tensor(std::vector<float>{1, 0}, {1, 2});
  const Tensor label = tensor(std::vector<int64_t>{1}, {1});
  const auto step = [&] {
    if (!m->set_input(0, x).ok() || !m->set_input(1, label).ok() || !m->execute().ok()) std::abort();
  };
  step();
  step();  // the first steps fill this thread's scratch slots and TensorImpl blocks
  EXPECT_EQ(allocationsDuring([&] {
              for (int i = 0; i < 10; ++i) step();
            }),
            0);
}

// A bounded dynamic program (See Note [A method's tensors change sizes within the memory planned
// for them]): inputs of changing sizes and outputs resized by their kernels, all within the memory
// planned for the bound.
TEST(ProgramAllocations, ExecuteAllocatesNothingForABoundedDynamicProgram) {
  constexpr auto bound = pte::TensorShapeDynamism::DYNAMIC_BOUND;
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4, 6}, 1, 0, {}, bound);
  int y = b.plannedTensor(ScalarType::Float, {4, 6}, 1, 96, {}, bound);
  int out = b.plannedTensor(ScalarType::Float, {4, 3, 2}, 1, 192, {}, bound);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.kernelCall(b.op("aten::view_copy", "out"), {y, b.intList({b.intValue(-1), b.intValue(3), b.intValue(2)}), out, out});
  b.inputs({x}).outputs({out}).bufferSizes({0, 288});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  std::vector<Tensor> inputs;
  for (int64_t n : {4, 1, 3, 2}) inputs.push_back(ones({n, 6}));
  for (const Tensor& input : inputs) {
    ASSERT_TRUE(m->set_input(0, input).ok());
    ASSERT_TRUE(m->execute().ok());
  }
  EXPECT_EQ(allocationsDuring([&] {
              for (int i = 0; i < 20; ++i) {
                const Tensor& input = inputs[static_cast<size_t>(i) % inputs.size()];
                if (!m->set_input(0, input).ok() || !m->execute().ok()) std::abort();
              }
            }),
            0);
  EXPECT_EQ(m->get_output(0).toTensor().sizes(), (std::vector<int64_t>{2, 3, 2}));
}

}  // namespace
}  // namespace sy
