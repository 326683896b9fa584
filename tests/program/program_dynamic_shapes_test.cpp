// Dynamic shapes at run time: set_input takes sizes within each dimension's bound, kernels and
// delegates resize their outputs within the memory planned for the bound, int lists read sizes
// computed while the method runs, and unbounded tensors grow (See Note [A method's tensors change
// sizes within the memory planned for them]).
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/delegate/backend_registry.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;
using testing::valuesOf;
constexpr auto kBound = pte::TensorShapeDynamism::DYNAMIC_BOUND;
constexpr auto kUnbound = pte::TensorShapeDynamism::DYNAMIC_UNBOUND;

std::vector<float> dynRange(int64_t n, float start = 1) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  return v;
}

Method dynLoadMethod(const std::vector<uint8_t>& bytes, const std::string& name = "forward") {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes);
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method(name);
  EXPECT_TRUE(m.ok()) << m.status();
  return std::move(*m);
}

// y = x + x, both Float[4, 3] of `dynamism`.
std::vector<uint8_t> dynDoublingProgram(pte::TensorShapeDynamism dynamism = kBound) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4, 3}, 1, 0, {}, dynamism);
  int y = b.plannedTensor(ScalarType::Float, {4, 3}, 1, 48, {}, dynamism);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 96});
  return b.finish();
}

TEST(DynamicShapes, SetInputTakesSizesWithinTheBoundAndOutputsFollow) {
  Method m = dynLoadMethod(dynDoublingProgram());
  for (int64_t rows : {4, 2, 1, 3, 0, 4}) {
    ASSERT_TRUE(m.set_input(0, tensor(dynRange(rows * 3), {rows, 3})).ok()) << rows;
    EXPECT_EQ(m.get_input(0).toTensor().sizes(), IntArrayRef({rows, 3}));
    ASSERT_TRUE(m.execute().ok());
    const Tensor& y = m.get_output(0).toTensor();
    EXPECT_EQ(y.sizes(), IntArrayRef({rows, 3})) << rows;
    std::vector<float> expected = dynRange(rows * 3);
    for (float& v : expected) v *= 2;
    EXPECT_EQ(valuesOf<float>(y), expected);
  }
}

TEST(DynamicShapes, SetInputNamesTheDimensionAboveItsBound) {
  Method m = dynLoadMethod(dynDoublingProgram());
  absl::Status s = m.set_input(0, tensor(dynRange(15), {5, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("input 0: dimension 0 has size 5, above its bound of 4 (the tensor given has "
                                     "sizes (5, 3); the program takes sizes up to (4, 3))"));
  // Per dimension, not by element count: [2, 6] has fewer elements than [4, 3].
  s = m.set_input(0, tensor(dynRange(12), {2, 6}));
  EXPECT_THAT(s.message(), HasSubstr("dimension 1 has size 6, above its bound of 3"));
  s = m.set_input(0, tensor(dynRange(12), {12}));
  EXPECT_THAT(s.message(), HasSubstr("input 0 has 2 dimensions (sizes (4, 3), DYNAMIC_BOUND), but the tensor given has 1 "
                                     "(sizes (12,))"));
  // The refused tensors left the input as it was.
  EXPECT_EQ(m.get_input(0).toTensor().sizes(), IntArrayRef({4, 3}));
}

TEST(DynamicShapes, AStaticInputStillTakesExactlyItsSizes) {
  Method m = dynLoadMethod(dynDoublingProgram(pte::TensorShapeDynamism::STATIC));
  absl::Status s = m.set_input(0, tensor(dynRange(6), {2, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("input 0 expects sizes (4, 3), but the tensor given has sizes (2, 3) (dimension 0 "
                                     "is 2 where the program's static sizes say 4)"));
}

// x: Float[<=4] into y = x + x, whose bound is only [2]; z follows y in the buffer.
TEST(DynamicShapes, AResizePastTheBoundIsAnErrorNamingTheValue) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0, {}, kBound);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 16, {}, kBound);
  int z = b.plannedTensor(ScalarType::Float, {2}, 1, 24);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.inputs({x}).outputs({y, z}).bufferSizes({0, 32});
  Method m = dynLoadMethod(b.finish());
  ASSERT_TRUE(m.set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(valuesOf<float>(m.get_output(0).toTensor()), (std::vector<float>{2, 4}));
  ASSERT_TRUE(m.set_input(0, tensor(std::vector<float>{1, 2, 3}, {3})).ok());
  absl::Status s = m.execute();
  EXPECT_THAT(s.message(), HasSubstr("instruction 0 (aten::add.out)"));
  EXPECT_THAT(s.message(), HasSubstr("value 1 cannot grow to 12 bytes: the program plans 8 bytes for it (sizes up to (2,), "
                                     "DYNAMIC_BOUND), so its inputs are larger than the program was exported for"));
  // Nothing was written past y's 8 bytes.
  EXPECT_EQ(valuesOf<float>(m.get_output(1).toTensor()), (std::vector<float>{0, 0}));
}

// A backend that doubles its input into its output, resizing the output to the input's sizes as a
// delegate with dynamic inputs must; it records the sizes it was given.
class DynResizingBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*, absl::Span<const CompileSpec>) const override {
    return nullptr;
  }
  absl::Status execute(BackendExecutionContext&, DelegateHandle*, absl::Span<IValue*> args) const override {
    const Tensor& in = args[0]->toTensor();
    const Tensor& out = args[1]->toTensor();
    seen.emplace_back(in.sizes().begin(), in.sizes().end());
    try {
      out.resize_(in.sizes());
    } catch (const std::exception& e) {
      return absl::InvalidArgumentError(e.what());
    }
    for (int64_t i = 0; i < in.numel(); ++i) out.data_ptr<float>()[i] = 2 * in.data_ptr<float>()[i];
    return absl::OkStatus();
  }
  mutable std::vector<std::vector<int64_t>> seen;
};
DynResizingBackend dyn_resizing_backend;
const absl::Status dyn_resizing_registered = register_backend({"DynResizingBackend", &dyn_resizing_backend});

