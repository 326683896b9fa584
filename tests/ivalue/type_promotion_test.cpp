// PyTorch's type promotion as the binary operators apply it: the dtype lattice for two dimensioned
// tensors, the weaker 0-dim tensors and Scalars (which only count when their category, bool <
// integral < floating, is higher), true division's promotion to floating, and the cast rules for
// out= and in-place results.
//
// Expected dtypes are written out by hand from PyTorch's documented rules (torch.result_type);
// values are small integers or binary fractions, so every comparison is exact.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;

// Ones of `dtype`, dimensioned ({2}) or 0-dim ({}).
Tensor onesOf(ScalarType dtype, IntArrayRef sizes = {2}) { return ones(sizes, dtype); }

TEST(TypePromotion, DimensionedTensorsFollowTheLattice) {
  // Rows and columns: Bool, Int, Long, Float, Double.
  const std::vector<ScalarType> dtypes = {kBool, kInt, kLong, kFloat, kDouble};
  const ScalarType expected[5][5] = {
      {kBool, kInt, kLong, kFloat, kDouble},
      {kInt, kInt, kLong, kFloat, kDouble},
      {kLong, kLong, kLong, kFloat, kDouble},
      {kFloat, kFloat, kFloat, kFloat, kDouble},
      {kDouble, kDouble, kDouble, kDouble, kDouble},
  };
  for (size_t i = 0; i < dtypes.size(); ++i) {
    for (size_t j = 0; j < dtypes.size(); ++j) {
      EXPECT_EQ(ops::mul(onesOf(dtypes[i]), onesOf(dtypes[j])).scalar_type(), expected[i][j])
          << dtypes[i] << " * " << dtypes[j];
      EXPECT_EQ(ops::maximum(onesOf(dtypes[i]), onesOf(dtypes[j])).scalar_type(), expected[i][j])
          << "maximum(" << dtypes[i] << ", " << dtypes[j] << ")";
    }
  }
}

TEST(TypePromotion, ZeroDimTensorOfTheSameCategoryDoesNotWiden) {
  EXPECT_EQ(ops::sub(onesOf(kInt), onesOf(kLong, {})).scalar_type(), kInt);
  EXPECT_EQ(ops::sub(onesOf(kFloat), onesOf(kDouble, {})).scalar_type(), kFloat);
  EXPECT_EQ(ops::mul(onesOf(kBool), onesOf(kBool, {})).scalar_type(), kBool);
}

TEST(TypePromotion, ZeroDimTensorOfAHigherCategoryWins) {
  EXPECT_EQ(ops::sub(onesOf(kInt), onesOf(kDouble, {})).scalar_type(), kDouble);
  EXPECT_EQ(ops::sub(onesOf(kLong), onesOf(kFloat, {})).scalar_type(), kFloat);
  EXPECT_EQ(ops::mul(onesOf(kBool), onesOf(kInt, {})).scalar_type(), kInt);
}

TEST(TypePromotion, TwoZeroDimTensorsPromoteLikeDimensionedOnes) {
  EXPECT_EQ(ops::sub(onesOf(kInt, {}), onesOf(kLong, {})).scalar_type(), kLong);
  EXPECT_EQ(ops::sub(onesOf(kFloat, {}), onesOf(kDouble, {})).scalar_type(), kDouble);
}

TEST(TypePromotion, IntegerScalarKeepsTheTensorDtype) {
  EXPECT_EQ(ops::add(onesOf(kInt), 3).scalar_type(), kInt);
  EXPECT_EQ(ops::add(onesOf(kLong), 3).scalar_type(), kLong);
  EXPECT_EQ(ops::add(onesOf(kFloat), 3).scalar_type(), kFloat);
  EXPECT_EQ(ops::add(onesOf(kInt, {}), 3).scalar_type(), kInt);
  // Bool is a lower category than any integer: Bool tensor + 3 is Long, the integer Scalar's dtype.
  EXPECT_EQ(ops::add(onesOf(kBool), 3).scalar_type(), kLong);
}

TEST(TypePromotion, FloatingScalarCountsAsTheDefaultFloat) {
  EXPECT_EQ(ops::add(onesOf(kInt), 2.5).scalar_type(), kFloat);
  EXPECT_EQ(ops::add(onesOf(kLong), 2.5).scalar_type(), kFloat);
  EXPECT_EQ(ops::add(onesOf(kBool), 2.5).scalar_type(), kFloat);
  EXPECT_EQ(ops::add(onesOf(kInt, {}), 2.5).scalar_type(), kFloat);
  // A floating tensor keeps its own width, Float or Double.
  EXPECT_EQ(ops::add(onesOf(kFloat), 2.5).scalar_type(), kFloat);
  EXPECT_EQ(ops::add(onesOf(kDouble), 2.5).scalar_type(), kDouble);
  EXPECT_EQ(ops::add(onesOf(kDouble, {}), 2.5).scalar_type(), kDouble);
}

TEST(TypePromotion, BoolScalarNeverWidens) {
  EXPECT_EQ(ops::mul(onesOf(kInt), true).scalar_type(), kInt);
  EXPECT_EQ(ops::mul(onesOf(kBool), true).scalar_type(), kBool);
  EXPECT_EQ(ops::mul(onesOf(kFloat, {}), false).scalar_type(), kFloat);
}

