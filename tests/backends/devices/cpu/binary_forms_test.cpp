// The out= and in-place forms of the binary operators, and the layouts they must handle: out= is
// resized to the broadcast shape, in-place `self` is not; both return the caller's own object;
// results written through a transposed out, inputs aliasing the output, expanded outputs refused;
// 0-dim and empty operands; and the functional forms' dispatch cost.
//
// Expected values are hand-worked small cases; all arithmetic is exact (small integers).
#include <cstdint>
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
using sy::testing::valuesOf;
using sy::testing::viewOf;

// ---------------------------------------------------------------------------------------------
// Returning the caller's object

TEST(BinaryForms, OutFormsReturnTheCallersOutObject) {
  Tensor x = tensor<float>({4, 2});
  Tensor y = tensor<float>({2, 1});
  Tensor out = empty({2});
  EXPECT_EQ(&ops::add_out(out, x, 1), &out);
  EXPECT_EQ(&ops::sub_out(out, x, y), &out);
  EXPECT_EQ(&ops::sub_out(out, x, 1), &out);
  EXPECT_EQ(&ops::mul_out(out, x, 2), &out);
  EXPECT_EQ(&ops::div_out(out, x, y), &out);
  EXPECT_EQ(&ops::div_out(out, x, y, "floor"), &out);
  EXPECT_EQ(&ops::div_out(out, x, 2), &out);
  EXPECT_EQ(&ops::div_out(out, x, 2, "trunc"), &out);
  EXPECT_EQ(&ops::maximum_out(out, x, y), &out);
  EXPECT_EQ(&ops::minimum_out(out, x, y), &out);
}

TEST(BinaryForms, InPlaceFormsReturnTheCallersSelfObject) {
  Tensor x = tensor<double>({8, 4});
  Tensor y = tensor<double>({2, 2});
  EXPECT_EQ(&ops::add_(x, y), &x);
  EXPECT_EQ(&ops::add_(x, 1), &x);
  EXPECT_EQ(&ops::sub_(x, y), &x);
  EXPECT_EQ(&ops::sub_(x, 1), &x);
  EXPECT_EQ(&ops::mul_(x, y), &x);
  EXPECT_EQ(&ops::mul_(x, 2), &x);
  EXPECT_EQ(&ops::div_(x, y), &x);
  EXPECT_EQ(&ops::div_(x, y, "trunc"), &x);
  EXPECT_EQ(&ops::div_(x, 2), &x);
  EXPECT_EQ(&ops::div_(x, 2, std::nullopt), &x);
  // 8 -> 10 -> 11 -> 9 -> 8 -> 16 -> 32 -> 16 -> 8 -> 4 -> 2, and 4 -> ... -> 1.
  EXPECT_THAT(valuesOf<double>(x), ElementsAre(2.0, 1.0));
}

// ---------------------------------------------------------------------------------------------
// In place

TEST(BinaryForms, InPlaceAddWritesSelfPlusAlphaTimesOther) {
  Tensor x = tensor<int64_t>({1, 2, 3});
  ops::add_(x, tensor<int64_t>({10, 20, 30}), 2);
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(21, 42, 63));
  ops::sub_(x, 1, 3);
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(18, 39, 60));
}

TEST(BinaryForms, InPlaceBroadcastsOtherToSelf) {
  Tensor x = tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  ops::mul_(x, tensor<int32_t>({1, 10, 100}));
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(1, 20, 300, 4, 50, 600));
}

TEST(BinaryForms, InPlaceSelfCannotGrowToTheBroadcastShape) {
  Tensor x = tensor<float>({1, 2, 3});
  EXPECT_EQ(errorMessageOf([&] { ops::add_(x, zeros({2, 3})); }),
            "aten::add_.Tensor: output with shape (3,) doesn't match the broadcast shape (2, 3)");
  EXPECT_THAT(x.sizes(), ElementsAre(3));
}

TEST(BinaryForms, InPlaceResultThatCannotBeCastToSelfIsAnError) {
  Tensor ints = tensor<int32_t>({1, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::add_(ints, tensor<float>({0.5f, 0.5f})); }),
            "aten::add_.Tensor: result type Float can't be cast to the desired output type Int");
  EXPECT_EQ(errorMessageOf([&] { ops::mul_(ints, 1.5); }),
            "aten::mul_.Scalar: result type Float can't be cast to the desired output type Int");
  Tensor bools = tensor<bool>({true});
  EXPECT_EQ(errorMessageOf([&] { ops::add_(bools, 1); }),
            "aten::add_.Scalar: result type Long can't be cast to the desired output type Bool");
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(1, 2));  // untouched
}

