// mm, bmm, addmm and linear through the dispatcher. Expected values come from a naive triple loop
// written here (over logical indices, so any layout of the operands is checked against the same
// reference) and from small hand-worked products.
// Tolerances: integer products are exact; Double within 1e-9 and Float within 1e-3 absolute on
// sums of up to a few hundred products of values in [-1, 1] (the kernels sum in another order).
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

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// Deterministic values in [-1, 1] (rows x cols, row-major).
std::vector<double> pattern(int64_t rows, int64_t cols, double seed) {
  std::vector<double> v;
  for (int64_t n = 0; n < rows * cols; ++n) v.push_back(std::sin(seed + 0.37 * static_cast<double>(n)));
  return v;
}

// The product of row-major (m x k) and (k x n) matrices by the definition.
template <class T>
std::vector<T> naiveProduct(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k, int64_t n) {
  std::vector<T> c(static_cast<size_t>(m * n), T{});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

// A (rows x cols) tensor holding `values` row-major, but stored column-major (a transposed view).
Tensor columnMajor(const std::vector<double>& values, int64_t rows, int64_t cols) {
  std::vector<double> transposed;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) transposed.push_back(values[i * cols + j]);
  return viewOf(tensor<double>(transposed, {cols, rows}), {rows, cols}, {1, rows});
}

// ---------------------------------------------------------------------------------------------
// mm

TEST(LinalgMm, SmallProductWorkedByHand) {
  Tensor a = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = tensor<float>({7, 8, 9, 10, 11, 12}, {3, 2});
  Tensor c = ops::mm(a, b);
  EXPECT_THAT(c.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(c), ElementsAre(58, 64, 139, 154));
}

TEST(LinalgMm, IntegerDtypesAreExactAndWrapAround) {
  Tensor a = tensor<int32_t>({1, -2, 3, 4}, {2, 2});
  EXPECT_THAT(valuesOf<int32_t>(ops::mm(a, a)), ElementsAre(-5, -10, 15, 10));
  Tensor l = tensor<int64_t>({2, 3}, {1, 2});
  EXPECT_THAT(valuesOf<int64_t>(ops::mm(l, tensor<int64_t>({4, 5}, {2, 1}))), ElementsAre(23));
  const int32_t big = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(ops::mm(tensor<int32_t>({big}, {1, 1}), tensor<int32_t>({2}, {1, 1})).item<int32_t>(), -2);
}

TEST(LinalgMm, LargeProductsMatchNaiveLoopsForEveryLayout) {
  // Sizes past the kernels' block sizes and unroll widths, with ragged tails.
  const int64_t m = 37, k = 133, n = 1029;
  const std::vector<double> a = pattern(m, k, 0.1), b = pattern(k, n, 0.7);
  const std::vector<double> expected = naiveProduct(a, b, m, k, n);
  const Tensor row_a = tensor<double>(a, {m, k}), row_b = tensor<double>(b, {k, n});
  for (const Tensor& lhs : {row_a, columnMajor(a, m, k)}) {
    for (const Tensor& rhs : {row_b, columnMajor(b, k, n)}) {
      EXPECT_THAT(valuesOf<double>(ops::mm(lhs, rhs)), Pointwise(DoubleNear(1e-9), expected));
    }
  }
}

TEST(LinalgMm, FloatAndStridedOperandsMatchNaiveLoops) {
  const int64_t m = 5, k = 70, n = 9;
  const std::vector<double> a = pattern(m, k, 0.3), b = pattern(k, n, 1.1);
  std::vector<float> expected;
  for (double v : naiveProduct(a, b, m, k, n)) expected.push_back(static_cast<float>(v));
  std::vector<float> af(a.begin(), a.end()), bf_spaced;
  for (double v : b) bf_spaced.insert(bf_spaced.end(), {static_cast<float>(v), -100.0f});  // every other element
  Tensor sliced_b = viewOf(tensor<float>(bf_spaced), {k, n}, {2 * n, 2});
  EXPECT_THAT(valuesOf<float>(ops::mm(tensor<float>(af, {m, k}), sliced_b)), Pointwise(FloatNear(1e-3f), expected));
}

TEST(LinalgMm, EmptyInnerDimensionGivesZerosAndEmptyOuterGivesEmpty) {
  EXPECT_THAT(valuesOf<float>(ops::mm(empty({2, 0}), empty({0, 3}))), ElementsAre(0, 0, 0, 0, 0, 0));
  EXPECT_THAT(ops::mm(empty({0, 4}), ones({4, 3})).sizes(), ElementsAre(0, 3));
}

