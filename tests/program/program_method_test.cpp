// Running methods: ExecuTorch's own programs and programs built by hand, through the dispatcher.
#include <cmath>
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/schema/flat_tensor_generated.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

// Loads `method`, skipping the test when Switchyard lacks one of its operators (the edge-dialect
// operators ExecuTorch's exports use arrive separately); any other error fails.
#define SY_LOAD_METHOD_OR_SKIP(var, program, method)                                                 \
  absl::StatusOr<Method> var = (program).load_method(method);                                        \
  if (!var.ok() && absl::StrContains(var.status().message(), "that Switchyard does not have")) {     \
    GTEST_SKIP() << var.status();                                                                    \
  }                                                                                                  \
  ASSERT_TRUE(var.ok()) << var.status();

std::vector<float> values(const Tensor& t) {
  const float* p = t.data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

TEST(ProgramMethod, RunsExecuTorchsAddProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_TRUE(forward.ok()) << forward.status();
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1.5f}, {1})).ok());
  ASSERT_TRUE(forward->set_input(1, tensor(std::vector<float>{2.25f}, {1})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{3.75f});
  // Again, with other inputs: the same memory, new results.
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{-1.f}, {1})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{1.25f});
}

// add_root.pte: forward(x: Float[1], y: Float[1]) = x + y, with its method and values at the
// root of the file's tables.
TEST(ProgramMethod, RunsExecuTorchsAddRootProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add_root.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_TRUE(forward.ok()) << forward.status();
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{2.5f}, {1})).ok());
  ASSERT_TRUE(forward->set_input(1, tensor(std::vector<float>{4.f}, {1})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{6.5f});
  ASSERT_TRUE(forward->set_input(1, tensor(std::vector<float>{-0.5f}, {1})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{2.f});
}

TEST(ProgramMethod, RunsAProgramWithConstantsInConstantBuffer) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "module_linear.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  SY_LOAD_METHOD_OR_SKIP(forward, *program, "forward");
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, 2, 3, 4}, {2, 2})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), (std::vector<float>{5, 8, 11, 14}));  // 3x + 2
}

TEST(ProgramMethod, RunsAProgramWithItsConstantInASegment) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add_constant_segment.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  SY_LOAD_METHOD_OR_SKIP(forward, *program, "forward");
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, 2, 3}, {3})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), (std::vector<float>{2, 3, 4}));  // x + 1
}

TEST(ProgramMethod, RunsMeanEqWhere) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "mean_eq_where.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  SY_LOAD_METHOD_OR_SKIP(forward, *program, "forward");
  // out = mean(x, dim 1) == 0 ? 1.1 : mean(x, dim 1)
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, 3}, {1, 2})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{2});
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, -1}, {1, 2})).ok());
  ASSERT_TRUE(forward->execute().ok());
  EXPECT_EQ(values(forward->get_output(0).toTensor()), std::vector<float>{1.1f});
}

TEST(ProgramMethod, RunsSoftmax) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "softmax.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  SY_LOAD_METHOD_OR_SKIP(forward, *program, "forward");
  std::vector<float> x(2 * 4096);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.01f * static_cast<float>(i)) * 3;
  ASSERT_TRUE(forward->set_input(0, tensor(x, {2, 4096})).ok());
  ASSERT_TRUE(forward->execute().ok()) << forward->execute();
  std::vector<float> y = values(forward->get_output(0).toTensor());
  for (int row = 0; row < 2; ++row) {
    double max = -INFINITY, sum = 0;
    for (int j = 0; j < 4096; ++j) max = std::max<double>(max, x[row * 4096 + j]);
    for (int j = 0; j < 4096; ++j) sum += std::exp(x[row * 4096 + j] - max);
    for (int j = 0; j < 4096; j += 511) {
      EXPECT_NEAR(y[row * 4096 + j], std::exp(x[row * 4096 + j] - max) / sum, 1e-7) << row << " " << j;
    }
  }
}

