// The first aten:: operators through the dispatcher with their CPU kernels: empty, acos, sin,
// add, mul, copy_. Expected values are computed here independently (std:: functions per element,
// hand-worked broadcasts).
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::mapped;
using sy::testing::valuesOf;
using sy::testing::viewOf;

const std::vector<float> kFloatInputs = {-1.0f, -0.5f, 0.0f, 0.25f, 0.75f, 1.0f};
const std::vector<double> kDoubleInputs = {-1.0, -0.5, 0.0, 0.25, 0.75, 1.0};

// ---------------------------------------------------------------------------------------------
// empty

TEST(CpuOpsEmpty, DefaultsToContiguousFloatOnCpu) {
  Tensor t = ops::empty({2, 3});
  EXPECT_THAT(t.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(t.strides(), ElementsAre(3, 1));
  EXPECT_EQ(t.scalar_type(), ScalarType::Float);
  EXPECT_TRUE(t.is_cpu());
}

TEST(CpuOpsEmpty, UsesRequestedDtype) {
  for (ScalarType dtype : {ScalarType::Bool, ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    EXPECT_EQ(ops::empty({4}, dtype).scalar_type(), dtype);
  }
}

TEST(CpuOpsEmpty, AllowsZeroSizedAndZeroDimTensors) {
  EXPECT_EQ(ops::empty({0, 3}).numel(), 0);
  Tensor scalar = ops::empty({});
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
}

TEST(CpuOpsEmpty, RejectsNegativeSizeNamingOperatorAndIndex) {
  EXPECT_TRUE(raisesError([] { ops::empty({2, -1}); }, ErrorKind::Value,
                          "aten::empty.memory_format: negative dimension -1 at index 1 of size (2, -1)"));
}

TEST(CpuOpsEmpty, ChannelsLastGivesNhwcStrides) {
  auto op = Dispatcher::singleton()
                .findSchemaOrThrow("aten::empty", "memory_format")
                .typed<Tensor(IntArrayRef, std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                              std::optional<bool>, std::optional<MemoryFormat>)>();
  Tensor t = op.call({2, 3, 4, 5}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::ChannelsLast);
  EXPECT_THAT(t.strides(), ElementsAre(60, 1, 15, 3));
  EXPECT_THAT(t.dim_order(), ElementsAre(0, 2, 3, 1));
  EXPECT_THAT(errorMessageOf([&] {
                op.call({2, 3}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::ChannelsLast);
              }),
              HasSubstr("ChannelsLast needs a 4-D size"));
}

TEST(CpuOpsEmpty, BoxedCallWithDefaultsWorks) {
  Stack stack{std::vector<int64_t>{3, 2}, ScalarType::Long, IValue(), IValue(), IValue(), IValue()};
  Dispatcher::singleton().findSchemaOrThrow("aten::empty", "memory_format").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  Tensor t = stack[0].toTensor();
  EXPECT_THAT(t.sizes(), ElementsAre(3, 2));
  EXPECT_EQ(t.scalar_type(), ScalarType::Long);
}

// ---------------------------------------------------------------------------------------------
// acos and sin, every dtype

TEST(CpuOpsUnary, AcosOfFloatMatchesStdAcos) {
  Tensor y = ops::acos(tensor<float>(kFloatInputs));
  EXPECT_EQ(y.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(y), ElementsAreArray(mapped(kFloatInputs, [](float x) { return std::acos(x); })));
}

TEST(CpuOpsUnary, AcosOfDoubleStaysDouble) {
  Tensor y = ops::acos(tensor<double>(kDoubleInputs));
  EXPECT_EQ(y.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(y), ElementsAreArray(mapped(kDoubleInputs, [](double x) { return std::acos(x); })));
}

TEST(CpuOpsUnary, AcosOfIntegralAndBoolGivesFloat) {
  const std::vector<float> expected = {std::acos(-1.0f), std::acos(0.0f), std::acos(1.0f)};
  EXPECT_THAT(valuesOf<float>(ops::acos(tensor<int32_t>({-1, 0, 1}))), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<float>(ops::acos(tensor<int64_t>({-1, 0, 1}))), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<float>(ops::acos(tensor<bool>({false, true}))),
              ElementsAre(std::acos(0.0f), std::acos(1.0f)));
}

TEST(CpuOpsUnary, AcosOutWritesIntoOutForEveryInputDtype) {
  const std::vector<float> expected = {std::acos(-1.0f), std::acos(0.0f), std::acos(1.0f)};
  for (const Tensor& x : {tensor<int32_t>({-1, 0, 1}), tensor<int64_t>({-1, 0, 1}), tensor<float>({-1, 0, 1})}) {
    Tensor out = empty({3});
    ops::acos_out(out, x);
    EXPECT_THAT(valuesOf<float>(out), ElementsAreArray(expected)) << x.scalar_type();
  }
  Tensor out_double = empty({6}, ScalarType::Double);
  ops::acos_out(out_double, tensor<double>(kDoubleInputs));
  EXPECT_THAT(valuesOf<double>(out_double),
              ElementsAreArray(mapped(kDoubleInputs, [](double x) { return std::acos(x); })));
}

TEST(CpuOpsUnary, SinOfEachDtypeMatchesStdSin) {
  EXPECT_THAT(valuesOf<float>(ops::sin(tensor<float>(kFloatInputs))),
              ElementsAreArray(mapped(kFloatInputs, [](float x) { return std::sin(x); })));
  EXPECT_THAT(valuesOf<double>(ops::sin(tensor<double>(kDoubleInputs))),
              ElementsAreArray(mapped(kDoubleInputs, [](double x) { return std::sin(x); })));
  const std::vector<float> expected = {std::sin(-2.0f), std::sin(0.0f), std::sin(3.0f)};
  EXPECT_THAT(valuesOf<float>(ops::sin(tensor<int32_t>({-2, 0, 3}))), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<float>(ops::sin(tensor<int64_t>({-2, 0, 3}))), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<float>(ops::sin(tensor<bool>({true}))), ElementsAre(std::sin(1.0f)));
}

TEST(CpuOpsUnary, SinOutWritesIntoOut) {
  Tensor out = empty({6}, ScalarType::Double);
  ops::sin_out(out, tensor<double>(kDoubleInputs));
  EXPECT_THAT(valuesOf<double>(out), ElementsAreArray(mapped(kDoubleInputs, [](double x) { return std::sin(x); })));
}

TEST(CpuOpsUnary, AcosPropagatesNanAndOutOfDomainGivesNan) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  Tensor y = ops::acos(tensor<float>({2.0f, -2.0f, std::nanf(""), kInf}));
  for (float v : valuesOf<float>(y)) EXPECT_TRUE(std::isnan(v)) << v;
}

TEST(CpuOpsUnary, SinOfInfinityIsNan) {
  Tensor y = ops::sin(tensor<double>({std::numeric_limits<double>::infinity()}));
  EXPECT_TRUE(std::isnan(valuesOf<double>(y)[0]));
}

TEST(CpuOpsUnary, FloatResultIntoDoubleOutIsConvertedOnStore) {
  Tensor out = empty({2}, ScalarType::Double);
  ops::acos_out(out, tensor<float>({0.5f, -0.5f}));
  EXPECT_THAT(valuesOf<double>(out),
              ElementsAre(static_cast<double>(std::acos(0.5f)), static_cast<double>(std::acos(-0.5f))));
}

TEST(CpuOpsUnary, AcosOutIntoIntegralOutIsACastError) {
  Tensor out = empty({2}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::acos_out(out, tensor<float>({0.5f, 1.0f})); }),
            "aten::acos.out: result type Float can't be cast to the desired output type Long");
}