TEST(LinalgMm, NaNAndInfinityPropagate) {
  std::vector<float> c = valuesOf<float>(ops::mm(tensor<float>({NAN, 0, 1, 1}, {2, 2}), ones({2, 2})));
  EXPECT_TRUE(std::isnan(c[0]) && std::isnan(c[1]));
  EXPECT_THAT(std::vector<float>(c.begin() + 2, c.end()), ElementsAre(2, 2));
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(ops::mm(tensor<float>({inf}, {1, 1}), zeros({1, 1})).item<float>()));  // inf * 0
}

TEST(LinalgMm, ShapeAndDtypeErrorsNameTheOperands) {
  EXPECT_EQ(errorMessageOf([] { ops::mm(ones({2, 3, 4}), ones({4, 5})); }),
            "aten::mm: expected 'self' to be a 2-D tensor but got a 3-D tensor");
  EXPECT_EQ(errorMessageOf([] { ops::mm(ones({2, 3}), ones({4, 5})); }),
            "aten::mm: self and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(errorMessageOf([] { ops::mm(ones({2, 3}), ones({3, 2}, ScalarType::Double)); }),
            "aten::mm: expected 'self' and 'mat2' to have the same dtype, but got Float and Double");
  EXPECT_EQ(errorMessageOf([] { ops::mm(ones({1, 1}, ScalarType::Bool), ones({1, 1}, ScalarType::Bool)); }),
            "aten::mm: argument 'self' has dtype Bool, which this kernel does not support (supported: Byte, Char, "
            "Short, Int, Long, Half, Float, Double, BFloat16)");
}

TEST(LinalgMm, OutIsResizedWrittenThroughItsStridesAndReturned) {
  Tensor a = tensor<int64_t>({1, 2, 3, 4}, {2, 2});
  Tensor out = empty({9}, ScalarType::Long);
  EXPECT_EQ(&ops::mm_out(out, a, a), &out);
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(7, 10, 15, 22));
  Tensor storage = zeros({4}, ScalarType::Long);
  Tensor transposed = viewOf(storage, {2, 2}, {1, 2});
  ops::mm_out(transposed, a, a);
  EXPECT_THAT(valuesOf<int64_t>(storage), ElementsAre(7, 15, 10, 22));
  Tensor doubles = empty({2, 2}, ScalarType::Double);
  EXPECT_EQ(errorMessageOf([&] { ops::mm_out(doubles, ones({2, 2}), ones({2, 2})); }),
            "aten::mm.out: expected 'out' to have dtype Float (the dtype of the inputs) but got Double");
}

TEST(LinalgMm, OutAliasingAnInputIsStaged) {
  Tensor a = tensor<double>({1, 2, 3, 4}, {2, 2});
  ops::mm_out(a, a, a);
  EXPECT_THAT(valuesOf<double>(a), ElementsAre(7, 10, 15, 22));
  // out is self and must grow from (2, 2) to (2, 3): self is still read as (2, 2).
  Tensor s = tensor<double>({1, 2, 3, 4}, {2, 2});
  ops::mm_out(s, s, tensor<double>({1, 0, 1, 0, 1, 1}, {2, 3}));
  EXPECT_THAT(s.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<double>(s), ElementsAre(1, 2, 3, 3, 4, 7));
}

// ---------------------------------------------------------------------------------------------
// bmm

TEST(LinalgBmm, EachBatchIsAnIndependentProduct) {
  const std::vector<double> a = pattern(3 * 4, 5, 0.2), b = pattern(3 * 5, 6, 0.9);
  std::vector<double> expected;
  for (int64_t batch = 0; batch < 3; ++batch) {
    std::vector<double> ab(a.begin() + batch * 20, a.begin() + (batch + 1) * 20);
    std::vector<double> bb(b.begin() + batch * 30, b.begin() + (batch + 1) * 30);
    for (double v : naiveProduct(ab, bb, 4, 5, 6)) expected.push_back(v);
  }
  Tensor c = ops::bmm(tensor<double>(a, {3, 4, 5}), tensor<double>(b, {3, 5, 6}));
  EXPECT_THAT(c.sizes(), ElementsAre(3, 4, 6));
  EXPECT_THAT(valuesOf<double>(c), Pointwise(DoubleNear(1e-12), expected));
  Tensor out = empty({1}, ScalarType::Double);
  EXPECT_EQ(&ops::bmm_out(out, tensor<double>(a, {3, 4, 5}), tensor<double>(b, {3, 5, 6})), &out);
  EXPECT_THAT(valuesOf<double>(out), Pointwise(DoubleNear(1e-12), expected));
}

