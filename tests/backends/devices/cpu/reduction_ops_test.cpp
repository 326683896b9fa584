// sum, mean, amax and argmax through the dispatcher with their CPU kernels. Expected values are
// computed here independently: hand-worked small cases and naive loops over logical indices.
// Tolerances: sums of Float inputs are compared with a relative 1e-6 (the kernel accumulates in
// double, so only the final rounding to Float remains); everything else is exact.
#include <cmath>
#include <cstdint>
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
using ::testing::HasSubstr;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// 0, 1, ..., 23 as a (2, 3, 4) Double tensor; cubeAt(i, j, k) is its element, for naive loops.
Tensor cube() { return arange(0, 24, 1, ScalarType::Double).resize_({2, 3, 4}); }
double cubeAt(int64_t i, int64_t j, int64_t k) { return static_cast<double>(i * 12 + j * 4 + k); }

// ---------------------------------------------------------------------------------------------
// sum

TEST(ReductionSum, SumOfEverythingIsZeroDim) {
  Tensor total = ops::sum(tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  EXPECT_EQ(total.dim(), 0);
  EXPECT_EQ(total.scalar_type(), ScalarType::Float);
  EXPECT_EQ(total.item<float>(), 21.0f);
}

TEST(ReductionSum, EachDimSetMatchesNaiveLoops) {
  std::vector<double> over0, over2, over02;
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t k = 0; k < 4; ++k) over0.push_back(cubeAt(0, j, k) + cubeAt(1, j, k));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      over2.push_back(cubeAt(i, j, 0) + cubeAt(i, j, 1) + cubeAt(i, j, 2) + cubeAt(i, j, 3));
    }
  for (int64_t j = 0; j < 3; ++j) {
    double s = 0;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t k = 0; k < 4; ++k) s += cubeAt(i, j, k);
    over02.push_back(s);
  }
  EXPECT_EQ(valuesOf<double>(ops::sum(cube(), {0})), over0);
  EXPECT_EQ(valuesOf<double>(ops::sum(cube(), {2})), over2);
  EXPECT_EQ(valuesOf<double>(ops::sum(cube(), {0, 2})), over02);
  EXPECT_EQ(valuesOf<double>(ops::sum(cube(), {-1, -3})), over02);  // negative dims wrap
  EXPECT_THAT(ops::sum(cube(), {0, 2}).sizes(), ElementsAre(3));
}

TEST(ReductionSum, KeepdimKeepsReducedDimsAsSizeOne) {
  EXPECT_THAT(ops::sum(cube(), {1}, /*keepdim=*/true).sizes(), ElementsAre(2, 1, 4));
  EXPECT_THAT(ops::sum(cube(), std::nullopt, /*keepdim=*/true).sizes(), ElementsAre(1, 1, 1));
}

TEST(ReductionSum, EmptyOrNoneDimListReducesEverything) {
  EXPECT_EQ(ops::sum(cube(), std::optional<IntArrayRef>(IntArrayRef{})).item<double>(), 276.0);
  EXPECT_EQ(ops::sum(cube(), std::nullopt, false).item<double>(), 276.0);
}

TEST(ReductionSum, BoolAndIntegralInputsSumToLong) {
  Tensor ints = ops::sum(tensor<int32_t>({1, 2, 3}));
  EXPECT_EQ(ints.scalar_type(), ScalarType::Long);
  EXPECT_EQ(ints.item<int64_t>(), 6);
  Tensor bools = ops::sum(tensor<bool>({true, false, true, true}));
  EXPECT_EQ(bools.scalar_type(), ScalarType::Long);
  EXPECT_EQ(bools.item<int64_t>(), 3);
  EXPECT_EQ(ops::sum(tensor<int64_t>({-5, 2})).item<int64_t>(), -3);
}