TEST(CpuOpsUnary, ZeroDimAndEmptyInputsKeepTheirShape) {
  Tensor scalar = full({}, 0.5, ScalarType::Double);
  Tensor y = ops::acos(scalar);
  EXPECT_EQ(y.dim(), 0);
  EXPECT_EQ(y.item<double>(), std::acos(0.5));
  Tensor none = ops::sin(empty({0, 3}));
  EXPECT_THAT(none.sizes(), ElementsAre(0, 3));
}

TEST(CpuOpsUnary, UndefinedDtypeIsAnErrorNamingOperatorAndArgument) {
  auto impl = make_intrusive<TensorImpl>(Storage(), ScalarType::Undefined, kCPU);
  impl->set_sizes_and_strides({1}, {1}, 0);
  Tensor weird(std::move(impl));
  Tensor out = empty({1});
  EXPECT_EQ(errorMessageOf([&] { ops::acos_out(out, weird); }),
            "aten::acos.out: argument 'self' has dtype Undefined, which this kernel does not support "
            "(supported: Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16)");
}

// ---------------------------------------------------------------------------------------------
// add and mul, every dtype

TEST(CpuOpsBinary, AddOfEachDtypeKeepsDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::add(tensor<int32_t>({1, -2, 3}), tensor<int32_t>({10, 20, -30}))),
              ElementsAre(11, 18, -27));
  EXPECT_THAT(valuesOf<int64_t>(ops::add(tensor<int64_t>({1, -2, 3}), tensor<int64_t>({10, 20, -30}))),
              ElementsAre(11, 18, -27));
  EXPECT_THAT(valuesOf<float>(ops::add(tensor<float>({1.5f, -2}), tensor<float>({0.25f, 2}))),
              ElementsAre(1.75f, 0.0f));
  EXPECT_THAT(valuesOf<double>(ops::add(tensor<double>({1.5, -2}), tensor<double>({0.25, 2}))),
              ElementsAre(1.75, 0.0));
}