TEST(LinalgBmm, ExpandedBatchOfOneMatrixIsReused) {
  Tensor m = tensor<int32_t>({1, 2, 3, 4}, {2, 2});
  Tensor batch = viewOf(m, {3, 2, 2}, {0, 2, 1});
  EXPECT_THAT(valuesOf<int32_t>(ops::bmm(batch, batch)), ElementsAre(7, 10, 15, 22, 7, 10, 15, 22, 7, 10, 15, 22));
}

TEST(LinalgBmm, MismatchedBatchesAndShapesAreErrors) {
  EXPECT_EQ(errorMessageOf([] { ops::bmm(ones({2, 2, 3}), ones({3, 3, 2})); }),
            "aten::bmm: self and mat2 must have the same batch size, but got 2 and 3");
  EXPECT_EQ(errorMessageOf([] { ops::bmm(ones({2, 2, 3}), ones({2, 4, 5})); }),
            "aten::bmm: self and mat2 shapes cannot be multiplied (2x2x3 and 2x4x5)");
  EXPECT_EQ(errorMessageOf([] { ops::bmm(ones({2, 3}), ones({3, 2})); }),
            "aten::bmm: expected 'self' to be a 3-D tensor but got a 2-D tensor");
}

// ---------------------------------------------------------------------------------------------
// addmm

TEST(LinalgAddmm, BetaSelfPlusAlphaProductWithSelfBroadcast) {
  Tensor a = tensor<double>({1, 2, 3, 4}, {2, 2});
  Tensor row = tensor<double>({10, 20});
  EXPECT_THAT(valuesOf<double>(ops::addmm(row, a, a)), ElementsAre(17, 30, 25, 42));
  EXPECT_THAT(valuesOf<double>(ops::addmm(row, a, a, /*beta=*/0.5, /*alpha=*/2)), ElementsAre(19, 30, 35, 54));
  EXPECT_THAT(valuesOf<double>(ops::addmm(full({}, 1.0, ScalarType::Double), a, a)), ElementsAre(8, 11, 16, 23));
  EXPECT_THAT(valuesOf<int64_t>(ops::addmm(tensor<int64_t>({1}, {1, 1}), tensor<int64_t>({2}, {1, 1}),
                                           tensor<int64_t>({3}, {1, 1}), 2, 3)),
              ElementsAre(20));
}

TEST(LinalgAddmm, ZeroBetaIgnoresSelfEvenItsNaNs) {
  Tensor c = ops::addmm(tensor<float>({NAN, NAN}), ones({2, 3}), ones({3, 2}), /*beta=*/0);
  EXPECT_THAT(valuesOf<float>(c), ElementsAre(3, 3, 3, 3));
  EXPECT_THAT(valuesOf<float>(ops::addmm(tensor<float>({1, 2}), empty({2, 0}), empty({0, 2}), 3)),
              ElementsAre(3, 6, 3, 6));  // empty product: beta * self
}

TEST(LinalgAddmm, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor a = tensor<float>({1, 2, 3, 4}, {2, 2});
  Tensor out = empty({0});
  EXPECT_EQ(&ops::addmm_out(out, ones({2, 2}), a, a), &out);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(8, 11, 16, 23));
  Tensor acc = ones({2, 2});
  EXPECT_EQ(&ops::addmm_(acc, a, a, 1, -1), &acc);
  EXPECT_THAT(valuesOf<float>(acc), ElementsAre(-6, -9, -14, -21));
}

TEST(LinalgAddmm, ErrorsNameTheArguments) {
  EXPECT_EQ(errorMessageOf([] { ops::addmm(ones({3}), ones({2, 2}), ones({2, 4})); }),
            "aten::addmm: 'self' of size (3,) cannot be broadcast to the result size (2, 4)");
  EXPECT_EQ(errorMessageOf([] { ops::addmm(ones({2}), ones({2, 3}), ones({2, 2})); }),
            "aten::addmm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)");
  EXPECT_EQ(errorMessageOf([] {
              Tensor i = ones({1, 1}, ScalarType::Long);
              ops::addmm(i, i, i, 1, 0.5);
            }),
            "aten::addmm: For integral input tensors, argument alpha must not be a floating point number.");
  Tensor row = ones({2});
  EXPECT_THAT(errorMessageOf([&] { ops::addmm_(row, ones({2, 2}), ones({2, 2})); }),
              HasSubstr("aten::addmm_: 'self' of size (2,) cannot hold the result of size (2, 2) in place"));
}

// ---------------------------------------------------------------------------------------------
// linear