TEST(BinaryForms, InPlaceIntoAWiderSelfConvertsTheResult) {
  Tensor x = tensor<double>({1, 2});
  ops::add_(x, tensor<int32_t>({3, 4}));  // Double + Int is Double
  EXPECT_THAT(valuesOf<double>(x), ElementsAre(4.0, 6.0));
  Tensor f = tensor<float>({1, 2});
  ops::mul_(f, tensor<double>({0.5, 0.25}));  // Float * Double is Double, cast back to Float
  EXPECT_THAT(valuesOf<float>(f), ElementsAre(0.5f, 0.5f));
}

TEST(BinaryForms, InPlaceWithItsOwnTransposeReadsEveryInputBeforeOverwritingIt) {
  // x += x^T on [[1, 2], [3, 4]] is [[2, 5], [5, 8]]; writing in place without staging would
  // read x[1][0] after x[0][1] had changed.
  Tensor x = tensor<int64_t>({1, 2, 3, 4}, {2, 2});
  ops::add_(x, viewOf(x, {2, 2}, {1, 2}));
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(2, 5, 5, 8));
}

TEST(BinaryForms, InPlaceOnATransposedViewWritesTheUnderlyingStorage) {
  Tensor storage = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(storage, {3, 2}, {1, 3});  // [[1, 4], [2, 5], [3, 6]]
  ops::sub_(transposed, tensor<float>({1, 2}));         // broadcast row
  EXPECT_THAT(valuesOf<float>(transposed), ElementsAre(0, 2, 1, 3, 2, 4));
  EXPECT_THAT(valuesOf<float>(storage), ElementsAre(0, 1, 2, 2, 3, 4));
}

TEST(BinaryForms, LargeTransposedInputMatchesANaiveLoop) {
  // Big enough for the loops to walk the transposed operand in tiles, with ragged edge tiles
  // (37 rows, 300 columns), and with an outer dimension of two such planes.
  const int64_t planes = 2, rows = 37, columns = 300;
  std::vector<double> a_values(planes * rows * columns), b_values(planes * columns * rows);
  for (size_t i = 0; i < a_values.size(); ++i) a_values[i] = static_cast<double>(i);
  for (size_t i = 0; i < b_values.size(); ++i) b_values[i] = 0.5 * static_cast<double>(i);
  Tensor a = tensor<double>(a_values, {planes, rows, columns});
  Tensor b_storage = tensor<double>(b_values, {planes, columns, rows});
  Tensor b = viewOf(b_storage, {planes, rows, columns}, {columns * rows, 1, rows});  // b_storage transposed
  std::vector<double> expected;
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < columns; ++c) {
        expected.push_back(a_values[(p * rows + r) * columns + c] - b_values[(p * columns + c) * rows + r]);
      }
    }
  }
  EXPECT_THAT(valuesOf<double>(ops::sub(a, b)), ElementsAreArray(expected));
  ops::sub_(a, b);
  EXPECT_THAT(valuesOf<double>(a), ElementsAreArray(expected));
}

// ---------------------------------------------------------------------------------------------
// Out

TEST(BinaryForms, OutOfTheWrongShapeIsResizedToTheBroadcastShape) {
  Tensor out = empty({5}, ScalarType::Long);
  ops::sub_out(out, tensor<int64_t>({10, 20}, {2, 1}), tensor<int64_t>({1, 2, 3}));
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(9, 8, 7, 19, 18, 17));
  Tensor scalar_out = empty({0});
  ops::mul_out(scalar_out, ones({2, 2}), 3);
  EXPECT_THAT(scalar_out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(scalar_out), ElementsAre(3, 3, 3, 3));
}

TEST(BinaryForms, OutOfAWiderDtypeReceivesTheConvertedResult) {
  Tensor out = empty({2}, ScalarType::Double);
  ops::sub_out(out, tensor<int32_t>({5, 7}), 2);
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(3.0, 5.0));
}

TEST(BinaryForms, TransposedOutIsWrittenThroughItsStrides) {
  Tensor storage = zeros({6}, ScalarType::Int);
  Tensor out = viewOf(storage, {2, 3}, {1, 2});
  ops::mul_out(out, tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}), 10);
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(10, 20, 30, 40, 50, 60));
  EXPECT_THAT(valuesOf<int32_t>(storage), ElementsAre(10, 40, 20, 50, 30, 60));
}