TEST(CpuOpsBinary, AddScalesOtherByAlpha) {
  EXPECT_THAT(valuesOf<int64_t>(ops::add(tensor<int64_t>({1, 2}), tensor<int64_t>({10, 20}), 3)),
              ElementsAre(31, 62));
  EXPECT_THAT(valuesOf<double>(ops::add(tensor<double>({1, 2}), tensor<double>({10, 20}), -0.5)),
              ElementsAre(-4.0, -8.0));
}

TEST(CpuOpsBinary, AddOfBoolsIsLogicalOr) {
  Tensor r = ops::add(tensor<bool>({false, false, true, true}), tensor<bool>({false, true, false, true}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(false, true, true, true));
}

TEST(CpuOpsBinary, MulOfBoolsIsLogicalAnd) {
  Tensor r = ops::mul(tensor<bool>({false, false, true, true}), tensor<bool>({false, true, false, true}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(false, false, false, true));
}

TEST(CpuOpsBinary, MulOfEachNumericDtypeKeepsDtype) {
  EXPECT_THAT(valuesOf<int32_t>(ops::mul(tensor<int32_t>({2, -3}), tensor<int32_t>({5, 7}))), ElementsAre(10, -21));
  EXPECT_THAT(valuesOf<int64_t>(ops::mul(tensor<int64_t>({2, -3}), tensor<int64_t>({5, 7}))), ElementsAre(10, -21));
  EXPECT_THAT(valuesOf<float>(ops::mul(tensor<float>({1.5f, -2}), tensor<float>({2, 0.25f}))),
              ElementsAre(3.0f, -0.5f));
  EXPECT_THAT(valuesOf<double>(ops::mul(tensor<double>({1.5, -2}), tensor<double>({2, 0.25}))),
              ElementsAre(3.0, -0.5));
}

TEST(CpuOpsBinary, AddOutAndMulOutWriteEachDtype) {
  Tensor out_int = empty({2}, ScalarType::Int);
  ops::add_out(out_int, tensor<int32_t>({1, 2}), tensor<int32_t>({3, 4}));
  EXPECT_THAT(valuesOf<int32_t>(out_int), ElementsAre(4, 6));
  Tensor out_long = empty({2}, ScalarType::Long);
  ops::mul_out(out_long, tensor<int64_t>({1, 2}), tensor<int64_t>({3, 4}));
  EXPECT_THAT(valuesOf<int64_t>(out_long), ElementsAre(3, 8));
  Tensor out_float = empty({2});
  ops::add_out(out_float, tensor<float>({1, 2}), tensor<float>({3, 4}), 2);
  EXPECT_THAT(valuesOf<float>(out_float), ElementsAre(7.0f, 10.0f));
  Tensor out_double = empty({2}, ScalarType::Double);
  ops::mul_out(out_double, tensor<double>({1.5, 2}), tensor<double>({3, 4}));
  EXPECT_THAT(valuesOf<double>(out_double), ElementsAre(4.5, 8.0));
  Tensor out_bool = empty({2}, ScalarType::Bool);
  ops::mul_out(out_bool, tensor<bool>({true, true}), tensor<bool>({true, false}));
  EXPECT_THAT(valuesOf<bool>(out_bool), ElementsAre(true, false));
}

TEST(CpuOpsBinary, IntegralResultIntoWiderOutIsConvertedOnStore) {
  Tensor out = empty({2}, ScalarType::Double);
  ops::add_out(out, tensor<int32_t>({1, 2}), tensor<int32_t>({3, 4}));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(4.0, 6.0));
}

// ---------------------------------------------------------------------------------------------
// Type promotion

TEST(CpuOpsPromotion, IntPlusFloatIsFloat) {
  Tensor r = ops::add(tensor<int32_t>({1, 2}), tensor<float>({0.5f, 0.25f}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(1.5f, 2.25f));
}

TEST(CpuOpsPromotion, LongPlusDoubleIsDouble) {
  Tensor r = ops::add(tensor<int64_t>({1, 2}), tensor<double>({0.5, 0.25}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(r), ElementsAre(1.5, 2.25));
}

TEST(CpuOpsPromotion, BoolTimesIntIsInt) {
  Tensor r = ops::mul(tensor<bool>({true, false}), tensor<int32_t>({7, 7}));
  EXPECT_EQ(r.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(r), ElementsAre(7, 0));
}

TEST(CpuOpsPromotion, ZeroDimOperandOfSameCategoryDoesNotWidenTheResult) {
  // As in PyTorch: float32 [2] * float64 0-dim stays float32; int32 [2] + int64 0-dim stays int32.
  EXPECT_EQ(ops::mul(tensor<float>({1, 2}), full({}, 2.0, ScalarType::Double)).scalar_type(), ScalarType::Float);
  EXPECT_EQ(ops::add(tensor<int32_t>({1, 2}), full({}, 2, ScalarType::Long)).scalar_type(), ScalarType::Int);
  // A higher category still wins: int32 [2] + float64 0-dim is float64.
  EXPECT_EQ(ops::add(tensor<int32_t>({1, 2}), full({}, 2, ScalarType::Double)).scalar_type(), ScalarType::Double);
}

TEST(CpuOpsPromotion, AddOutOfFloatResultIntoLongOutIsACastError) {
  Tensor out = empty({2}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::add_out(out, tensor<float>({1, 2}), tensor<int64_t>({1, 2})); }),
            "aten::add.out: result type Float can't be cast to the desired output type Long");
}

TEST(CpuOpsPromotion, MulOutOfIntResultIntoBoolOutIsACastError) {
  Tensor out = empty({2}, ScalarType::Bool);
  EXPECT_EQ(errorMessageOf([&] { ops::mul_out(out, tensor<int32_t>({1, 2}), tensor<int32_t>({1, 2})); }),
            "aten::mul.out: result type Int can't be cast to the desired output type Bool");
}

TEST(CpuOpsPromotion, FloatingAlphaWithIntegralInputsIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::add(tensor<int64_t>({1}), tensor<int64_t>({1}), 0.5); }),
            "aten::add.Tensor: For integral input tensors, argument alpha must not be a floating point number.");
}