TEST(ReductionSum, DtypeArgumentConvertsEachElementFirst) {
  // As in PyTorch: sum(x, dtype=Long) truncates 1.5 to 1 before adding.
  Tensor truncated = ops::sum(tensor<float>({1.5f, 1.5f, 1.5f}), ScalarType::Long);
  EXPECT_EQ(truncated.scalar_type(), ScalarType::Long);
  EXPECT_EQ(truncated.item<int64_t>(), 3);
  Tensor widened = ops::sum(tensor<int32_t>({1, 2}), std::nullopt, false, ScalarType::Double);
  EXPECT_EQ(widened.scalar_type(), ScalarType::Double);
  EXPECT_EQ(widened.item<double>(), 3.0);
  // A Bool result says whether any converted element is nonzero: -1 + 1 would be 0, but both are true.
  EXPECT_EQ(ops::sum(tensor<int32_t>({-1, 1}), ScalarType::Bool).item<bool>(), true);
  EXPECT_EQ(ops::sum(tensor<int32_t>({0, 0}), ScalarType::Bool).item<bool>(), false);
}

TEST(ReductionSum, IntSumWrapsAround) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(ops::sum(tensor<int32_t>({max, 1}), ScalarType::Int).item<int32_t>(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ops::sum(tensor<int32_t>({max, 1})).item<int64_t>(), int64_t{max} + 1);  // Long does not wrap
}

TEST(ReductionSum, LongFloatSumIsAccurate) {
  const int64_t n = 1 << 20;
  Tensor x = full({n}, 0.1f);
  const double exact = static_cast<double>(0.1f) * n;
  EXPECT_NEAR(ops::sum(x).item<float>(), exact, exact * 1e-6);
}

TEST(ReductionSum, EmptyReductionIsZero) {
  EXPECT_EQ(ops::sum(empty({0})).item<float>(), 0.0f);
  Tensor columns = ops::sum(empty({0, 3}), {0});
  EXPECT_THAT(valuesOf<float>(columns), ElementsAre(0, 0, 0));
  EXPECT_THAT(ops::sum(empty({0, 3}), {1}).sizes(), ElementsAre(0));
}

TEST(ReductionSum, NaNAndInfinityPropagate) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(ops::sum(tensor<float>({1, NAN, 2})).item<float>()));
  EXPECT_EQ(ops::sum(tensor<float>({1, inf})).item<float>(), inf);
  EXPECT_TRUE(std::isnan(ops::sum(tensor<float>({inf, -inf})).item<float>()));
}

TEST(ReductionSum, NonContiguousInputsAreReadInLogicalOrder) {
  Tensor base = tensor<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});  // [[1, 4], [2, 5], [3, 6]]
  EXPECT_THAT(valuesOf<int64_t>(ops::sum(transposed, {1})), ElementsAre(5, 7, 9));
  EXPECT_THAT(valuesOf<int64_t>(ops::sum(transposed, {0})), ElementsAre(6, 15));
  Tensor every_other = viewOf(base, {3}, {2}, 0);  // [1, 3, 5]
  EXPECT_EQ(ops::sum(every_other).item<int64_t>(), 9);
  Tensor expanded = viewOf(tensor<int64_t>({1, 2, 3}), {4, 3}, {0, 1});
  EXPECT_THAT(valuesOf<int64_t>(ops::sum(expanded, {0})), ElementsAre(4, 8, 12));
  EXPECT_THAT(valuesOf<int64_t>(ops::sum(expanded, {1})), ElementsAre(6, 6, 6, 6));
}

TEST(ReductionSum, ZeroDimInputTakesDimZeroOrMinusOne) {
  Tensor scalar = full({}, 7, ScalarType::Long);
  EXPECT_EQ(ops::sum(scalar, {0}).item<int64_t>(), 7);
  EXPECT_EQ(ops::sum(scalar, {-1}, true).dim(), 0);
  EXPECT_TRUE(raisesError([&] { ops::sum(scalar, {1}); }, ErrorKind::Index,
                          "aten::sum.dim_IntList: dimension out of range (expected to be in range of [-1, 0], "
                          "but got 1)"));
}

TEST(ReductionSum, BadDimsAreErrors) {
  EXPECT_TRUE(raisesError([] { ops::sum(cube(), {3}); }, ErrorKind::Index,
                          "aten::sum.dim_IntList: dimension out of range (expected to be in range of [-3, 2], "
                          "but got 3)"));
  EXPECT_EQ(errorMessageOf([] { ops::sum(cube(), {1, -2}); }),
            "aten::sum.dim_IntList: dim 1 appears multiple times in the list of dims");
}