TEST(ProgramMethod, RunsMaxPool2dWithIndices) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "maxpool2d.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  SY_LOAD_METHOD_OR_SKIP(forward, *program, "forward");
  std::vector<float> x(64 * 112 * 112);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 1000) / 10.f;
  ASSERT_TRUE(forward->set_input(0, tensor(x, {1, 64, 112, 112})).ok());
  ASSERT_TRUE(forward->execute().ok());
  std::vector<float> y = values(forward->get_output(0).toTensor());
  ASSERT_EQ(y.size(), 64u * 56 * 56);
  // kernel 3, stride 2, padding 1: a reference on a few positions.
  for (int c : {0, 31, 63}) {
    for (int oh : {0, 17, 55}) {
      for (int ow : {0, 28, 55}) {
        float best = -INFINITY;
        for (int kh = 0; kh < 3; ++kh) {
          for (int kw = 0; kw < 3; ++kw) {
            const int ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;
            if (ih >= 0 && ih < 112 && iw >= 0 && iw < 112) best = std::max(best, x[(c * 112 + ih) * 112 + iw]);
          }
        }
        EXPECT_EQ(y[(c * 56 + oh) * 56 + ow], best) << c << " " << oh << " " << ow;
      }
    }
  }
}

TEST(ProgramMethod, ListsEveryMissingOperatorInOneError) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "cadence_quantized_conv.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_EQ(forward.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(forward.status().message(),
              HasSubstr("method 'forward' needs 3 operators that Switchyard does not have: cadence::quantize_per_tensor.out, "
                        "cadence::quantized_conv2d_nchw.per_tensor_out, cadence::dequantize_per_tensor.out"));
}

TEST(ProgramMethod, NamesEveryMissingCortexMOperatorOfTheKeywordSpottingProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "keyword_spotting_cortex_m.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_EQ(forward.status().code(), absl::StatusCode::kUnimplemented);
  // All seven, in the order the program lists them, and not the one Switchyard has.
  EXPECT_THAT(forward.status().message(),
              HasSubstr("method 'forward' needs 7 operators that Switchyard does not have: "
                        "cortex_m::quantize_per_tensor.out, cortex_m::quantized_depthwise_conv2d.out, "
                        "cortex_m::quantized_conv2d.out, cortex_m::pad.out, cortex_m::quantized_avg_pool2d.out, "
                        "cortex_m::quantized_linear.out, cortex_m::dequantize_per_tensor.out"));
  EXPECT_THAT(std::string(forward.status().message()), ::testing::Not(HasSubstr("_clone_dim_order")));
}

TEST(ProgramMethod, NamesTheMissingBackendOfADelegatedProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "stories260k_qnn.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("kv_forward");
  EXPECT_THAT(forward.status().message(),
              HasSubstr("method 'kv_forward' needs backend 'QnnBackend' (delegate 0), which is not registered; "
                        "registered backends: "));
  // Its constant methods need nothing and run.
  absl::StatusOr<Method> vocab = program->load_method("get_vocab_size");
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  ASSERT_TRUE(vocab->execute().ok());
  EXPECT_TRUE(vocab->get_output(0).isInt());
}

TEST(ProgramMethod, NamesTheMissingExternalTensorWithoutItsDataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_FALSE(forward.ok());
  if (absl::StrContains(forward.status().message(), "that Switchyard does not have")) GTEST_SKIP() << forward.status();
  EXPECT_THAT(forward.status().message(),
              HasSubstr("external tensor 'net.linear.weight' (value 0) is in none of the data files given (none)"));
}

// ---- built programs -------------------------------------------------------------------------

std::vector<uint8_t> chainedAdds(int n) {
  // x -> x + x -> ... n times; values alternate between two planned slots.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0);
  int slots[2] = {b.plannedTensor(ScalarType::Float, {4}, 1, 16), b.plannedTensor(ScalarType::Float, {4}, 1, 32)};
  int alpha = b.intValue(1);
  int add = b.op("aten::add", "out");
  int previous = x;
  for (int i = 0; i < n; ++i) {
    int out = slots[i % 2];
    b.kernelCall(add, {previous, previous, alpha, out, out});
    previous = out;
  }
  b.inputs({x}).outputs({previous}).bufferSizes({0, 48});
  return b.finish();
}

TEST(ProgramMethod, RunsChainedKernelCallsOfABuiltProgram) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(chainedAdds(5));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2, 3, -1}, {4})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{32, 64, 96, -32}));
}