// ---------------------------------------------------------------------------------------------
// Broadcasting

TEST(CpuOpsBroadcast, ColumnPlusRowGivesTheOuterSum) {
  Tensor column = tensor<int64_t>({1, 2, 3}, {3, 1});
  Tensor row = tensor<int64_t>({10, 20, 30, 40}, {1, 4});
  Tensor r = ops::add(column, row);
  EXPECT_THAT(r.sizes(), ElementsAre(3, 4));
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAre(11, 21, 31, 41,  //
                                                12, 22, 32, 42,  //
                                                13, 23, 33, 43));
}

TEST(CpuOpsBroadcast, ZeroDimTensorCombinesWithEveryElement) {
  Tensor matrix = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor scalar = full({}, 10.0f, ScalarType::Float);
  Tensor r = ops::mul(scalar, matrix);
  EXPECT_THAT(r.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(10, 20, 30, 40, 50, 60));
  Tensor s = ops::add(matrix, scalar, 2);
  EXPECT_THAT(valuesOf<float>(s), ElementsAre(21, 22, 23, 24, 25, 26));
}

TEST(CpuOpsBroadcast, MissingLeadingDimensionsActAsOne) {
  Tensor r = ops::add(tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}), tensor<int32_t>({100, 200, 300}));
  EXPECT_THAT(valuesOf<int32_t>(r), ElementsAre(101, 202, 303, 104, 205, 306));
}