TEST(BinaryForms, ExpandedOutIsRefusedBecauseElementsShareMemory) {
  Tensor one = zeros({3});
  Tensor expanded = viewOf(one, {2, 3}, {0, 1});
  EXPECT_TRUE(raisesError([&] { ops::add_out(expanded, ones({2, 3}), ones({2, 3})); }, ErrorKind::Generic,
                          "aten::add.out: unsupported operation: more than one element of the written-to tensor "
                          "refers to a single memory location (dimension 0 is expanded). Please clone() the tensor"));
  EXPECT_THAT(errorMessageOf([&] { ops::mul_(expanded, 2); }), HasSubstr("aten::mul_.Scalar: unsupported operation"));
}

TEST(BinaryForms, OutAliasingAnInputWithAnotherLayoutIsStaged) {
  Tensor x = tensor<int32_t>({1, 2, 3, 4}, {2, 2});
  ops::sub_out(x, viewOf(x, {2, 2}, {1, 2}), x);  // x = x^T - x
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(0, 1, -1, 0));
}

TEST(BinaryForms, OutOnAnotherDeviceIsRefused) {
  auto impl = make_intrusive<TensorImpl>(Storage(), ScalarType::Float, kAccel);
  impl->set_key_set(DispatchKeySet(DispatchKey::CPU));
  Tensor foreign(std::move(impl));
  Tensor x = ones({1});
  EXPECT_THAT(errorMessageOf([&] { ops::sub_out(foreign, x, x); }),
              HasSubstr("aten::sub.out: argument 'out' is on accel, but this is the CPU kernel"));
}

// ---------------------------------------------------------------------------------------------
// 0-dim and empty operands

TEST(BinaryForms, TwoZeroDimOperandsGiveAZeroDimResult) {
  Tensor r = ops::sub(full({}, 7, ScalarType::Long), full({}, 2, ScalarType::Long));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item<int64_t>(), 5);
  Tensor s = ops::mul(full({}, 1.5, ScalarType::Double), 2);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<double>(), 3.0);
}

TEST(BinaryForms, EmptyOperandsGiveEmptyResultsInEveryForm) {
  EXPECT_THAT(ops::sub(empty({0, 3}), ones({3})).sizes(), ElementsAre(0, 3));
  EXPECT_THAT(ops::mul(empty({2, 0}, ScalarType::Int), 5).sizes(), ElementsAre(2, 0));
  Tensor out = empty({4});
  ops::add_out(out, empty({0}), 1);
  EXPECT_THAT(out.sizes(), ElementsAre(0));
  Tensor nothing = empty({0}, ScalarType::Long);
  EXPECT_EQ(&ops::sub_(nothing, 3), &nothing);
}

// ---------------------------------------------------------------------------------------------
// Dispatch cost

TEST(BinaryForms, FunctionalFormsCostExactlyTwoDispatches) {
  Tensor x = tensor<int32_t>({1, 2});
  Tensor y = tensor<float>({0.5f, 0.25f});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::sub(x, y);
    ops::add(x, 2);
    ops::sub(x, 2);
    ops::mul(x, 2.5);
    ops::div(x, y);
    ops::div(x, 2, "floor");
    ops::maximum(x, y);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::sub.Tensor", 1},
                                               {"aten::add.Scalar", 1},
                                               {"aten::sub.Scalar", 1},
                                               {"aten::mul.Scalar", 1},
                                               {"aten::div.Tensor", 1},
                                               {"aten::div.Scalar_mode", 1},
                                               {"aten::maximum", 1},
                                               {"aten::empty.memory_format", 7}}));
}

TEST(BinaryForms, OutAndInPlaceFormsCostOneDispatch) {
  Tensor x = tensor<float>({1, 2});
  Tensor out = empty({2});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::sub_out(out, x, x);
    ops::add_(x, 1);
    ops::div_(x, x);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::sub.out", 1}, {"aten::add_.Scalar", 1}, {"aten::div_.Tensor", 1}}));
}

TEST(BinaryForms, BoxedCallOfAScalarOverloadReachesTheKernel) {
  Stack stack{tensor<int64_t>({1, 2}), IValue(Scalar(40)), IValue(Scalar(2))};
  Dispatcher::singleton().findSchemaOrThrow("aten::add", "Scalar").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_THAT(valuesOf<int64_t>(stack[0].toTensor()), ElementsAre(81, 82));
}

}  // namespace
}  // namespace sy