TEST(ProgramMethod, UsesTheCallersPlannedMemory) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(chainedAdds(1));
  ASSERT_TRUE(program.ok());
  alignas(16) uint8_t arena[48] = {};
  PlannedMemory memory;
  memory.buffers = {{}, absl::MakeSpan(arena)};
  MethodOptions options;
  options.planned_memory = &memory;
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2, 3, 4}, {4})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(m->get_output(0).toTensor().data_ptr(), arena + 16);
  float out[4];
  std::memcpy(out, arena + 16, sizeof(out));
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{2, 4, 6, 8}));
}

TEST(ProgramMethod, RejectsCallerMemorySmallerThanPlanned) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(chainedAdds(1), "adds.pte");
  ASSERT_TRUE(program.ok());
  uint8_t arena[32];
  PlannedMemory memory;
  memory.buffers = {{}, absl::MakeSpan(arena)};
  MethodOptions options;
  options.planned_memory = &memory;
  absl::StatusOr<Method> m = program->load_method("forward", options);
  EXPECT_THAT(m.status().message(),
              HasSubstr("method 'forward': planned buffer 1 needs 48 bytes, but the PlannedMemory given has 32"));
}

TEST(ProgramMethod, RejectsATensorAtAPlannedOffsetMisalignedForItsDtype) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 2);
  b.inputs({x}).outputs({x}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "odd.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(),
              HasSubstr("value 0: the Float data at offset 2 of planned buffer 1 is not aligned to 4 bytes"));
}

TEST(ProgramMethod, RejectsAConstantWhoseDataIsMisalignedForItsDtype) {
  ProgramBuilder b;
  int c = b.constantTensor(ScalarType::Float, {2}, std::vector<float>{1, 2});
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {c, c, b.intValue(1), out, out}).outputs({out}).bufferSizes({0, 16});
  b.constantsInSegment().constantPadding(2);
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "odd_constant.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(),
              HasSubstr("value 0: the Float data at the program's constant data is not aligned to 4 bytes"));
}

TEST(ProgramMethod, RejectsADataFileTensorMisalignedForItsDtype) {
  // xor.ptd's 'net.linear.bias' (Float, 10) is segment 1, at offset 80 with 8 spare bytes after it:
  // moved 2 bytes on, it is still inside the file but no longer 4-byte aligned.
  SY_REFERENCE_PROGRAM_OR_SKIP(ptd, "xor.ptd");
  std::vector<uint8_t> bytes = testing::readFile(ptd);
  const ptd::DataSegment* segment = ptd::GetFlatTensor(bytes.data())->segments()->Get(1);
  ASSERT_EQ(segment->offset(), 80u);
  const uint64_t moved = 82;
  // The generated table derives privately from flatbuffers::Table, which finds a field's bytes.
  const uint8_t* field = reinterpret_cast<const flatbuffers::Table*>(segment)->GetAddressOf(ptd::DataSegment::VT_OFFSET);
  ASSERT_NE(field, nullptr);
  std::memcpy(bytes.data() + (field - bytes.data()), &moved, sizeof moved);
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(bytes, "moved.ptd");
  ASSERT_TRUE(data.ok()) << data.status();

  ProgramBuilder b;
  int bias = b.externalTensor(ScalarType::Float, {10}, "net.linear.bias");
  int out = b.plannedTensor(ScalarType::Float, {10}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {bias, bias, b.intValue(1), out, out}).outputs({out}).bufferSizes({0, 48});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "external.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  MethodOptions options;
  options.data_files.push_back(*data);
  absl::StatusOr<Method> m = program->load_method("forward", options);
  EXPECT_THAT(m.status().message(), HasSubstr("value 0: the Float data at its data file is not aligned to 4 bytes"));
}

TEST(ProgramMethod, RejectsCallerMemoryAtAnAddressMisalignedForItsTensors) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(chainedAdds(1), "adds.pte");
  ASSERT_TRUE(program.ok());
  alignas(16) uint8_t arena[64] = {};
  PlannedMemory memory;
  memory.buffers = {{}, absl::MakeSpan(arena + 1, 48)};
  MethodOptions options;
  options.planned_memory = &memory;
  absl::StatusOr<Method> m = program->load_method("forward", options);
  EXPECT_THAT(m.status().message(), HasSubstr("of planned buffer 1 is not aligned to 4 bytes"));
}