TEST(DynamicShapes, DelegatesReceiveTheRealSizes) {
  ASSERT_TRUE(dyn_resizing_registered.ok()) << dyn_resizing_registered;
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2, 8}, 1, 0, {}, kBound);
  int y = b.plannedTensor(ScalarType::Float, {2, 8}, 1, 64, {}, kBound);
  int z = b.plannedTensor(ScalarType::Float, {2, 8}, 1, 128, {}, kBound);
  b.delegateCall(b.delegate("DynResizingBackend", {}), {x, y});
  b.kernelCall(b.op("aten::neg", "out"), {y, z, z});
  b.inputs({x}).outputs({z}).bufferSizes({0, 192});
  Method m = dynLoadMethod(b.finish());
  dyn_resizing_backend.seen.clear();
  ASSERT_TRUE(m.set_input(0, tensor(dynRange(6), {2, 3})).ok());
  ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(dyn_resizing_backend.seen, (std::vector<std::vector<int64_t>>{{2, 3}}));
  EXPECT_EQ(m.get_output(0).toTensor().sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(valuesOf<float>(m.get_output(0).toTensor()), (std::vector<float>{-2, -4, -6, -8, -10, -12}));
}

// out = view_copy(x, [sym_size(x, 0), 3, 2]) for x of Float[<=4, 6]: the size list reads an Int
// value the method computes while it runs (See Note [Lists of numbers that change]).
TEST(DynamicShapes, ListsOfSizesReadSizesComputedWhileTheMethodRuns) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {4, 6}, 1, 0, {}, kBound);
  int out = b.plannedTensor(ScalarType::Float, {4, 3, 2}, 1, 96, {}, kBound);
  int rows = b.intValue(4);
  int sizes = b.intList({rows, b.intValue(3), b.intValue(2)});
  b.kernelCall(b.op("aten::sym_size", "int"), {x, b.intValue(0), rows});
  b.kernelCall(b.op("aten::view_copy", "out"), {x, sizes, out, out});
  b.inputs({x}).outputs({out}).bufferSizes({0, 192});
  Method m = dynLoadMethod(b.finish());
  for (int64_t n : {4, 1, 3}) {
    ASSERT_TRUE(m.set_input(0, tensor(dynRange(n * 6), {n, 6})).ok());
    absl::Status s = m.execute();
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(m.get_output(0).toTensor().sizes(), IntArrayRef({n, 3, 2}));
    EXPECT_EQ(valuesOf<float>(m.get_output(0).toTensor()), dynRange(n * 6));
  }
}

// See Note [Unbounded tensors get memory at run time].
TEST(DynamicShapes, UnboundedTensorsGrowAsTheRunsNeed) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0, {}, kUnbound);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 8, {}, kUnbound);
  int z = b.unplannedTensor(ScalarType::Float, {2});
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.kernelCall(b.op("aten::neg", "out"), {y, z, z});
  b.inputs({x}).outputs({z}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  // A bounded tensor fed from an unbounded one is still held to its bytes.
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1}, {1})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(valuesOf<float>(m->get_output(0).toTensor()), (std::vector<float>{-2}));
  ASSERT_TRUE(m->set_input(0, tensor(dynRange(100), {100})).ok());
  absl::Status s = m->execute();
  EXPECT_THAT(s.message(), HasSubstr("instruction 1 (aten::neg.out)"));
  EXPECT_THAT(s.message(), HasSubstr("value 2 cannot grow to 400 bytes: the program plans 8 bytes for it (static sizes (2,), STATIC)"));

  ProgramBuilder u;
  x = u.plannedTensor(ScalarType::Float, {2}, 1, 0, {}, kUnbound);
  y = u.plannedTensor(ScalarType::Float, {2}, 1, 8, {}, kUnbound);
  u.kernelCall(u.op("aten::add", "out"), {x, x, u.intValue(1), y, y});
  u.inputs({x}).outputs({y}).bufferSizes({0, 16});
  Method grows = dynLoadMethod(u.finish());
  for (int64_t n : {100, 3, 1000}) {
    ASSERT_TRUE(grows.set_input(0, tensor(dynRange(n), {n})).ok());
    ASSERT_TRUE(grows.execute().ok());
    std::vector<float> expected = dynRange(n);
    for (float& v : expected) v *= 2;
    EXPECT_EQ(valuesOf<float>(grows.get_output(0).toTensor()), expected);
  }
  absl::Status rank = grows.set_input(0, tensor(dynRange(4), {2, 2}));
  EXPECT_THAT(rank.message(), HasSubstr("input 0 has 1 dimensions (sizes (2,), DYNAMIC_UNBOUND)"));
}

TEST(DynamicShapes, MethodMetaReportsDynamismAndBounds) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(dynDoublingProgram());
  ASSERT_TRUE(program.ok());
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->inputs[0].dynamism, ShapeDynamism::DynamicBound);
  EXPECT_EQ(meta->inputs[0].sizes, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(meta->inputs[0].nbytes, 48u);
  EXPECT_STREQ(toString(meta->outputs[0].dynamism), "dynamic (bounded)");
}

TEST(DynamicShapes, AnUndefinedDynamismIsRefusedAtLoad) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0, {}, static_cast<pte::TensorShapeDynamism>(7));
  b.inputs({x}).outputs({x}).bufferSizes({0, 8});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(program.status().message(), HasSubstr("value 0 (Tensor) has shape dynamism 7, which the format does not define"));
}

}  // namespace
}  // namespace sy
