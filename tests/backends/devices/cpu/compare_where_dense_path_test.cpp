// The comparisons' and where's dense loops (See Note [Dense binary calls of one dtype skip the loop
// geometry] in backends/devices/cpu/elementwise.h) and the Scalar operand they share (See Note [A
// Scalar operand is wrapped without allocating] in elementwise.cpp): each case is a call the dense
// loops take, or one beside it that must take the general path, with hand-worked results.
#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::valuesOf;
using sy::testing::viewOf;

TEST(CompareWhereDensePath, AScalarOperandHeldByOneCallIsNotOverwrittenByTheNext) {
  const Tensor first = cpu::wrappedScalarOperand(Scalar(1.5), ScalarType::Float);
  const Tensor second = cpu::wrappedScalarOperand(Scalar(-4.0), ScalarType::Float);
  EXPECT_FALSE(first.is_same(second));
  EXPECT_EQ(first.item<float>(), 1.5f);
  EXPECT_EQ(second.item<float>(), -4.0f);
  EXPECT_EQ(first.dim(), 0);
}

TEST(CompareWhereDensePath, AScalarOperandIsReusedOnceReleased) {
  const TensorImpl* impl = nullptr;
  {
    const Tensor t = cpu::wrappedScalarOperand(Scalar(2), ScalarType::Int);
    impl = t.unsafeGetTensorImpl();
  }
  const Tensor again = cpu::wrappedScalarOperand(Scalar(7), ScalarType::Int);
  EXPECT_EQ(again.unsafeGetTensorImpl(), impl);
  EXPECT_EQ(again.item<int32_t>(), 7);
  // Calls in a row each see their own value.
  const Tensor x = tensor<int32_t>({1, 2});
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, 1)), ElementsAre(true, false));
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, 2)), ElementsAre(false, true));
  EXPECT_THAT(valuesOf<int32_t>(ops::add(x, 10)), ElementsAre(11, 12));
}

TEST(CompareWhereDensePath, ComparisonsWithAScalarOrATensorWriteBool) {
  const Tensor x = tensor<float>({1, 2, 3, 4});
  Tensor out = empty({4}, ScalarType::Bool);
  EXPECT_THAT(valuesOf<bool>(ops::eq_out(out, x, 3)), ElementsAre(false, false, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::lt_out(out, x, tensor<float>({4, 0, 3, 5}))), ElementsAre(true, false, false, true));
  // A transposed Bool out takes the general path and gets the same values.
  Tensor base = empty({2, 2}, ScalarType::Bool);
  Tensor transposed = viewOf(base, {2, 2}, {1, 2});
  ops::ge_out(transposed, x.reshape({2, 2}), 2.5);
  EXPECT_THAT(valuesOf<bool>(base), ElementsAre(false, true, false, true));
}

TEST(CompareWhereDensePath, WhereRepeatsSingleElementOperandsOverOut) {
  const Tensor condition = tensor<bool>({true, false, true});
  Tensor out = empty({3});
  ops::where_out(out, condition, tensor<float>({1, 2, 3}), full({}, -1.0));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1, -1, 3));
  ops::where_out(out, tensor<bool>({false}), tensor<float>({1, 2, 3}), tensor<float>({7, 8, 9}));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(7, 8, 9));
  // Only single elements: out takes their broadcast shape, 0-dim, as the general path resizes it.
  Tensor resized = empty({3});
  ops::where_out(resized, full({}, true, ScalarType::Bool), full({}, 5.0), full({}, 6.0));
  EXPECT_EQ(resized.dim(), 0);
  EXPECT_EQ(resized.item<float>(), 5.0f);
}

TEST(CompareWhereDensePath, WhereIntoOneOfItsInputsReadsEachElementBeforeWritingIt) {
  Tensor x = tensor<float>({1, 2, 3});
  ops::where_out(x, tensor<bool>({false, true, false}), tensor<float>({9, 9, 9}), x);
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 9, 3));
  // A single-element input that is out's first element must not be read after it is written.
  Tensor y = tensor<float>({5, 0, 0});
  Tensor first = viewOf(y, {1}, {1}, 0);
  ops::where_out(y, tensor<bool>({true, true, true}), first, tensor<float>({0, 0, 0}));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(5, 5, 5));
}

}  // namespace
}  // namespace sy