TEST(ProgramMethod, ChecksTheDtypeAndShapeOfInputs) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(chainedAdds(1), "adds.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok());
  EXPECT_THAT(m->set_input(0, tensor(std::vector<double>{1, 2, 3, 4}, {4})).message(),
              HasSubstr("input 0 expects a Float tensor, but the one given is Double"));
  EXPECT_THAT(m->set_input(0, tensor(std::vector<float>{1, 2, 3, 4}, {2, 2})).message(),
              HasSubstr("input 0 expects sizes (4,), but the tensor given has sizes (2, 2)"));
  EXPECT_THAT(m->set_input(0, IValue(3)).message(), HasSubstr("input 0 is a Tensor, but a int was given"));
  EXPECT_EQ(m->set_input(1, IValue(3)).code(), absl::StatusCode::kOutOfRange);
}

// ExecuTorch's MoveCall makes the destination the source's tensor (what a cond's branches end
// with); kernel calls read the method's value, so they see it (See Note [Prepared kernel calls]).
// Their arguments were owned copies of the tensor the value held at load: they read t's old
// memory (0) and wrote c's old tensor.
TEST(ProgramMethod, KernelCallsSeeTheTensorAMoveCallPutInTheirValue) {
  ProgramBuilder b;
  int a = b.plannedTensor(ScalarType::Float, {1}, 1, 0);
  int t = b.plannedTensor(ScalarType::Float, {1}, 1, 8);
  int c = b.plannedTensor(ScalarType::Float, {1}, 1, 16);
  int d = b.plannedTensor(ScalarType::Float, {1}, 1, 24);
  b.moveCall(a, t);
  b.moveCall(d, c);
  b.kernelCall(b.op("aten::add", "out"), {t, t, b.intValue(1), c, c});
  b.inputs({a}).outputs({c, d}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{3}, {1})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{6}));
  EXPECT_EQ(values(m->get_output(1).toTensor()), (std::vector<float>{6}));  // c is d's tensor now
}

TEST(ProgramMethod, ListsMissingOperatorsOfABuiltProgramByFullName) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1}, 1, 0);
  b.kernelCall(b.op("mylib::frobnicate", "out"), {x});
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), x, x});
  b.kernelCall(b.op("cadence::quantized_conv2d_nchw", "per_tensor_out"), {x});
  b.bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "two.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(),
              HasSubstr("program 'two.pte': method 'forward' needs 2 operators that Switchyard does not have: "
                        "mylib::frobnicate.out, cadence::quantized_conv2d_nchw.per_tensor_out"));
}

TEST(ProgramMethod, RejectsAKernelCallWhoseArgumentsDoNotFitTheSchema) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1}, 1, 0);
  int flag = b.boolValue(true);
  b.kernelCall(b.op("aten::add", "out"), {x, flag, b.intValue(1), x, x}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "bad.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(),
              HasSubstr("instruction 0 (aten::add.out): argument 'other' is a Tensor, but the program passes value 1, a bool"));
}

TEST(ProgramMethod, RunsMoveAndJumpFalseInstructions) {
  // if (!flag) skip the add; then move the result out.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int flag = b.boolValue(true);
  int alpha = b.intValue(1);
  int add = b.op("aten::add", "out");
  b.jumpFalseCall(flag, 2);
  b.kernelCall(add, {x, x, alpha, y, y});
  b.freeCall(x);
  b.inputs({x, flag}).outputs({y}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{2, 4}));
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{5, 5}, {2})).ok());
  ASSERT_TRUE(m->set_input(1, IValue(false)).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{2, 4}));  // the add was skipped
}

TEST(ProgramMethod, MovesAValueIntoAnother) {
  ProgramBuilder b;
  int a = b.intValue(7);
  int c = b.intValue(0);
  b.moveCall(a, c).outputs({c});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(m->get_output(0).toInt(), 7);
}

TEST(ProgramMethod, AKernelReadsANumberAsAMoveCallLeftIt) {
  // alpha = 1; alpha = three (a MoveCall); out = x + alpha * x.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int alpha = b.intValue(1);
  int three = b.intValue(3);
  b.moveCall(three, alpha);
  b.kernelCall(b.op("aten::add", "out"), {x, x, alpha, out, out}).inputs({x}).outputs({out}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{4, 8}));
}