TEST(TypePromotion, ZeroDimTensorOutranksAScalarOfTheSameCategory) {
  // 0-dim Long with a dimensioned Int: Int. Add an integer Scalar: still Int.
  EXPECT_EQ(cpu::ResultTypeBuilder().add(onesOf(kInt)).add(onesOf(kLong, {})).add(Scalar(3)).result(), kInt);
  // 0-dim Double beats the Scalar's Float when there is no dimensioned tensor.
  EXPECT_EQ(cpu::ResultTypeBuilder().add(onesOf(kDouble, {})).add(Scalar(2.5)).result(), kDouble);
  // Two Scalars alone: Long for integers, Float once one is floating.
  EXPECT_EQ(cpu::ResultTypeBuilder().add(Scalar(1)).add(Scalar(true)).result(), kLong);
  EXPECT_EQ(cpu::ResultTypeBuilder().add(Scalar(1)).add(Scalar(0.5)).result(), kFloat);
}

TEST(TypePromotion, ScalarValueIsConvertedToTheResultType) {
  // 0.1 added in Float is float(0.1), not the double 0.1 rounded after the addition.
  EXPECT_THAT(valuesOf<float>(ops::add(zeros({1}), 0.1)), ElementsAre(0.1f));
  EXPECT_THAT(valuesOf<int32_t>(ops::add(tensor<int32_t>({1}), true)), ElementsAre(2));
  EXPECT_THAT(valuesOf<float>(ops::mul(tensor<int64_t>({3}), 0.5)), ElementsAre(1.5f));
}

TEST(TypePromotion, TrueDivisionPromotesIntegralResultsToFloat) {
  EXPECT_EQ(ops::div(onesOf(kInt), onesOf(kLong)).scalar_type(), kFloat);
  EXPECT_EQ(ops::div(onesOf(kBool), onesOf(kBool)).scalar_type(), kFloat);
  EXPECT_EQ(ops::div(onesOf(kLong), 2).scalar_type(), kFloat);
  EXPECT_EQ(ops::div(onesOf(kInt), onesOf(kDouble, {})).scalar_type(), kDouble);
  EXPECT_EQ(ops::div(onesOf(kDouble), onesOf(kInt)).scalar_type(), kDouble);
  // Rounded division keeps integers integral.
  EXPECT_EQ(ops::div(onesOf(kInt), onesOf(kLong, {}), "floor").scalar_type(), kInt);
}

TEST(TypePromotion, ComparisonsComputeInThePromotedTypeButReturnBool) {
  // Int 1 against Float 1.5: compared in Float, so not equal.
  Tensor r = ops::eq(tensor<int32_t>({1, 2}), tensor<float>({1.5f, 2}));
  EXPECT_EQ(r.scalar_type(), kBool);
  EXPECT_THAT(valuesOf<bool>(r), ElementsAre(false, true));
}

TEST(TypePromotion, OutMayWidenButNeverChangeCategoryDownward) {
  Tensor doubles = empty({2}, kDouble);
  ops::add_out(doubles, tensor<int32_t>({1, 2}), tensor<int64_t>({1, 1}));  // Long result into Double
  EXPECT_THAT(valuesOf<double>(doubles), ElementsAre(2.0, 3.0));
  Tensor ints = empty({2}, kInt);
  ops::add_out(ints, tensor<int64_t>({1, 2}), tensor<int64_t>({1, 1}));     // Long into Int: same category
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(2, 3));
  Tensor longs = empty({2}, kLong);
  EXPECT_EQ(errorMessageOf([&] { ops::add_out(longs, tensor<int64_t>({1, 2}), 0.5); }),
            "aten::add.Scalar_out: result type Float can't be cast to the desired output type Long");
  Tensor bools = empty({2}, kBool);
  EXPECT_EQ(errorMessageOf([&] { ops::mul_out(bools, tensor<bool>({true, false}), 2); }),
            "aten::mul.Scalar_out: result type Long can't be cast to the desired output type Bool");
}

TEST(TypePromotion, InPlaceResultMustBeCastableToSelf) {
  Tensor ints = tensor<int32_t>({1, 2});
  ops::add_(ints, tensor<int64_t>({10, 20}));  // Long result written back as Int
  EXPECT_EQ(ints.scalar_type(), kInt);
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(11, 22));
  EXPECT_EQ(errorMessageOf([&] { ops::sub_(ints, 0.5); }),
            "aten::sub_.Scalar: result type Float can't be cast to the desired output type Int");
  Tensor floats = tensor<float>({1, 2});
  ops::mul_(floats, tensor<double>({2, 4}));
  EXPECT_EQ(floats.scalar_type(), kFloat);
  EXPECT_THAT(valuesOf<float>(floats), ElementsAre(2.0f, 8.0f));
}

TEST(TypePromotion, UndefinedDtypeIsAnErrorNamingTheArgument) {
  auto impl = make_intrusive<TensorImpl>(Storage(), ScalarType::Undefined, kCPU);
  impl->set_sizes_and_strides({1}, {1}, 0);
  Tensor weird(std::move(impl));
  EXPECT_EQ(errorMessageOf([&] { ops::sub(ones({1}), weird); }),
            "aten::sub.Tensor: argument 'other' has dtype Undefined, which this kernel does not support "
            "(supported: Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16)");
}

}  // namespace
}  // namespace sy