TEST(CpuOpsBroadcast, NonBroadcastableShapesNameOperatorAndBothShapes) {
  EXPECT_EQ(errorMessageOf([] { ops::add(zeros({3, 2}), zeros({4})); }),
            "aten::add.Tensor: the shapes (3, 2) and (4,) cannot be broadcast together: the size of tensor a (2) "
            "must match the size of tensor b (4) at non-singleton dimension 1");
  Tensor out = empty({0});
  EXPECT_THAT(errorMessageOf([&] { ops::mul_out(out, zeros({2, 3}), zeros({3, 2})); }),
              HasSubstr("aten::mul.out: the shapes (2, 3) and (3, 2) cannot be broadcast together"));
}

TEST(CpuOpsBroadcast, EmptyOperandGivesEmptyResult) {
  Tensor r = ops::add(empty({0}), ones({1}));
  EXPECT_THAT(r.sizes(), ElementsAre(0));
  Tensor s = ops::mul(empty({2, 0}), ones({2, 1}));
  EXPECT_THAT(s.sizes(), ElementsAre(2, 0));
}

// ---------------------------------------------------------------------------------------------
// Non-contiguous inputs and outputs

TEST(CpuOpsStrided, TransposedInputIsReadInLogicalOrder) {
  Tensor base = tensor<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});  // [[1, 4], [2, 5], [3, 6]]
  ASSERT_FALSE(transposed.is_contiguous());
  Tensor r = ops::add(transposed, tensor<double>({10, 20, 30, 40, 50, 60}, {3, 2}));
  EXPECT_THAT(valuesOf<double>(r), ElementsAre(11, 24, 32, 45, 53, 66));
  Tensor s = ops::sin(transposed);
  EXPECT_THAT(valuesOf<double>(s), ElementsAre(std::sin(1.0), std::sin(4.0), std::sin(2.0), std::sin(5.0),
                                               std::sin(3.0), std::sin(6.0)));
}

TEST(CpuOpsStrided, ExpandedStrideZeroInputRepeatsItsValues) {
  Tensor row = tensor<int64_t>({1, 2, 3});
  Tensor expanded = viewOf(row, {4, 3}, {0, 1});
  Tensor r = ops::mul(expanded, tensor<int64_t>({1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}, {4, 3}));
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAre(1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 8, 12));
}

TEST(CpuOpsStrided, SlicedInputSkipsTheGaps) {
  Tensor base = tensor<float>({0, 1, 2, 3, 4, 5, 6, 7});
  Tensor every_other = viewOf(base, {3}, {2}, 1);  // [1, 3, 5]
  Tensor r = ops::add(every_other, ones({3}));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(2, 4, 6));
}

TEST(CpuOpsStrided, TransposedOutIsWrittenThroughItsStrides) {
  Tensor storage = zeros({6}, ScalarType::Long);
  Tensor out = viewOf(storage, {3, 2}, {1, 3});
  ops::add_out(out, tensor<int64_t>({1, 2, 3, 4, 5, 6}, {3, 2}), full({}, 100, ScalarType::Long));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(101, 102, 103, 104, 105, 106));
  EXPECT_THAT(valuesOf<int64_t>(storage), ElementsAre(101, 103, 105, 102, 104, 106));
}

TEST(CpuOpsStrided, InPlaceOutAliasingAnInputIsCorrect) {
  Tensor x = tensor<float>({1, 2, 3});
  ops::add_out(x, x, x);
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(2, 4, 6));
}

// ---------------------------------------------------------------------------------------------
// Out arguments

TEST(CpuOpsOut, OutOfTheWrongShapeIsResized) {
  Tensor out = empty({7});
  ops::add_out(out, tensor<float>({1, 2, 3}, {3, 1}), tensor<float>({10, 20}, {1, 2}));
  EXPECT_THAT(out.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(11, 21, 12, 22, 13, 23));
  Tensor unary_out = empty({0});
  ops::acos_out(unary_out, zeros({2, 2}));
  EXPECT_THAT(unary_out.sizes(), ElementsAre(2, 2));
}

TEST(CpuOpsOut, OutAndInPlaceFormsReturnTheCallersObject) {
  Tensor x = tensor<float>({0.5f, 0.25f});
  Tensor out = empty({2});
  EXPECT_EQ(&ops::acos_out(out, x), &out);
  EXPECT_EQ(&ops::sin_out(out, x), &out);
  EXPECT_EQ(&ops::add_out(out, x, x), &out);
  EXPECT_EQ(&ops::mul_out(out, x, x), &out);
  EXPECT_EQ(&ops::copy_(out, x), &out);
  EXPECT_EQ(&out.copy_(x), &out);
}