TEST(ProgramMethod, AKernelReadsANumberInputAsSetForThisExecute) {
  // out = x + alpha * x, alpha an Int input: the call reads it at every execute().
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int alpha = b.intValue(1);
  b.kernelCall(b.op("aten::add", "out"), {x, x, alpha, out, out}).inputs({x, alpha}).outputs({out}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m->set_input(1, IValue(int64_t{3})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{4, 8}));
  ASSERT_TRUE(m->set_input(1, IValue(int64_t{-1})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{0, 0}));
}

TEST(ProgramMethod, RefusesAMoveCallBetweenATensorAndANumber) {
  // Kernel calls hold the address of x's Tensor: x must not become an Int, nor an Int a tensor.
  for (bool into_tensor : {true, false}) {
    ProgramBuilder b;
    int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
    int out = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
    int three = b.intValue(3);
    if (into_tensor) {
      b.moveCall(three, x);
    } else {
      b.moveCall(x, three);
    }
    b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), out, out}).inputs({x}).outputs({out}).bufferSizes({0, 32});
    absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "move.pte");
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> m = program->load_method("forward");
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << m.status();
    EXPECT_THAT(std::string(m.status().message()),
                HasSubstr(into_tensor ? "a MoveCall moves value 2 (int) into value 0 (Tensor); a tensor value can only"
                                      : "a MoveCall moves value 0 (Tensor) into value 2 (int)"));
  }
}

TEST(ProgramMethod, ReportsAKernelErrorAsAStatusNamingTheInstruction) {
  // aten::add.out with a Bool out tensor and Float inputs: the kernel refuses the cast.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int out = b.plannedTensor(ScalarType::Bool, {2}, 1, 16);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), out, out}).inputs({x}).outputs({out}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "cast.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::Status s = m->execute();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("program 'cast.pte': method 'forward': instruction 0 (aten::add.out) failed: "));
}

TEST(ProgramMethod, LoadsConvertsAndReturnsTensorsOfEveryTypeTheFormatNames) {
  // out = _to_copy(h) as Float; the Char and BFloat16 constants are returned as they are.
  ProgramBuilder b;
  const std::vector<uint16_t> half_bits = {0x3C00, 0xC500, 0x7BFF};  // 1, -5, 65504
  const int h = b.constantTensor<uint16_t>(ScalarType::Half, {3}, half_bits);
  const int c = b.constantTensor<int8_t>(ScalarType::Char, {3}, {-128, 5, 127});
  const int bf = b.constantTensor<uint16_t>(ScalarType::BFloat16, {1}, {0x4049});  // 3.140625
  const int out = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  b.kernelCall(b.op("aten::_to_copy", "out"), {h, b.boolValue(false), b.noneValue(), out, out})
      .outputs({out, c, bf})
      .bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "half.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(values(m->get_output(0).toTensor()), (std::vector<float>{1, -5, 65504}));
  const Tensor chars = m->get_output(1).toTensor();
  ASSERT_EQ(chars.scalar_type(), ScalarType::Char);
  EXPECT_EQ(chars.data_ptr<int8_t>()[0], -128);
  EXPECT_EQ(chars.data_ptr<int8_t>()[2], 127);
  EXPECT_EQ(m->get_output(2).toTensor().item<float>(), 3.140625f);
}

