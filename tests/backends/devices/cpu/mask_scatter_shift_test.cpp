// masked_fill, masked_select, masked_scatter, nonzero, scatter.src, scatter_add, the bitwise shifts
// and _conj_physical through the dispatcher with their CPU kernels: what the PyTorch oracle does not check (error messages,
// aliased and strided outs, the in-place masked_fill's shape rule). Expected values are hand-worked.
#include <cmath>
#include <cstdint>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

TEST(MaskedFill, BroadcastsTheMaskAndFillsWithTheValueInSelfsDtype) {
  const Tensor self = tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor mask = tensor<bool>({true, false, true});
  const Tensor filled = ops::masked_fill(self, mask, -7.5);
  EXPECT_EQ(filled.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(filled), ElementsAre(-7, 2, -7, -7, 5, -7));
}

TEST(MaskedFill, InPlaceKeepsSelfsShapeAndRefusesALargerMask) {
  Tensor self = tensor<float>({1, 2, 3});
  EXPECT_EQ(&ops::masked_fill_(self, tensor<bool>({false, true, false}), 9), &self);
  EXPECT_THAT(valuesOf<float>(self), ElementsAre(1, 9, 3));
  EXPECT_THAT(errorMessageOf([&] { ops::masked_fill_(self, zeros({2, 3}, ScalarType::Bool), 0); }),
              ::testing::HasSubstr("aten::masked_fill_.Scalar"));
  EXPECT_EQ(errorMessageOf([&] { ops::masked_fill(self, ones({3}), 0); }),
            "aten::masked_fill.Scalar: expected 'mask' to have dtype Bool but got Float");
}

TEST(MaskedSelect, TakesTheSelectedElementsInRowMajorOrderOfTheBroadcastShape) {
  const Tensor self = tensor<int64_t>({10, 20}, {2, 1});
  const Tensor mask = tensor<bool>({true, false, true});
  EXPECT_THAT(valuesOf<int64_t>(ops::masked_select(self, mask)), ElementsAre(10, 10, 20, 20));
  // An out that is self receives the result through a temporary.
  Tensor out = tensor<int64_t>({1, 2, 3});
  ops::masked_select_out(out, out, tensor<bool>({false, true, true}));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(2, 3));
}

TEST(Nonzero, ListsTheIndexOfEveryNonzeroElement) {
  const Tensor self = tensor<float>({0, 1.5f, 0, -2, std::numeric_limits<float>::quiet_NaN(), 0}, {2, 3});
  const Tensor indices = ops::nonzero(self);
  EXPECT_THAT(indices.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(0, 1, 1, 0, 1, 1));
  EXPECT_THAT(ops::nonzero(full({}, 3)).sizes(), ElementsAre(1, 0));
  Tensor ints = empty({0}, ScalarType::Int);
  EXPECT_EQ(errorMessageOf([&] { ops::nonzero_out(ints, ones({2})); }),
            "aten::nonzero.out: expected 'out' to have dtype Long but got Int");
}

TEST(ScatterSource, WritesAndAddsSrcWhereIndexSendsIt) {
  const Tensor self = zeros({2, 3});
  const Tensor index = tensor<int64_t>({0, 2, 2, 1}, {2, 2});
  const Tensor src = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_THAT(valuesOf<float>(ops::scatter(self, 1, index, src)), ElementsAre(1, 0, 2, 0, 5, 4));
  EXPECT_THAT(valuesOf<float>(ops::scatter_add(ones({2, 3}), 1, tensor<int64_t>({1, 1}, {1, 2}), src)),
              ElementsAre(1, 4, 1, 1, 1, 1));
}

TEST(ScatterSource, RefusesASrcOfAnotherDtypeOrSmallerThanIndex) {
  const Tensor index = tensor<int64_t>({0, 1}, {1, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::scatter(zeros({2, 3}), 1, index, ones({1, 2}, ScalarType::Double)); }),
            "aten::scatter.src: expected 'src' to have self's dtype Float but got Double");
  EXPECT_EQ(errorMessageOf([&] { ops::scatter_add(zeros({2, 3}), 1, index, ones({1, 1})); }),
            "aten::scatter_add: size does not match at dimension 1: expected index (1, 2) to be no larger than src "
            "(1, 1)");
}

TEST(BitwiseShift, ShiftsOutOfRangeCountsToZeroOrTheSign) {
  const Tensor a = tensor<int32_t>({1, -8, 3, -1});
  const Tensor counts = tensor<int32_t>({31, 1, 32, -1});
  EXPECT_THAT(valuesOf<int32_t>(ops::bitwise_left_shift(a, counts)),
              ElementsAre(std::numeric_limits<int32_t>::min(), -16, 0, 0));
  EXPECT_THAT(valuesOf<int32_t>(ops::bitwise_right_shift(a, counts)), ElementsAre(0, -4, 0, -1));
  EXPECT_THAT(valuesOf<int64_t>(ops::bitwise_right_shift(tensor<int64_t>({-9, 9}), 64)), ElementsAre(-1, 0));
}

TEST(BitwiseShift, RefusesBoolAndFloatingOperands) {
  EXPECT_THAT(errorMessageOf([] { ops::bitwise_left_shift(tensor<bool>({true}), tensor<bool>({true})); }),
              ::testing::HasSubstr("aten::bitwise_left_shift.Tensor"));
  EXPECT_THAT(errorMessageOf([] { ops::bitwise_right_shift(ones({2}), 1); }),
              ::testing::HasSubstr("aten::bitwise_right_shift.Tensor_Scalar"));
}

TEST(ConjPhysical, CopiesARealTensor) {
  const Tensor self = tensor<float>({1.5f, -0.0f, std::numeric_limits<float>::quiet_NaN()});
  const Tensor copy = ops::_conj_physical(self);
  EXPECT_NE(copy.data_ptr(), self.data_ptr());
  EXPECT_EQ(valuesOf<float>(copy)[0], 1.5f);
  EXPECT_TRUE(std::signbit(valuesOf<float>(copy)[1]));
  EXPECT_TRUE(std::isnan(valuesOf<float>(copy)[2]));
}

}  // namespace
}  // namespace sy
