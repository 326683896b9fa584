// softmax and log_softmax (the aten::_softmax kernels and the composite softmax.int) through the
// dispatcher. Expected values are computed here independently: closed forms (softmax of
// [0, ln 2, ln 3] is [1, 2, 3] / 6) and a naive exp / sum per slice written in the test.
// Tolerances: Float results within 1e-6 absolute, Double within 1e-12 (values are in [0, 1] or
// moderate logs, so absolute tolerances are meaningful).
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

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::Pointwise;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// softmax of a (rows, cols) row-major matrix along dim 1 (rows) or 0 (columns), by the definition.
std::vector<double> naiveSoftmax(const std::vector<double>& x, int64_t rows, int64_t cols, int64_t dim) {
  std::vector<double> y(x.size());
  const int64_t slices = dim == 1 ? rows : cols, extent = dim == 1 ? cols : rows;
  for (int64_t s = 0; s < slices; ++s) {
    auto at = [&](int64_t r) { return dim == 1 ? s * cols + r : r * cols + s; };
    double sum = 0;
    for (int64_t r = 0; r < extent; ++r) sum += std::exp(x[at(r)]);
    for (int64_t r = 0; r < extent; ++r) y[at(r)] = std::exp(x[at(r)]) / sum;
  }
  return y;
}

const std::vector<double> kMatrix = {0.5, -1.0, 2.0, 0.25, 3.0, -0.75, 1.5, 0.0, -2.0, 1.0, 0.125, 2.5};  // (3, 4)

// ---------------------------------------------------------------------------------------------

TEST(Softmax, MatchesTheClosedForm) {
  Tensor x = tensor<double>({0.0, std::log(2.0), std::log(3.0)});
  EXPECT_THAT(valuesOf<double>(ops::softmax(x, 0)), Pointwise(DoubleNear(1e-12), {1.0 / 6, 2.0 / 6, 3.0 / 6}));
  EXPECT_THAT(valuesOf<double>(ops::log_softmax(x, 0)),
              Pointwise(DoubleNear(1e-12), {std::log(1.0 / 6), std::log(2.0 / 6), std::log(3.0 / 6)}));
}

TEST(Softmax, RowsSumToOne) {
  Tensor p = ops::softmax(tensor<float>(std::vector<float>(kMatrix.begin(), kMatrix.end()), {3, 4}), 1);
  std::vector<float> v = valuesOf<float>(p);
  for (int r = 0; r < 3; ++r) EXPECT_NEAR(v[r * 4] + v[r * 4 + 1] + v[r * 4 + 2] + v[r * 4 + 3], 1.0f, 1e-6f);
}

TEST(Softmax, EitherDimMatchesTheDefinition) {
  Tensor x = tensor<double>(kMatrix, {3, 4});
  EXPECT_THAT(valuesOf<double>(ops::softmax(x, 1)), Pointwise(DoubleNear(1e-12), naiveSoftmax(kMatrix, 3, 4, 1)));
  EXPECT_THAT(valuesOf<double>(ops::softmax(x, 0)), Pointwise(DoubleNear(1e-12), naiveSoftmax(kMatrix, 3, 4, 0)));
  EXPECT_THAT(valuesOf<double>(ops::softmax(x, -2)), Pointwise(DoubleNear(1e-12), naiveSoftmax(kMatrix, 3, 4, 0)));
}

TEST(Softmax, MiddleDimOfAThreeDimTensorMatchesTheDefinition) {
  // (2, 3, 2): softmax over dim 1 is, for each (i, k), the softmax of the 3 values x[i, :, k].
  std::vector<double> values(12);
  for (int n = 0; n < 12; ++n) values[n] = std::sin(n * 1.7);
  Tensor p = ops::softmax(tensor<double>(values, {2, 3, 2}), 1);
  std::vector<double> expected(12);
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 2; ++k) {
      double sum = 0;
      for (int j = 0; j < 3; ++j) sum += std::exp(values[i * 6 + j * 2 + k]);
      for (int j = 0; j < 3; ++j) expected[i * 6 + j * 2 + k] = std::exp(values[i * 6 + j * 2 + k]) / sum;
    }
  }
  EXPECT_THAT(valuesOf<double>(p), Pointwise(DoubleNear(1e-12), expected));
}