TEST(ProgramMethod, RunsKernelsOnHalfTensors) {
  ProgramBuilder b;
  const int h = b.constantTensor<uint16_t>(ScalarType::Half, {2}, {0x3C00, 0x4000});  // 1, 2
  const int out = b.plannedTensor(ScalarType::Half, {2}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {h, h, b.intValue(1), out, out}).outputs({out}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "half_add.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->execute().ok());
  const Tensor sum = m->get_output(0).toTensor();
  ASSERT_EQ(sum.scalar_type(), ScalarType::Half);
  EXPECT_EQ(sum.data_ptr<Half>()[0].bits(), 0x4000);  // 2
  EXPECT_EQ(sum.data_ptr<Half>()[1].bits(), 0x4400);  // 4
}

TEST(ProgramMethod, AKernelThatCannotTakeADtypeRefusesItByName) {
  ProgramBuilder b;
  const int u = b.constantTensor<uint16_t>(ScalarType::UInt16, {2}, {1, 2});
  const int out = b.plannedTensor(ScalarType::UInt16, {2}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {u, u, b.intValue(1), out, out}).outputs({out}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "uint16_add.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::Status s = m->execute();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("aten::add.out"));
  EXPECT_THAT(s.message(), HasSubstr("UInt16"));
}

TEST(ProgramMethod, ReadsExternalTensorsFromADataFile) {
  // out = w + w, with w in a data file.
  ProgramBuilder b;
  int w = b.externalTensor(ScalarType::Float, {2}, "model.w");
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("aten::add", "out"), {w, w, b.intValue(1), out, out}).outputs({out}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "ext.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  SY_REFERENCE_PROGRAM_OR_SKIP(ptd, "xor.ptd");  // a real data file; we only use its bytes' layout below
  absl::StatusOr<Method> missing = program->load_method("forward");
  EXPECT_THAT(missing.status().message(), HasSubstr("external tensor 'model.w' (value 0) is in none of the data files given (none)"));
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(ptd);
  ASSERT_TRUE(data.ok());
  MethodOptions options;
  options.data_files.push_back(*data);
  absl::StatusOr<Method> still_missing = program->load_method("forward", options);
  EXPECT_THAT(still_missing.status().message(), HasSubstr("is in none of the data files given (" + ptd + ")"));
}

TEST(ProgramMethod, RunsATrainingStepWithParametersFromTheDataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(testing::referenceProgram("xor.ptd"));
  ASSERT_TRUE(data.ok()) << data.status();
  MethodOptions options;
  options.data_files.push_back(*data);
  absl::StatusOr<Method> forward = program->load_method("forward", options);
  if (!forward.ok() && absl::StrContains(forward.status().message(), "that Switchyard does not have")) {
    GTEST_SKIP() << forward.status();
  }
  ASSERT_TRUE(forward.ok()) << forward.status();
  // One step on x = (1, 0), label 1: loss and prediction against a reference computed here from
  // the data file's parameters (a 2-10-2 MLP with a sigmoid, then cross-entropy).
  auto param = [&](const char* name) {
    const DataFile::Entry* e = (*data)->find(name);
    return std::vector<float>(reinterpret_cast<const float*>(e->bytes.data()),
                              reinterpret_cast<const float*>(e->bytes.data()) + e->bytes.size() / 4);
  };
  const std::vector<float> w1 = param("net.linear.weight"), b1 = param("net.linear.bias");
  const std::vector<float> w2 = param("net.linear2.weight"), b2 = param("net.linear2.bias");
  const float x[2] = {1, 0};
  float h[10], logits[2];
  for (int j = 0; j < 10; ++j) h[j] = 1 / (1 + std::exp(-(w1[j * 2] * x[0] + w1[j * 2 + 1] * x[1] + b1[j])));
  for (int k = 0; k < 2; ++k) {
    logits[k] = b2[k];
    for (int j = 0; j < 10; ++j) logits[k] += w2[k * 10 + j] * h[j];
  }
  const float lse = std::log(std::exp(logits[0]) + std::exp(logits[1]));
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, 0}, {1, 2})).ok());
  ASSERT_TRUE(forward->set_input(1, tensor(std::vector<int64_t>{1}, {1})).ok());
  absl::Status run = forward->execute();
  ASSERT_TRUE(run.ok()) << run;
  EXPECT_NEAR(forward->get_output(0).toTensor().item<float>(), lse - logits[1], 1e-5);
  EXPECT_EQ(forward->get_output(1).toTensor().item<int64_t>(), logits[1] > logits[0] ? 1 : 0);
  // The parameters (outputs 6..9) are the data file's values (the step computes gradients; the
  // program does not apply them).
  const DataFile::Entry* weight = (*data)->find("net.linear.weight");
  ASSERT_NE(weight, nullptr);
  const Tensor& w = forward->get_output(6).toTensor();
  ASSERT_EQ(w.numel(), 20);
  EXPECT_EQ(std::memcmp(w.data_ptr(), weight->bytes.data(), 80), 0);
}

}  // namespace
}  // namespace sy
