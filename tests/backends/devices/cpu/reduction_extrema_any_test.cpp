// amin, max/min of a whole tensor, max/min along a dim, argmin, prod, any, cumsum, var and var_mean
// through the dispatcher with their CPU kernels: what the PyTorch oracle does not
// check (error messages, the outs a call returns, strided and aliased outs, any.dims of an empty
// list). Expected values are hand-worked.
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

constexpr float kExtremaNaN = std::numeric_limits<float>::quiet_NaN();

TEST(ReductionMaxDim, ReturnsTheOutsItWroteWithTheFirstIndexOfEachMaximum) {
  const Tensor self = tensor<float>({1, 3, 3, 2, kExtremaNaN, kExtremaNaN}, {2, 3});
  Tensor values = empty({0});
  Tensor indices = empty({0}, ScalarType::Long);
  auto [v, i] = ops::max_out(values, indices, self, 1);
  EXPECT_EQ(&v, &values);
  EXPECT_EQ(&i, &indices);
  EXPECT_EQ(valuesOf<float>(values)[0], 3.0f);
  EXPECT_TRUE(std::isnan(valuesOf<float>(values)[1]));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1, 1));
}

TEST(ReductionMaxDim, MinAlongADimKeepsTheDimWhenAsked) {
  auto [values, indices] = ops::min(tensor<int32_t>({4, -2, 7, -2, 9, 0}, {3, 2}), 0, /*keepdim=*/true);
  EXPECT_THAT(values.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<int32_t>(values), ElementsAre(4, -2));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(0, 0));
}

TEST(ReductionMaxDim, RefusesIndicesThatAreNotLongAndAnEmptyDim) {
  Tensor values = empty({0});
  Tensor indices = empty({0}, ScalarType::Int);
  EXPECT_EQ(errorMessageOf([&] { ops::max_out(values, indices, ones({2, 3}), 1); }),
            "aten::max.dim_max: expected 'indices' to have dtype Long but got Int");
  Tensor long_indices = empty({0}, ScalarType::Long);
  Tensor ints = empty({0}, ScalarType::Int);
  EXPECT_EQ(errorMessageOf([&] { ops::min_out(ints, long_indices, ones({2, 3}), 1); }),
            "aten::min.dim_min: expected 'values' to have dtype Float but got Int");
  EXPECT_EQ(errorMessageOf([] { ops::max(empty({2, 0}), 1); }),
            "aten::max.dim: Expected reduction dim 1 to have non-zero size.");
}

TEST(ReductionMaxDim, WritesStridedOutsThroughTheirStrides) {
  Tensor values_base = zeros({2, 2});
  Tensor indices_base = zeros({2, 2}, ScalarType::Long);
  Tensor values = viewOf(values_base, {2}, {2}, 1);
  Tensor indices = viewOf(indices_base, {2}, {2}, 0);
  ops::max_out(values, indices, tensor<float>({5, 1, 2, 8}, {2, 2}), 1);
  EXPECT_THAT(valuesOf<float>(values_base), ElementsAre(0, 5, 0, 8));
  EXPECT_THAT(valuesOf<int64_t>(indices_base), ElementsAre(0, 0, 1, 0));
}

TEST(ReductionArgmin, FindsTheFirstMinimumAndNaNFirst) {
  EXPECT_EQ(ops::argmin(tensor<int64_t>({3, -1, 5, -1})).item<int64_t>(), 1);
  EXPECT_EQ(ops::argmin(tensor<float>({3, kExtremaNaN, -7})).item<int64_t>(), 1);
  EXPECT_THAT(valuesOf<int64_t>(ops::argmin(tensor<float>({0, 2, 1, -3}, {2, 2}), 0)), ElementsAre(0, 1));
  EXPECT_EQ(errorMessageOf([] { ops::argmin(empty({0, 3})); }),
            "aten::argmin: Expected reduction dim to be specified for input.numel() == 0.");
}

TEST(ReductionAmin, TakesTheSmallestAndRefusesAnEmptyReduction) {
  EXPECT_THAT(valuesOf<float>(ops::amin(tensor<float>({4, -1, 2, 0}, {2, 2}), {1})), ElementsAre(-1, 0));
  EXPECT_FALSE(ops::amin(tensor<bool>({true, false})).item<bool>());
  EXPECT_TRUE(std::isnan(ops::amin(tensor<float>({1, kExtremaNaN, -5})).item<float>()));
  EXPECT_EQ(errorMessageOf([] { ops::amin(empty({0, 3}), {0}); }),
            "aten::amin: Expected reduction dim 0 to have non-zero size.");
}