TEST(Softmax, LargeInputsDoNotOverflow) {
  Tensor big = tensor<float>({1000, 1001, 1002});
  const double denominator = 1 + std::exp(1.0) + std::exp(2.0);
  EXPECT_THAT(valuesOf<float>(ops::softmax(big, 0)),
              Pointwise(FloatNear(1e-6f), {float(1 / denominator), float(std::exp(1.0) / denominator),
                                           float(std::exp(2.0) / denominator)}));
  EXPECT_THAT(valuesOf<float>(ops::log_softmax(big, 0)),
              Pointwise(FloatNear(1e-5f), {float(-std::log(denominator)), float(1 - std::log(denominator)),
                                           float(2 - std::log(denominator))}));
}

TEST(Softmax, LogSoftmaxIsTheLogOfSoftmax) {
  Tensor x = tensor<double>(kMatrix, {3, 4});
  std::vector<double> logs;
  for (double p : naiveSoftmax(kMatrix, 3, 4, 0)) logs.push_back(std::log(p));
  EXPECT_THAT(valuesOf<double>(ops::log_softmax(x, 0)), Pointwise(DoubleNear(1e-12), logs));
}

TEST(Softmax, NaNPoisonsItsSliceOnly) {
  std::vector<float> v = valuesOf<float>(ops::softmax(tensor<float>({1, NAN, 2, 0, 0, 0}, {2, 3}), 1));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(v[i]));
  EXPECT_THAT(std::vector<float>(v.begin() + 3, v.end()), Pointwise(FloatNear(1e-6f), {1 / 3.f, 1 / 3.f, 1 / 3.f}));
}

TEST(Softmax, InfinitiesFollowTheShiftedDefinition) {
  const double inf = std::numeric_limits<double>::infinity();
  // max = inf, so the sum of exp(x - max) contains exp(inf - inf) = NaN, which spreads over the
  // whole slice, as in PyTorch.
  std::vector<double> with_inf = valuesOf<double>(ops::softmax(tensor<double>({1, inf}), 0));
  EXPECT_TRUE(std::isnan(with_inf[0]) && std::isnan(with_inf[1]));
  std::vector<double> all_minus_inf = valuesOf<double>(ops::softmax(tensor<double>({-inf, -inf}), 0));
  EXPECT_TRUE(std::isnan(all_minus_inf[0]) && std::isnan(all_minus_inf[1]));
  std::vector<double> masked = valuesOf<double>(ops::log_softmax(tensor<double>({-inf, 0}), 0));
  EXPECT_EQ(masked[0], -inf);
  EXPECT_EQ(masked[1], 0.0);
}

TEST(Softmax, TransposedInputIsReadInLogicalOrder) {
  Tensor base = tensor<double>(kMatrix, {3, 4});
  Tensor transposed = viewOf(base, {4, 3}, {1, 4});  // softmax of its rows = softmax of base's columns
  std::vector<double> expected_columns = naiveSoftmax(kMatrix, 3, 4, 0);
  std::vector<double> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) expected.push_back(expected_columns[j * 4 + i]);
  EXPECT_THAT(valuesOf<double>(ops::softmax(transposed, 1)), Pointwise(DoubleNear(1e-12), expected));
}

TEST(Softmax, ZeroDimAndEmptyTensors) {
  EXPECT_EQ(ops::softmax(full({}, 3.0), 0).item<float>(), 1.0f);
  EXPECT_EQ(ops::log_softmax(full({}, 3.0), -1).item<float>(), 0.0f);
  EXPECT_THAT(ops::softmax(empty({0, 3}), 1).sizes(), ElementsAre(0, 3));
}