// ---------------------------------------------------------------------------------------------
// copy_

TEST(CpuOpsCopy, ConvertsBetweenDtypes) {
  Tensor ints = empty({4}, ScalarType::Int);
  ops::copy_(ints, tensor<double>({1.9, -1.9, 0.0, 42.0}));
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(1, -1, 0, 42));  // truncation toward zero
  Tensor bools = empty({3}, ScalarType::Bool);
  ops::copy_(bools, tensor<float>({0.0f, 0.5f, -2.0f}));
  EXPECT_THAT(valuesOf<bool>(bools), ElementsAre(false, true, true));
  Tensor doubles = empty({2}, ScalarType::Double);
  ops::copy_(doubles, tensor<bool>({true, false}));
  EXPECT_THAT(valuesOf<double>(doubles), ElementsAre(1.0, 0.0));
}

TEST(CpuOpsCopy, WritesIntoATransposedDestination) {
  Tensor storage = zeros({6});
  Tensor dst = viewOf(storage, {2, 3}, {1, 2});
  ops::copy_(dst, tensor<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3}));
  EXPECT_THAT(valuesOf<float>(dst), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(valuesOf<float>(storage), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(CpuOpsCopy, BroadcastsSourceToSelfShape) {
  Tensor dst = empty({2, 3}, ScalarType::Long);
  ops::copy_(dst, tensor<int64_t>({7, 8, 9}));
  EXPECT_THAT(valuesOf<int64_t>(dst), ElementsAre(7, 8, 9, 7, 8, 9));
}

TEST(CpuOpsCopy, NonBroadcastableSourceIsAnError) {
  Tensor dst = empty({2, 3});
  EXPECT_EQ(errorMessageOf([&] { ops::copy_(dst, zeros({2})); }),
            "aten::copy_: src of size (2,) cannot be broadcast to self of size (2, 3)");
}

TEST(CpuOpsCopy, OverlappingTransposeOfItselfIsStaged) {
  Tensor square = tensor<int32_t>({1, 2, 3, 4}, {2, 2});
  ops::copy_(square, viewOf(square, {2, 2}, {1, 2}));
  EXPECT_THAT(valuesOf<int32_t>(square), ElementsAre(1, 3, 2, 4));
}

TEST(CpuOpsCopy, ToSameDeviceReturnsTheSameTensor) {
  Tensor x = ones({2});
  EXPECT_TRUE(x.to(kCPU).is_same(x));
}

// ---------------------------------------------------------------------------------------------
// Dispatch counts

TEST(CpuOpsDispatch, FunctionalAcosCostsExactlyTwoDispatches) {
  Tensor x = tensor<float>({0.5f});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::acos(x);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::acos", 1}, {"aten::empty.memory_format", 1}}));
}

TEST(CpuOpsDispatch, FunctionalAddAndMulCostExactlyTwoDispatchesEach) {
  Tensor x = tensor<int32_t>({1, 2});
  Tensor y = tensor<float>({0.5f, 0.25f});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::add(x, y);
    ops::mul(x, y);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{
                       {"aten::add.Tensor", 1}, {"aten::mul.Tensor", 1}, {"aten::empty.memory_format", 2}}));
}

TEST(CpuOpsDispatch, NonCpuInputReachingACpuKernelIsAClearError) {
  // A tensor claiming to live on another device, with no kernel of its own: forcing the CPU key
  // sends it to the CPU kernel, which must refuse it rather than read foreign memory.
  auto impl = make_intrusive<TensorImpl>(Storage(), ScalarType::Float, kAccel);
  impl->set_key_set(DispatchKeySet(DispatchKey::CPU));
  Tensor foreign(std::move(impl));
  EXPECT_EQ(errorMessageOf([&] { ops::sin(foreign); }),
            "aten::sin: argument 'self' is on accel, but this is the CPU kernel; copy the tensor to the CPU first "
            "or register a kernel for its backend");
  Tensor dst = zeros({1});
  EXPECT_THAT(errorMessageOf([&] { ops::copy_(dst, foreign); }),
              HasSubstr("aten::copy_: the CPU kernel copies between CPU tensors, but self is on cpu and src is on accel"));
}

}  // namespace
}  // namespace sy
