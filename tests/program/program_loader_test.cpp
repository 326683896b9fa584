// Loading program files: ExecuTorch's own programs, programs built by hand, and broken ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

std::vector<uint8_t> addProgram() {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 32);
  int alpha = b.intValue(1);
  int add = b.op("aten::add", "out");
  b.kernelCall(add, {x, y, alpha, out, out}).inputs({x, y}).outputs({out}).bufferSizes({0, 48});
  return b.finish();
}

TEST(ProgramLoader, InspectsExecuTorchsAddProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(program->method_names(), ::testing::ElementsAre("forward"));
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok()) << meta.status();
  ASSERT_EQ(meta->inputs.size(), 2u);
  EXPECT_EQ(meta->inputs[0].kind, "Tensor");
  EXPECT_EQ(meta->inputs[0].dtype, ProgramScalarType::Float);
  EXPECT_EQ(meta->inputs[0].sizes, std::vector<int64_t>{1});
  ASSERT_EQ(meta->operators.size(), 1u);
  EXPECT_EQ(meta->operators[0].toString(), "aten::add.out");
  EXPECT_EQ(meta->planned_buffer_sizes, (std::vector<int64_t>{0, 48}));
  EXPECT_EQ(meta->num_instructions, 1u);
}

TEST(ProgramLoader, LoadsEveryReferenceProgramAndItsDataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(dir_probe, "add.pte");
  for (const char* file : {"add.pte", "add_constant_segment.pte", "add_root.pte", "cadence_quantized_conv.pte",
                           "keyword_spotting_cortex_m.pte", "maxpool2d.pte", "mean_eq_where.pte", "module_linear.pte",
                           "softmax.pte", "stories260k_qnn.pte", "xor_training.pte"}) {
    absl::StatusOr<Program> program = Program::load(testing::referenceProgram(file));
    ASSERT_TRUE(program.ok()) << file << ": " << program.status();
    for (const std::string& method : program->method_names()) {
      EXPECT_TRUE(program->method_meta(method).ok()) << file << " " << method;
    }
  }
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(testing::referenceProgram("xor.ptd"));
  ASSERT_TRUE(data.ok()) << data.status();
  const DataFile::Entry* weight = (*data)->find("net.linear.weight");
  ASSERT_NE(weight, nullptr);
  EXPECT_EQ(weight->dtype, ProgramScalarType::Float);
  EXPECT_EQ(weight->sizes, (std::vector<int64_t>{10, 2}));
  EXPECT_EQ(weight->bytes.size(), 80u);
  EXPECT_EQ((*data)->entries().size(), 4u);
}

TEST(ProgramLoader, InspectsADelegatedProgramWithTypesSwitchyardCannotHold) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "stories260k_qnn.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<MethodMeta> meta = program->method_meta("kv_forward");
  ASSERT_TRUE(meta.ok()) << meta.status();
  ASSERT_EQ(meta->delegates.size(), 1u);
  EXPECT_EQ(meta->delegates[0].backend, "QnnBackend");
  EXPECT_FALSE(meta->delegates[0].processed_inline);
  EXPECT_EQ(meta->delegates[0].processed_size, 1331456u);
  ASSERT_EQ(meta->delegates[0].compile_specs.size(), 1u);
  EXPECT_EQ(meta->delegates[0].compile_specs[0].key, "qnn_compile_spec");
  bool saw_uint16 = false;
  for (const ValueInfo& v : meta->inputs) saw_uint16 |= v.dtype == ProgramScalarType::UInt16;
  EXPECT_TRUE(saw_uint16);
}

TEST(ProgramLoader, ListsTheExternalTensorsATrainingProgramNeeds) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_THAT(meta->external_tensors, ::testing::ElementsAre("net.linear.weight", "net.linear.bias",
                                                             "net.linear2.weight", "net.linear2.bias"));
}

TEST(ProgramLoader, LoadsABuiltProgramFromABuffer) {
  std::vector<uint8_t> bytes = addProgram();
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "built.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->name(), "built.pte");
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->outputs.size(), 1u);
  EXPECT_TRUE(meta->outputs[0].planned);
}

TEST(ProgramLoader, NamesTheMethodsWhenOneIsMissing) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(addProgram(), "built.pte");
  ASSERT_TRUE(program.ok());
  absl::StatusOr<MethodMeta> meta = program->method_meta("backward");
  EXPECT_EQ(meta.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(meta.status().message(), HasSubstr("program 'built.pte' has no method 'backward'; its methods: forward"));
}

