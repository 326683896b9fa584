// The arithmetic operators' dense loops (See Note [Dense binary calls of one dtype skip the loop
// geometry] in backends/devices/cpu/elementwise.h) at their edges: each case is a call the dense
// loops take, or one next to it that must take the general path, and its result or error is the one
// the general path gives (the same operator on copies of other layouts, or hand-worked values).
//
// All arithmetic is exact (small integers and binary fractions).
#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

TEST(BinaryDensePath, SameShapeOperandsApplyAlphaInEveryArithmeticOperator) {
  Tensor x = tensor<float>({1, 2, 3, 4});
  Tensor y = tensor<float>({0.5, -1, 2, 0});
  Tensor out = empty({4});
  EXPECT_THAT(valuesOf<float>(ops::add_out(out, x, y, 2)), ElementsAre(2, 0, 7, 4));
  EXPECT_THAT(valuesOf<float>(ops::sub_out(out, x, y, -2)), ElementsAre(2, 0, 7, 4));
  EXPECT_THAT(valuesOf<float>(ops::mul_out(out, x, y)), ElementsAre(0.5, -2, 6, 0));
  EXPECT_THAT(valuesOf<float>(ops::maximum_out(out, x, y)), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(valuesOf<float>(ops::minimum_out(out, x, y)), ElementsAre(0.5, -1, 2, 0));
  Tensor a = tensor<int64_t>({5, 6});
  Tensor r = empty({2}, ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(ops::sub_out(r, a, tensor<int64_t>({1, 10}), 3)), ElementsAre(2, -24));
}

TEST(BinaryDensePath, ASingleElementOtherIsRepeatedOverSelf) {
  Tensor x = tensor<int32_t>({1, 2, 3}, {3, 1});
  Tensor out = empty({3, 1}, ScalarType::Int);
  ops::add_out(out, x, tensor<int32_t>({10}), 2);
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(21, 22, 23));
  ops::sub_out(out, x, full({}, 1, ScalarType::Int));
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(0, 1, 2));
}

TEST(BinaryDensePath, ASingleElementSelfIsRepeatedOverOther) {
  Tensor y = tensor<double>({1, 2, 4, 8}, {2, 2});
  Tensor out = empty({2, 2}, ScalarType::Double);
  ops::sub_out(out, full({}, 1, ScalarType::Double), y, 0.5);
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(0.5, 0, -1, -3));
  EXPECT_THAT(valuesOf<double>(ops::mul(tensor<double>({3}, {1, 1}), y)), ElementsAre(3, 6, 12, 24));
}

TEST(BinaryDensePath, ASingleElementOperandWithMoreDimensionsWidensTheResult) {
  // [1] + [1, 1] is [1, 1]: out= of shape [1] is resized, as broadcasting says.
  Tensor out = empty({1});
  ops::add_out(out, tensor<float>({1}), tensor<float>({2}, {1, 1}));
  EXPECT_THAT(out.sizes(), ElementsAre(1, 1));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(3));
  Tensor r = ops::mul(tensor<float>({2}, {1, 1, 1}), tensor<float>({1, 2, 3}));
  EXPECT_THAT(r.sizes(), ElementsAre(1, 1, 3));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(2, 4, 6));
}

TEST(BinaryDensePath, InPlaceFormsWriteSelfWhateverOperandIsRepeated) {
  Tensor x = tensor<int64_t>({1, 2, 3});
  ops::add_(x, tensor<int64_t>({1, 1, 1}), 4);
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(5, 6, 7));
  ops::mul_(x, full({}, 2, ScalarType::Long));
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(10, 12, 14));
  ops::sub_(x, x);
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(0, 0, 0));
  Tensor one = tensor<int64_t>({7});
  EXPECT_THAT(errorMessageOf([&] { ops::add_(one, tensor<int64_t>({1, 2})); }),
              HasSubstr("output with shape (1,) doesn't match the broadcast shape (2,)"));
}

TEST(BinaryDensePath, AnOutThatIsAnInputReadsEachElementBeforeWritingIt) {
  Tensor y = tensor<float>({1, 2, 3});
  ops::sub_out(y, full({}, 10.0), y);  // y = 10 - y, out is other itself
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(9, 8, 7));
  ops::add_out(y, y, y, 2);
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(27, 24, 21));
}

TEST(BinaryDensePath, AnOutOverlappingAnInputAtAnotherOffsetGetsTheUnaliasedResult) {
  // out is x[1:4], self is x[0:3]: writing out[0] overwrites self[1] before it is read, unless
  // the call is staged, as the general path does.
  Tensor x = tensor<int32_t>({1, 2, 3, 4});
  Tensor out = viewOf(x, {3}, {1}, 1);
  ops::add_out(out, viewOf(x, {3}, {1}, 0), tensor<int32_t>({10}));
  EXPECT_THAT(valuesOf<int32_t>(x), ElementsAre(1, 11, 12, 13));
  // A single-element other inside out's memory is read before out is written.
  Tensor z = tensor<int32_t>({1, 2, 3, 4});
  Tensor head = viewOf(z, {3}, {1}, 0);
  ops::mul_out(head, head, viewOf(z, {1}, {1}, 1));  // z[0:3] *= z[1]
  EXPECT_THAT(valuesOf<int32_t>(z), ElementsAre(2, 4, 6, 4));
  ops::mul_out(head, tensor<int32_t>({1, 2, 3}), viewOf(z, {}, {}, 3));  // the same memory, apart
  EXPECT_THAT(valuesOf<int32_t>(z), ElementsAre(4, 8, 12, 4));
}

TEST(BinaryDensePath, OperandsOfAnotherDtypeStillPromote) {
  Tensor out = empty({2}, ScalarType::Double);
  ops::add_out(out, tensor<float>({1, 2}), tensor<float>({0.5, 0.25}));  // Float result into Double
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(1.5, 2.25));
  EXPECT_EQ(ops::add(tensor<int32_t>({1}), tensor<int64_t>({2})).scalar_type(), ScalarType::Long);
  EXPECT_EQ(ops::mul(tensor<int32_t>({1}), full({}, 2.0, ScalarType::Double)).scalar_type(), ScalarType::Double);
  Tensor narrow = empty({1}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::add_out(narrow, tensor<float>({1}), tensor<float>({2})); }),
              HasSubstr("aten::add.out: result type Float can't be cast to the desired output type Int"));
}

TEST(BinaryDensePath, EmptyAndBoolOperandsKeepTheirRules) {
  Tensor out = empty({0});
  EXPECT_THAT(ops::add_out(out, empty({0}), empty({0})).sizes(), ElementsAre(0));
  EXPECT_THAT(valuesOf<bool>(ops::add(tensor<bool>({false, true}), tensor<bool>({false, false}))),
              ElementsAre(false, true));
  EXPECT_THAT(errorMessageOf([&] { ops::sub(tensor<bool>({true}), tensor<bool>({true})); }),
              HasSubstr("Subtraction, the `-` operator, with two bool tensors is not supported"));
  EXPECT_THAT(errorMessageOf([&] { ops::add(tensor<int32_t>({1}), tensor<int32_t>({1}), 0.5); }),
              HasSubstr("For integral input tensors, argument alpha must not be a floating point number"));
}

}  // namespace
}  // namespace sy
