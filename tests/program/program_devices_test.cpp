// Programs that place tensors or planned buffers on another device than the CPU (ExecuTorch's
// ExtraTensorInfo.device_type and ExecutionPlan.non_const_buffer_device) load, so they can be
// inspected, but their methods are refused instead of silently run on the CPU (See Note
// [Programs placed on other devices are refused]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
constexpr int8_t kCuda = 1;

TEST(ProgramDevices, AMethodWithATensorOnCudaIsRefusedNamingTheValueAndDevice) {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensorOnDevice(ScalarType::Float, {2}, 1, 8, kCuda, 1);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "cuda.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->outputs[0].device, "CUDA:1");
  EXPECT_EQ(meta->inputs[0].device, "");
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(m.status().message(), HasSubstr("program 'cuda.pte': method 'forward' places value 1 on CUDA:1; Switchyard "
                                              "runs programs on the CPU only and does not move them there"));
}

TEST(ProgramDevices, AMethodWithAPlannedBufferOnCudaIsRefused) {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 2, 0);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 8, 8}).bufferDevice(1, 0).bufferDevice(2, kCuda);
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "cuda.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_FALSE(m.ok());
  // Buffer 1 is on the CPU, which changes nothing; buffer 2 is not.
  EXPECT_THAT(m.status().message(), HasSubstr("method 'forward' places planned buffer 2 on CUDA:0; Switchyard runs"));
}

TEST(ProgramDevices, CpuEntriesAndAnUndefinedDeviceType) {
  testing::ProgramBuilder cpu;
  int x = cpu.plannedTensorOnDevice(ScalarType::Float, {2}, 1, 0, /*CPU*/ 0, 3);
  cpu.inputs({x}).outputs({x}).bufferSizes({0, 8}).bufferDevice(1, 0);
  absl::StatusOr<Program> program = Program::loadFromBuffer(cpu.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_TRUE(program->load_method("forward").ok());

  testing::ProgramBuilder odd;
  x = odd.plannedTensorOnDevice(ScalarType::Float, {2}, 1, 0, 9);
  odd.inputs({x}).outputs({x}).bufferSizes({0, 8});
  program = Program::loadFromBuffer(odd.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(program->load_method("forward").status().message(),
              HasSubstr("places value 0 on device type 9 (which the format does not define)"));
}

}  // namespace
}  // namespace sy