TEST(ProgramLoader, RejectsAMissingFile) {
  absl::StatusOr<Program> program = Program::load("/nonexistent/model.pte");
  EXPECT_EQ(program.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(program.status().message(), HasSubstr("'/nonexistent/model.pte': cannot open the file"));
}

TEST(ProgramLoader, RejectsATruncatedFile) {
  std::vector<uint8_t> bytes = addProgram();
  for (size_t size : {size_t{0}, size_t{4}, size_t{8}, bytes.size() / 2, bytes.size() - 1}) {
    absl::StatusOr<Program> program =
        Program::loadFromBuffer(absl::MakeConstSpan(bytes.data(), size), "cut.pte");
    ASSERT_FALSE(program.ok()) << size;
    EXPECT_THAT(program.status().message(), HasSubstr("program 'cut.pte'")) << size;
  }
}

TEST(ProgramLoader, RejectsATruncatedReferenceProgramWithSegments) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add_constant_segment.pte");
  std::vector<uint8_t> bytes = testing::readFile(path);
  bytes.resize(bytes.size() - 2);  // the constant's last bytes are gone
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "cut.pte");
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(program.status().message(), HasSubstr("truncated"));
}

TEST(ProgramLoader, RejectsAFileThatIsNotAProgram) {
  std::string text = "this is not a flatbuffer at all, just text";
  absl::StatusOr<Program> program =
      Program::loadFromBuffer(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "t.pte");
  EXPECT_THAT(program.status().message(), HasSubstr("not an ExecuTorch program (expected the file identifier ET12"));
}

absl::Status loadError(ProgramBuilder& b) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "bad.pte");
  return program.status();
}

TEST(ProgramLoader, RejectsAKernelCallOfAnOperatorThatDoesNotExist) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(3, {x}).bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(),
              HasSubstr("method 'forward': chain 0 instruction 0 (KernelCall) calls operator 3, but the method has 0 operators"));
}

TEST(ProgramLoader, RejectsAnArgumentIndexPastTheValues) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int add = b.op("aten::add", "out");
  b.kernelCall(add, {x, 7}).bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(),
              HasSubstr("instruction 0 (KernelCall) argument 1 refers to value 7, but the method has 1 values"));
}

TEST(ProgramLoader, RejectsANegativeIndex) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.inputs({-1}).bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("input 0 refers to value -1"));
}

TEST(ProgramLoader, RejectsATensorPastTheEndOfItsPlannedBuffer) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {4}, 1, 8);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(),
              HasSubstr("value 0 (Tensor, 16 bytes) at offset 8 of planned buffer 1 runs past its 16 bytes"));
}

TEST(ProgramLoader, RejectsAnOffsetThatWouldWrapAround) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {4}, 1, ~uint64_t{0} - 4);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("runs past its 16 bytes"));
}

TEST(ProgramLoader, HoldsAPlannedUnboundedTensorToItsBuffer) {
  // A Float[1024] with DYNAMIC_UNBOUND shape planned into 16 bytes, or at offset 2^40: set_input
  // wrote 4 KiB past the buffer, or anywhere, before the extent was checked for such tensors.
  for (uint64_t offset : {uint64_t{0}, uint64_t{1} << 40}) {
    ProgramBuilder b;
    int x = b.plannedTensor(ScalarType::Float, {1024}, 1, offset, {}, pte::TensorShapeDynamism::DYNAMIC_UNBOUND);
    b.inputs({x}).outputs({x}).bufferSizes({0, 16});
    EXPECT_THAT(loadError(b).message(),
                HasSubstr(sy::str("value 0 (Tensor, 4096 bytes) at offset ", offset, " of planned buffer 1 runs past its 16 bytes")));
  }
  // Within its buffer it loads and runs as before.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0, {}, pte::TensorShapeDynamism::DYNAMIC_UNBOUND);
  b.inputs({x}).outputs({x}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "unbounded.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, sy::ones({4})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_TRUE(allclose(m->get_output(0).toTensor(), sy::ones({4})));
}

TEST(ProgramLoader, RejectsAMemoryIdWithoutABuffer) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {4}, 2, 0);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("is planned in memory 2, but the method has planned buffers 1..1"));
}

TEST(ProgramLoader, RejectsSizesWhoseByteCountOverflows) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Double, {1 << 30, 1 << 30, 1 << 30}, 1, 0);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("overflow"));
}

TEST(ProgramLoader, RejectsAnEmptyTensorWhoseStridesOverflow) {
  // No elements (a size 0), but the strides of the other sizes do not fit in 64 bits.
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {0, 1 << 30, 1 << 30, 1 << 30}, 1, 0);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(),
              HasSubstr("value 0 (Tensor): sizes [0, 1073741824, 1073741824, 1073741824] overflow the strides"));
}

TEST(ProgramLoader, RejectsNegativeSizes) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {2, -3}, 1, 0);
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("sizes [2, -3] has a negative size at dimension 1"));
}

TEST(ProgramLoader, RejectsADimOrderThatIsNotAPermutation) {
  ProgramBuilder b;
  b.plannedTensor(ScalarType::Float, {2, 2}, 1, 0, {0, 0});
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("dim_order [0, 0] is not a permutation of the 2 dimensions"));
}