TEST(ReductionSum, OutIsResizedAndReturned) {
  Tensor out = empty({7}, ScalarType::Double);
  EXPECT_EQ(&ops::sum_out(out, cube(), {0, 1}), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(4));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(60, 66, 72, 78));
  Tensor total = empty({2}, ScalarType::Double);
  EXPECT_EQ(&ops::sum_out(total, cube()), &total);
  EXPECT_EQ(total.dim(), 0);
  EXPECT_EQ(total.item<double>(), 276.0);
}

TEST(ReductionSum, OutMayBeTheInputItself) {
  Tensor x = tensor<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  ops::sum_out(x, x, {0});
  EXPECT_THAT(x.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(5, 7, 9));
  Tensor y = tensor<float>({4, 1, 3});
  ops::amax_out(y, y);
  EXPECT_EQ(y.item<float>(), 4.0f);
}

TEST(ReductionSum, ExpandedOutIsAnError) {
  Tensor expanded = viewOf(zeros({1}), {3}, {0});
  EXPECT_TRUE(raisesError([&] { ops::sum_out(expanded, ones({3, 2}), {1}); }, ErrorKind::Generic,
                          "aten::sum.IntList_out: unsupported operation: more than one element of the written-to "
                          "tensor 'out' refers to a single memory location (dimension 0 is expanded)"));
}

TEST(ReductionSum, OutDtypeIsTheResultDtype) {
  Tensor out = empty({}, ScalarType::Float);
  ops::sum_out(out, tensor<int32_t>({1, 2}));  // computed in Float, as PyTorch's out= does
  EXPECT_EQ(out.item<float>(), 3.0f);
  Tensor transposed_out = viewOf(zeros({6}, ScalarType::Long), {3, 2}, {1, 3});
  ops::sum_out(transposed_out, tensor<int64_t>(std::vector<int64_t>(24, 1), {3, 2, 4}), {2});
  EXPECT_THAT(valuesOf<int64_t>(transposed_out), ElementsAre(4, 4, 4, 4, 4, 4));
  EXPECT_EQ(errorMessageOf([] {
              Tensor wrong = empty({}, ScalarType::Float);
              ops::sum_out(wrong, ones({2}), ScalarType::Double);
            }),
            "aten::sum.out: expected 'out' to have dtype Double (the requested dtype) but got Float");
}

// ---------------------------------------------------------------------------------------------
// mean

TEST(ReductionMean, IsTheSumDividedByTheCount) {
  EXPECT_THAT(valuesOf<double>(ops::mean(cube(), {0, 2})), ElementsAre(60 / 8.0, 92 / 8.0, 124 / 8.0));
  EXPECT_EQ(ops::mean(cube()).item<double>(), 11.5);
  Tensor f = ops::mean(tensor<float>({1, 2, 3, 4}, {2, 2}), {1}, /*keepdim=*/true);
  EXPECT_THAT(f.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(valuesOf<float>(f), ElementsAre(1.5f, 3.5f));
}

TEST(ReductionMean, IntegralInputNeedsAFloatingDtype) {
  EXPECT_EQ(errorMessageOf([] { ops::mean(tensor<int64_t>({1, 2})); }),
            "aten::mean: could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            "Got: Long");
  EXPECT_EQ(errorMessageOf([] { ops::mean(ones({2}), {0}, false, ScalarType::Int); }),
            "aten::mean.dim: could not infer output dtype. Optional dtype must be either a floating point or complex "
            "dtype. Got: Int");
  Tensor m = ops::mean(tensor<int64_t>({1, 2}), ScalarType::Double);
  EXPECT_EQ(m.scalar_type(), ScalarType::Double);
  EXPECT_EQ(m.item<double>(), 1.5);
}

TEST(ReductionMean, EmptyMeanIsNaN) {
  EXPECT_TRUE(std::isnan(ops::mean(empty({0})).item<float>()));
  EXPECT_EQ(ops::mean(empty({0, 2}), {1}).numel(), 0);
}

TEST(ReductionMean, OutFormsWriteAndReturnTheCallersTensor) {
  Tensor out = empty({5});
  EXPECT_EQ(&ops::mean_out(out, tensor<float>({1, 2, 3, 4}, {2, 2}), {0}), &out);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(2, 3));
  EXPECT_EQ(&ops::mean_out(out, tensor<float>({1, 2, 3, 4})), &out);
  EXPECT_EQ(out.item<float>(), 2.5f);
  Tensor long_out = empty({}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::mean_out(long_out, ones({2})); }),
            "aten::mean.dtype_out: expected 'out' to have a floating dtype (Float or Double) but got Long");
}

