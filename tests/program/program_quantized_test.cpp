// Programs calling the quantized_decomposed:: operators as PT2E-quantized programs do (the
// quantize / dequantize pair around each int8 region, with scale and zero point as arguments and
// the quantized dtype as a ScalarType number): they load, resolve to the kernels of
// backends/kernels/quantized/ and run. The expected values are PyTorch's arithmetic worked out by
// hand: q = clamp(round_half_to_even(x / scale) + zero_point, quant_min, quant_max).
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

absl::StatusOr<Method> quantizedProgramMethod(const std::vector<uint8_t>& bytes) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes);
  if (!program.ok()) return program.status();
  return program->load_method("forward");
}

// q = quantize_per_tensor(x, 0.5, 3, 0, 255, Byte); y = dequantize_per_tensor(q, 0.5, 3, 0, 255, Byte):
// both outputs, the Byte tensor and the Float one, planned in the method's buffer.
TEST(QuantizedPrograms, QuantizeThenDequantizeRunsThroughTheRuntime) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 0);
  int q = b.plannedTensor(ScalarType::Byte, {2, 3}, 1, 32);
  int y = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 48);
  const int scale = b.doubleValue(0.5);
  const int zero_point = b.intValue(3);
  const int quant_min = b.intValue(0);
  const int quant_max = b.intValue(255);
  const int byte = b.intValue(static_cast<int64_t>(ScalarType::Byte));
  b.kernelCall(b.op("quantized_decomposed::quantize_per_tensor", "out"),
               {x, scale, zero_point, quant_min, quant_max, byte, q, q});
  b.kernelCall(b.op("quantized_decomposed::dequantize_per_tensor", "out"),
               {q, scale, zero_point, quant_min, quant_max, byte, b.noneValue(), y, y});
  b.inputs({x}).outputs({q, y}).bufferSizes({0, 80});
  absl::StatusOr<Method> m = quantizedProgramMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{-1.f, 0.25f, 0.75f, 1.3f, 200.f, -9.f}, {2, 3})).ok());
  absl::Status s = m->execute();
  ASSERT_TRUE(s.ok()) << s;
  // x / 0.5 = -2, 0.5, 1.5, 2.6, 400, -18; rounded half to even: -2, 0, 2, 3, 400, -18; + 3, clamped.
  EXPECT_EQ(valuesOf<uint8_t>(m->get_output(0).toTensor()), (std::vector<uint8_t>{1, 3, 5, 6, 255, 0}));
  EXPECT_EQ(valuesOf<float>(m->get_output(1).toTensor()), (std::vector<float>{-1.f, 0.f, 1.f, 1.5f, 126.f, -1.5f}));
}

// The Tensor_out forms take scale and zero point as constant tensors, and an int8 range.
TEST(QuantizedPrograms, TheTensorFormsReadScaleAndZeroPointFromConstants) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0);
  int q = b.plannedTensor(ScalarType::Char, {4}, 1, 16);
  int y = b.plannedTensor(ScalarType::Float, {4}, 1, 32);
  const int scale = b.constantTensor(ScalarType::Double, {1}, std::vector<double>{0.25});
  const int zero_point = b.constantTensor(ScalarType::Long, {1}, std::vector<int64_t>{-2});
  const int quant_min = b.intValue(-128);
  const int quant_max = b.intValue(127);
  const int int8 = b.intValue(static_cast<int64_t>(ScalarType::Char));
  b.kernelCall(b.op("quantized_decomposed::quantize_per_tensor", "Tensor_out"),
               {x, scale, zero_point, quant_min, quant_max, int8, q, q});
  b.kernelCall(b.op("quantized_decomposed::dequantize_per_tensor", "Tensor_out"),
               {q, scale, zero_point, quant_min, quant_max, int8, b.noneValue(), y, y});
  b.inputs({x}).outputs({q, y}).bufferSizes({0, 48});
  absl::StatusOr<Method> m = quantizedProgramMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{0.3f, -0.375f, 100.f, -100.f}, {4})).ok());
  absl::Status s = m->execute();
  ASSERT_TRUE(s.ok()) << s;
  // x / 0.25 = 1.2, -1.5, 400, -400: 1, -2, 400, -400; - 2, clamped to [-128, 127].
  EXPECT_EQ(valuesOf<int8_t>(m->get_output(0).toTensor()), (std::vector<int8_t>{-1, -4, 127, -128}));
  EXPECT_EQ(valuesOf<float>(m->get_output(1).toTensor()), (std::vector<float>{0.25f, -0.5f, 32.25f, -31.5f}));
}

// A quantization the kernel refuses fails execute() with a Status naming the operator.
TEST(QuantizedPrograms, ARefusedRangeNamesTheOperator) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int q = b.plannedTensor(ScalarType::Char, {2}, 1, 16);
  b.kernelCall(b.op("quantized_decomposed::quantize_per_tensor", "out"),
               {x, b.doubleValue(1.0), b.intValue(0), b.intValue(-128), b.intValue(255),
                b.intValue(static_cast<int64_t>(ScalarType::Char)), q, q});
  b.inputs({x}).outputs({q}).bufferSizes({0, 32});
  absl::StatusOr<Method> m = quantizedProgramMethod(b.finish());
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1.f, 2.f}, {2})).ok());
  absl::Status s = m->execute();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("quantized_decomposed::quantize_per_tensor.out: quant_max 255 is out of bounds "
                                     "for dtype Char, whose largest value is 127"));
}

}  // namespace
}  // namespace sy