TEST(Softmax, DtypeArgumentConvertsFirst) {
  Tensor p = ops::softmax(tensor<int64_t>({0, 0}), 0, ScalarType::Float);
  EXPECT_EQ(p.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(p), ElementsAre(0.5f, 0.5f));
  Tensor d = ops::log_softmax(tensor<float>({1, 1}), 0, ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(d), Pointwise(DoubleNear(1e-12), {-std::log(2.0), -std::log(2.0)}));
}

TEST(Softmax, IntegralInputWithoutDtypeIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::softmax(tensor<int64_t>({1, 2}), 0); }),
            "aten::_softmax: argument 'self' has dtype Long, which this kernel does not support (supported: Half, "
            "Float, Double, BFloat16)");
}

TEST(Softmax, BadArgumentsAreErrors) {
  EXPECT_TRUE(raisesError([] { ops::softmax(ones({2, 3}), 2); }, ErrorKind::Index,
                          "aten::_softmax: dimension out of range (expected to be in range of [-2, 1], but got 2)"));
  EXPECT_EQ(errorMessageOf([] { ops::_log_softmax(ones({2}), 0, /*half_to_float=*/true); }),
            "aten::_log_softmax: half_to_float=True (a Float result from a Half input) is not supported on the CPU, "
            "as in PyTorch; pass half_to_float=False");
  Tensor doubles = empty({2}, ScalarType::Double);
  EXPECT_EQ(errorMessageOf([&] { ops::_softmax_out(doubles, ones({2}), 0, false); }),
            "aten::_softmax.out: expected 'out' to have the dtype of 'self' (Float) but got Double");
}

TEST(Softmax, OutFormsResizeAndReturnTheCallersTensor) {
  Tensor x = tensor<double>({0.0, std::log(3.0)});
  Tensor out = empty({5}, ScalarType::Double);
  EXPECT_EQ(&ops::softmax_out(out, x, 0), &out);
  EXPECT_THAT(valuesOf<double>(out), Pointwise(DoubleNear(1e-12), {0.25, 0.75}));
  EXPECT_EQ(&ops::_log_softmax_out(out, x, 0, false), &out);
  EXPECT_THAT(valuesOf<double>(out), Pointwise(DoubleNear(1e-12), {std::log(0.25), std::log(0.75)}));
  Tensor floats = empty({0});
  EXPECT_EQ(&ops::log_softmax_out(floats, x, 0, ScalarType::Float), &floats);
  EXPECT_THAT(valuesOf<float>(floats), Pointwise(FloatNear(1e-6f), {std::log(0.25f), std::log(0.75f)}));
}

TEST(Softmax, OutMayBeTheInputItselfOrATransposedView) {
  Tensor x = tensor<double>(kMatrix, {3, 4});
  EXPECT_EQ(&ops::_softmax_out(x, x, 1, false), &x);
  EXPECT_THAT(valuesOf<double>(x), Pointwise(DoubleNear(1e-12), naiveSoftmax(kMatrix, 3, 4, 1)));
  Tensor out = viewOf(zeros({12}, ScalarType::Double), {3, 4}, {1, 3});
  ops::_softmax_out(out, tensor<double>(kMatrix, {3, 4}), 0, false);
  EXPECT_THAT(valuesOf<double>(out), Pointwise(DoubleNear(1e-12), naiveSoftmax(kMatrix, 3, 4, 0)));
}

TEST(SoftmaxDispatch, SoftmaxIntIsCompositeOverUnderscoreSoftmax) {
  Tensor x = ones({2, 3});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::softmax(x, 1);
    ops::_log_softmax(x, 1, false);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::softmax.int", 1},
                                               {"aten::_softmax", 1},
                                               {"aten::_log_softmax", 1},
                                               {"aten::empty.memory_format", 2}}));
}

}  // namespace
}  // namespace sy