// ---------------------------------------------------------------------------------------------
// amax

TEST(ReductionAmax, MaximumOverDimsForEveryDtype) {
  EXPECT_THAT(valuesOf<double>(ops::amax(cube(), {0, 2})), ElementsAre(15, 19, 23));
  EXPECT_THAT(valuesOf<int32_t>(ops::amax(tensor<int32_t>({-7, -3, -9, -8}, {2, 2}), {1})), ElementsAre(-3, -8));
  EXPECT_EQ(ops::amax(tensor<int64_t>({std::numeric_limits<int64_t>::min()})).item<int64_t>(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ops::amax(tensor<float>({-3.5f, -1.25f})).item<float>(), -1.25f);
  EXPECT_THAT(valuesOf<bool>(ops::amax(tensor<bool>({false, false, false, true}, {2, 2}), {1})),
              ElementsAre(false, true));
  EXPECT_EQ(ops::amax(tensor<int32_t>({1, 5})).scalar_type(), ScalarType::Int);
}

TEST(ReductionAmax, NaNWinsAndInfinityIsAnOrdinaryValue) {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor x = tensor<double>({1, NAN, 3, -inf, 2, inf}, {2, 3});
  std::vector<double> rows = valuesOf<double>(ops::amax(x, {1}));
  EXPECT_TRUE(std::isnan(rows[0]));
  EXPECT_EQ(rows[1], inf);
  EXPECT_TRUE(std::isnan(ops::amax(tensor<float>({NAN, 1})).item<float>()));
}

TEST(ReductionAmax, EmptyReductionIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::amax(empty({2, 0}), {1}); }),
            "aten::amax: Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(errorMessageOf([] { ops::amax(empty({0})); }),
            "aten::amax: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
            "with the 'dim' argument.");
  EXPECT_THAT(ops::amax(empty({0, 2}), {1}).sizes(), ElementsAre(0));  // nothing to reduce, nothing wrong
}

TEST(ReductionAmax, OutMustHaveSelfsDtype) {
  Tensor out = empty({9});
  EXPECT_EQ(&ops::amax_out(out, tensor<float>({1, 4, 2, 3}, {2, 2}), {0}, true), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(2, 4));
  Tensor doubles = empty({}, ScalarType::Double);
  EXPECT_EQ(errorMessageOf([&] { ops::amax_out(doubles, ones({2})); }),
            "aten::amax.out: expected 'out' to have the dtype of 'self' (Float) but got Double");
}

// ---------------------------------------------------------------------------------------------
// argmax

TEST(ReductionArgmax, FirstIndexOfTheMaximumAlongADim) {
  Tensor x = tensor<int32_t>({3, 7, 7, 1, 9, 2, 9, 9}, {2, 4});
  EXPECT_THAT(valuesOf<int64_t>(ops::argmax(x, 1)), ElementsAre(1, 0));
  EXPECT_THAT(valuesOf<int64_t>(ops::argmax(x, 0)), ElementsAre(1, 0, 1, 1));
  EXPECT_THAT(ops::argmax(x, -1, /*keepdim=*/true).sizes(), ElementsAre(2, 1));
}