TEST(LinalgLinear, InputTimesWeightTransposedPlusBias) {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor w = tensor<float>({1, 0, 1, 0, 1, 0}, {2, 3});  // out features: x0 + x2, x1
  Tensor b = tensor<float>({100, 200});
  EXPECT_THAT(valuesOf<float>(ops::linear(x, w, b)), ElementsAre(104, 202, 110, 205));
  EXPECT_THAT(valuesOf<float>(ops::linear(x, w)), ElementsAre(4, 2, 10, 5));
  Tensor one_row = ops::linear(tensor<float>({1, 2, 3}), w, b);
  EXPECT_THAT(one_row.sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<float>(one_row), ElementsAre(104, 202));
}

TEST(LinalgLinear, LeadingBatchDimsAreKept) {
  const std::vector<double> x = pattern(2 * 3, 4, 0.5), w = pattern(5, 4, 1.5), b = pattern(1, 5, 2.5);
  std::vector<double> wt;  // (4, 5)
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t o = 0; o < 5; ++o) wt.push_back(w[o * 4 + i]);
  std::vector<double> expected = naiveProduct(x, wt, 6, 4, 5);
  for (int64_t r = 0; r < 6; ++r)
    for (int64_t o = 0; o < 5; ++o) expected[r * 5 + o] += b[o];
  Tensor y = ops::linear(tensor<double>(x, {2, 3, 4}), tensor<double>(w, {5, 4}), tensor<double>(b));
  EXPECT_THAT(y.sizes(), ElementsAre(2, 3, 5));
  EXPECT_THAT(valuesOf<double>(y), Pointwise(DoubleNear(1e-12), expected));
  // The same input with its two batch dims swapped in memory cannot be flattened by a view.
  std::vector<double> swapped;  // (3, 2, 4) storage of the same logical (2, 3, 4) tensor
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t f = 0; f < 4; ++f) swapped.push_back(x[(i * 3 + j) * 4 + f]);
  Tensor strided_x = viewOf(tensor<double>(swapped, {3, 2, 4}), {2, 3, 4}, {4, 8, 1});
  Tensor y2 = ops::linear(strided_x, tensor<double>(w, {5, 4}), tensor<double>(b));
  EXPECT_THAT(valuesOf<double>(y2), Pointwise(DoubleNear(1e-12), expected));
  // A full-shape bias is added elementwise rather than fused.
  Tensor full_bias = zeros({2, 3, 5}, ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(ops::linear(tensor<double>(x, {2, 3, 4}), tensor<double>(w, {5, 4}), full_bias)),
              Pointwise(DoubleNear(1e-12), naiveProduct(x, wt, 6, 4, 5)));
}

TEST(LinalgLinear, OutIsResizedAndReturned) {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 1, 3});
  Tensor w = tensor<float>({1, 1, 1}, {1, 3});
  Tensor out = empty({4});
  EXPECT_EQ(&ops::linear_out(out, x, w, tensor<float>({0.5f})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 1, 1));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(6.5f, 15.5f));
  Tensor transposed_out = viewOf(zeros({4}), {2, 2}, {1, 2});
  ops::linear_out(transposed_out, tensor<float>({1, 2, 3, 4}, {2, 2}), tensor<float>({1, 0, 0, 1}, {2, 2}));
  EXPECT_THAT(valuesOf<float>(transposed_out), ElementsAre(1, 2, 3, 4));
}

TEST(LinalgLinear, ErrorsNameTheArguments) {
  EXPECT_EQ(errorMessageOf([] { ops::linear(ones({2, 3}), ones({4, 5})); }),
            "aten::linear: input and weight.T shapes cannot be multiplied (2x3 and 5x4)");
  EXPECT_EQ(errorMessageOf([] { ops::linear(ones({2, 3}), ones({4, 3}), ones({3})); }),
            "aten::linear: 'bias' of size (3,) cannot be broadcast to the output size (2, 4)");
  EXPECT_EQ(errorMessageOf([] { ops::linear(ones({2, 3}), ones({3})); }),
            "aten::linear: expected 'weight' to be a 2-D tensor but got a 1-D tensor");
  EXPECT_EQ(errorMessageOf([] { ops::linear(full({}, 1.0), ones({1, 1})); }),
            "aten::linear: expected 'input' to have at least 1 dimension but got a 0-D tensor");
}

// ---------------------------------------------------------------------------------------------

TEST(LinalgDispatch, FunctionalProductsCostExactlyTwoDispatches) {
  Tensor m = ones({2, 2});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::mm(m, m);
    ops::addmm(m, m, m);
    ops::linear(m, m, ones({2}));  // composite: linear, then addmm and its allocation
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{
                       {"aten::mm", 1}, {"aten::addmm", 2}, {"aten::linear", 1}, {"aten::empty.memory_format", 3}}));
}

}  // namespace
}  // namespace sy