TEST(ProgramLoader, RejectsAnUnknownScalarType) {
  ProgramBuilder b;
  b.rawTensor(9, {2}, {0}, true, 1, 0);  // 9 is ComplexFloat, which the format does not define
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("scalar type 9 is not one the format defines"));
}

TEST(ProgramLoader, RejectsAConstantIndexPastTheConstants) {
  ProgramBuilder b;
  b.constantTensor<float>(ScalarType::Float, {1}, {1.f});
  b.rawTensor(6, {1}, {0}, false, 0, 0, /*data_buffer_idx=*/5);
  EXPECT_THAT(loadError(b).message(), HasSubstr("value 1 (Tensor): data_buffer_idx 5 is past the end of constant_buffer"));
}

TEST(ProgramLoader, RejectsAConstantLargerThanItsData) {
  ProgramBuilder b;
  b.constantTensor<float>(ScalarType::Float, {1}, {1.f});
  b.rawTensor(6, {8}, {0}, false, 0, 0, /*data_buffer_idx=*/1);  // 32 bytes from a 4-byte constant
  EXPECT_THAT(loadError(b).message(), HasSubstr("32 bytes at offset 0 run past the end of the 4-byte constant buffer"));
}

TEST(ProgramLoader, RejectsAListItemOfTheWrongKind) {
  ProgramBuilder b;
  int t = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.intList({t});
  b.bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("value 1 (IntList) item 0 refers to value 0, a Tensor, where a Int is needed"));
}

TEST(ProgramLoader, RejectsAJumpOutsideTheChain) {
  ProgramBuilder b;
  int c = b.boolValue(false);
  b.jumpFalseCall(c, 9);
  EXPECT_THAT(loadError(b).message(), HasSubstr("(JumpFalseCall) jumps to instruction 9, but the chain has 1 instructions"));
}

TEST(ProgramLoader, RejectsABackwardJumpThatCouldLoopForever) {
  ProgramBuilder b;
  int c = b.boolValue(false);
  b.freeCall(b.plannedTensor(ScalarType::Float, {1}, 1, 0));
  b.jumpFalseCall(c, 1).bufferSizes({0, 16});
  EXPECT_THAT(loadError(b).message(), HasSubstr("instruction 1 (JumpFalseCall) jumps back to instruction 1; only forward jumps"));
}

TEST(ProgramLoader, RejectsADelegateCallOfADelegateThatDoesNotExist) {
  ProgramBuilder c;
  c.delegate("TestBackend", {1, 2, 3});
  c.delegateCall(2, {});
  EXPECT_THAT(loadError(c).message(), HasSubstr("(DelegateCall) calls delegate 2, but the method has 1 delegates"));
}

TEST(ProgramLoader, ReadsConstantsFromASegmentBehindEitherHeaderLength) {
  for (uint32_t header_length : {24u, 32u}) {
    ProgramBuilder b;
    b.constantTensor<float>(ScalarType::Float, {2}, {1.5f, 2.5f});
    b.constantsInSegment().extendedHeaderLength(header_length);
    absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
    ASSERT_TRUE(program.ok()) << header_length << ": " << program.status();
  }
}

TEST(ProgramLoader, RejectsASegmentPastTheEndOfTheFile) {
  ProgramBuilder b;
  b.constantTensor<float>(ScalarType::Float, {2}, {1.5f, 2.5f});
  b.constantsInSegment();
  std::vector<uint8_t> bytes = b.finish();
  bytes.resize(bytes.size() - 16);  // drop the segment data
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "cut.pte");
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(program.status().message(), HasSubstr("truncated"));
}

TEST(ProgramLoader, RejectsAnExtendedHeaderWithAnImpossibleProgramSize) {
  ProgramBuilder b;
  b.constantTensor<float>(ScalarType::Float, {2}, {1.5f, 2.5f});
  b.constantsInSegment();
  std::vector<uint8_t> bytes = b.finish();
  const uint64_t huge = ~uint64_t{0};
  std::memcpy(bytes.data() + 16, &huge, 8);
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "h.pte");
  EXPECT_THAT(program.status().message(), HasSubstr("extended header: program size 18446744073709551615 does not fit"));
}

TEST(DataFile, RejectsTheOlderLayoutWithItsHeaderFirst) {
  std::vector<uint8_t> bytes(64, 0);
  std::memcpy(bytes.data(), "FH01", 4);
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(bytes, "old.ptd");
  EXPECT_THAT(data.status().message(), HasSubstr("data file 'old.ptd': the data file has its FH01 header at byte 0, the older .ptd layout"));
}

TEST(DataFile, RejectsATruncatedDataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor.ptd");
  std::vector<uint8_t> bytes = testing::readFile(path);
  bytes.resize(bytes.size() - 8);
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::loadFromBuffer(bytes, "cut.ptd");
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("data file 'cut.ptd'"));
  EXPECT_THAT(data.status().message(), HasSubstr("truncated"));
}

}  // namespace
}  // namespace sy