TEST(ReductionArgmax, AlongEachDimMatchesNaiveLoopsOnATransposedInput) {
  const std::vector<double> b = {5, 1, 8, 8, 0, 3, 9, 2, 9, 4, 6, 7};  // (3, 4), row-major
  Tensor t = viewOf(tensor<double>(b, {3, 4}), {4, 3}, {1, 4});        // t[i][j] = b[j][i]
  std::vector<int64_t> along0, along1;
  for (int64_t j = 0; j < 3; ++j) {
    int64_t best = 0;
    for (int64_t i = 1; i < 4; ++i) best = b[j * 4 + i] > b[j * 4 + best] ? i : best;
    along0.push_back(best);
  }
  for (int64_t i = 0; i < 4; ++i) {
    int64_t best = 0;
    for (int64_t j = 1; j < 3; ++j) best = b[j * 4 + i] > b[best * 4 + i] ? j : best;
    along1.push_back(best);
  }
  EXPECT_EQ(valuesOf<int64_t>(ops::argmax(t, 0)), along0);
  EXPECT_EQ(valuesOf<int64_t>(ops::argmax(t, 1)), along1);
}

TEST(ReductionArgmax, WithoutDimIndexesTheFlattenedTensor) {
  Tensor x = tensor<float>({1, 5, 2, 5, 0, 3}, {2, 3});
  Tensor flat = ops::argmax(x);
  EXPECT_EQ(flat.dim(), 0);
  EXPECT_EQ(flat.item<int64_t>(), 1);
  EXPECT_THAT(ops::argmax(x, std::nullopt, /*keepdim=*/true).sizes(), ElementsAre(1, 1));
  // Logical, not memory, order: [[1, 6], [5, 0], [2, 3]] flattens to [1, 6, 5, ...], memory is [1, 5, 2, 6, ...].
  Tensor transposed = viewOf(tensor<float>({1, 5, 2, 6, 0, 3}, {2, 3}), {3, 2}, {1, 3});
  EXPECT_EQ(ops::argmax(transposed).item<int64_t>(), 1);
}

TEST(ReductionArgmax, NaNCountsAsTheMaximum) {
  EXPECT_EQ(ops::argmax(tensor<double>({1, NAN, 7, NAN})).item<int64_t>(), 1);
  EXPECT_THAT(valuesOf<int64_t>(ops::argmax(tensor<float>({1, 2, 3, NAN}, {2, 2}), 0)), ElementsAre(1, 1));
}

TEST(ReductionArgmax, EveryDtypeGivesLong) {
  EXPECT_EQ(ops::argmax(tensor<bool>({false, true, true})).item<int64_t>(), 1);
  EXPECT_EQ(ops::argmax(tensor<int64_t>({-3, -1, -2})).item<int64_t>(), 1);
  EXPECT_EQ(ops::argmax(tensor<int32_t>({4})).scalar_type(), ScalarType::Long);
  EXPECT_EQ(ops::argmax(full({}, 2.5)).item<int64_t>(), 0);
}

TEST(ReductionArgmax, EmptyAndOutErrors) {
  EXPECT_EQ(errorMessageOf([] { ops::argmax(empty({0, 3})); }),
            "aten::argmax: Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_EQ(errorMessageOf([] { ops::argmax(empty({3, 0}), 1); }),
            "aten::argmax: Expected reduction dim 1 to have non-zero size.");
  Tensor floats = empty({});
  EXPECT_EQ(errorMessageOf([&] { ops::argmax_out(floats, ones({2})); }),
            "aten::argmax.out: expected 'out' to have dtype Long but got Float");
  Tensor out = empty({5}, ScalarType::Long);
  EXPECT_EQ(&ops::argmax_out(out, tensor<float>({0, 2, 1, 3}, {2, 2}), 1), &out);
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(1, 1));
}

// ---------------------------------------------------------------------------------------------
// Dispatch counts

TEST(ReductionDispatch, FunctionalFormsCostExactlyTwoDispatches) {
  Tensor x = ones({2, 3});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::sum(x, {1});
    ops::mean(x);
    ops::amax(x, {0});
    ops::argmax(x, 1);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::sum.dim_IntList", 1},
                                               {"aten::mean", 1},
                                               {"aten::amax", 1},
                                               {"aten::argmax", 1},
                                               {"aten::empty.memory_format", 4}}));
}

}  // namespace
}  // namespace sy