TEST(ReductionMaxUnary, ReducesEveryElementIntoAZeroDimOut) {
  Tensor out = empty({3}, ScalarType::Int);
  EXPECT_EQ(&ops::max_out(out, tensor<int32_t>({4, 9, -2}, {3, 1})), &out);
  EXPECT_EQ(out.dim(), 0);
  EXPECT_EQ(out.item<int32_t>(), 9);
  EXPECT_EQ(ops::min(tensor<int32_t>({4, 9, -2})).item<int32_t>(), -2);
  EXPECT_EQ(errorMessageOf([] { ops::min(empty({0})); }),
            "aten::min: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
            "with the 'dim' argument.");
  Tensor floats = empty({});
  EXPECT_EQ(errorMessageOf([&] { ops::max_out(floats, tensor<int32_t>({1})); }),
            "aten::max.unary_out: expected 'out' to have the dtype of 'self' (Int) but got Float");
}

TEST(ReductionProd, MultipliesIntoLongAndTheEmptyProductIsOne) {
  const Tensor p = ops::prod(tensor<int32_t>({2, -3, 4}));
  EXPECT_EQ(p.scalar_type(), ScalarType::Long);
  EXPECT_EQ(p.item<int64_t>(), -24);
  EXPECT_EQ(ops::prod(empty({0})).item<float>(), 1.0f);
  EXPECT_THAT(valuesOf<double>(ops::prod(tensor<float>({1, 2, 3, 4}, {2, 2}), 0, false, ScalarType::Double)),
              ElementsAre(3, 8));
  // 2^63 wraps to INT64_MIN, as PyTorch's int64 product does.
  EXPECT_EQ(ops::prod(full({63}, int64_t{2}, ScalarType::Long)).item<int64_t>(), std::numeric_limits<int64_t>::min());
}

TEST(ReductionAny, AnEmptyDimListReducesNothingAndNoneReducesEverything) {
  const Tensor self = tensor<float>({0, kExtremaNaN, 0, 0}, {2, 2});
  const Tensor none_reduced = ops::any(self, IntArrayRef{}, false);
  EXPECT_THAT(none_reduced.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<bool>(none_reduced), ElementsAre(false, true, false, false));
  EXPECT_TRUE(ops::any(self, std::nullopt, false).item<bool>());
  EXPECT_THAT(valuesOf<bool>(ops::any(self, int64_t{0}, true)), ElementsAre(false, true));
  EXPECT_FALSE(ops::any(empty({0, 3}), std::nullopt, false).item<bool>());
}

TEST(ReductionAny, RefusesAnOutThatIsNotBoolAndARepeatedDim) {
  Tensor floats = empty({});
  EXPECT_EQ(errorMessageOf([&] { ops::any_out(floats, ones({2}), std::nullopt, false); }),
            "aten::any.dims_out: expected 'out' to have dtype Bool but got Float");
  EXPECT_EQ(errorMessageOf([] { ops::any(ones({2, 2}), IntArrayRef{0, -2}, false); }),
            "aten::any.dims: dim 0 appears multiple times in the list of dims");
}

TEST(ReductionCumsum, RunsAlongTheDimIntoLongForIntegersAndWritesAStridedOut) {
  const Tensor sums = ops::cumsum(tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}), 1);
  EXPECT_EQ(sums.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(sums), ElementsAre(1, 3, 6, 4, 9, 15));
  EXPECT_THAT(valuesOf<float>(ops::cumsum(tensor<float>({1, 2, 3, 4}, {2, 2}), 0)), ElementsAre(1, 2, 4, 6));
  Tensor base = zeros({3, 2});
  Tensor column = viewOf(base, {3}, {2}, 1);
  ops::cumsum_out(column, tensor<float>({1, 1, 1}), 0);
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(0, 1, 0, 2, 0, 3));
  Tensor ints = empty({3}, ScalarType::Int);
  EXPECT_EQ(errorMessageOf([&] { ops::cumsum_out(ints, ones({3}), 0, ScalarType::Double); }),
            "aten::cumsum.out: expected 'out' to have dtype Double (the requested dtype) but got Int");
}

TEST(ReductionVar, DividesBySizeMinusCorrectionAndVarMeanGivesTheMeanToo) {
  const Tensor self = tensor<double>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(ops::var(self, std::nullopt, true, false).item<double>(), 5.0 / 3.0);
  EXPECT_THAT(valuesOf<double>(ops::var(self, IntArrayRef{1}, false, false)), ElementsAre(0.25, 0.25));
  auto [var, mean] = ops::var_mean(self, IntArrayRef{0}, Scalar(int64_t{0}), true);
  EXPECT_THAT(var.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<double>(var), ElementsAre(1, 1));
  EXPECT_THAT(valuesOf<double>(mean), ElementsAre(2, 3));
  EXPECT_TRUE(std::isnan(ops::var(tensor<double>({7}), std::nullopt, true, false).item<double>()));
  EXPECT_EQ(errorMessageOf([] { ops::var(tensor<int32_t>({1, 2}), std::nullopt, true, false); }),
            "aten::var.dim: std and var only support floating point dtypes, but 'self' has Int");
}

}  // namespace
}  // namespace sy
