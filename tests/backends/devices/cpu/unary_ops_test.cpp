// The elementwise unary operators abs, neg, exp, log, sqrt, rsqrt, sin, cos, tanh and acos in all
// three forms (functional, out=, in-place) through the dispatcher.
//
// References are computed here, in double: closed forms (exp(0) = 1, sqrt(9) = 3), identities
// (sin^2 + cos^2 = 1) and the <cmath> function evaluated in double per element. Tolerances: a
// Float result may differ from the double reference by float rounding (relative 1e-6, a few ulp);
// a Double result by 1e-14 relative. Integral results are exact.
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
using sy::testing::dispatchesOf;
using sy::testing::doublesOf;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::expectValues;
using sy::testing::mapped;
using sy::testing::viewOf;

constexpr double kUnaryInf = std::numeric_limits<double>::infinity();
constexpr double kUnaryNan = std::numeric_limits<double>::quiet_NaN();

constexpr double kUnaryFloatTolerance = 1e-6;
constexpr double kUnaryDoubleTolerance = 1e-14;

// One floating operator in all its forms, with its double reference function.
struct FloatingOp {
  const char* name;
  Tensor (*functional)(const Tensor&);
  Tensor& (*out)(Tensor&, const Tensor&);
  Tensor& (*in_place)(Tensor&);
  double (*reference)(double);
};
const std::vector<FloatingOp>& floatingOps() {
  static const std::vector<FloatingOp> table = {
      {"exp", ops::exp, ops::exp_out, ops::exp_, [](double x) { return std::exp(x); }},
      {"log", ops::log, ops::log_out, ops::log_, [](double x) { return std::log(x); }},
      {"sqrt", ops::sqrt, ops::sqrt_out, ops::sqrt_, [](double x) { return std::sqrt(x); }},
      {"rsqrt", ops::rsqrt, ops::rsqrt_out, ops::rsqrt_, [](double x) { return 1.0 / std::sqrt(x); }},
      {"sin", ops::sin, ops::sin_out, ops::sin_, [](double x) { return std::sin(x); }},
      {"cos", ops::cos, ops::cos_out, ops::cos_, [](double x) { return std::cos(x); }},
      {"tanh", ops::tanh, ops::tanh_out, ops::tanh_, [](double x) { return std::tanh(x); }},
      {"acos", ops::acos, ops::acos_out, ops::acos_, [](double x) { return std::acos(x); }},
  };
  return table;
}

// Values inside every function's domain (acos needs [-1, 1], log and sqrt positive), exactly
// representable in float so the Float and Double inputs are the same numbers.
const std::vector<double> kInDomain = {0.125, 0.25, 0.5, 0.75, 1.0};

// ---- Floating functions: values --------------------------------------------------------------------

TEST(UnaryFloating, FloatInputsMatchTheDoubleReferenceWithinFloatRounding) {
  for (const FloatingOp& op : floatingOps()) {
    SCOPED_TRACE(op.name);
    Tensor y = op.functional(tensor<float>({0.125f, 0.25f, 0.5f, 0.75f, 1.0f}));
    EXPECT_EQ(y.scalar_type(), ScalarType::Float);
    expectValues(y, mapped(kInDomain, op.reference), kUnaryFloatTolerance);
  }
}

TEST(UnaryFloating, DoubleInputsStayDoubleAndMatchTheReference) {
  for (const FloatingOp& op : floatingOps()) {
    SCOPED_TRACE(op.name);
    Tensor y = op.functional(tensor<double>(kInDomain));
    EXPECT_EQ(y.scalar_type(), ScalarType::Double);
    expectValues(y, mapped(kInDomain, op.reference), kUnaryDoubleTolerance);
  }
}

TEST(UnaryFloating, IntegralAndBoolInputsComputeInFloat) {
  for (const FloatingOp& op : floatingOps()) {
    SCOPED_TRACE(op.name);
    for (const Tensor& x : {tensor<int32_t>({0, 1}), tensor<int64_t>({0, 1}), tensor<bool>({false, true})}) {
      Tensor y = op.functional(x);
      EXPECT_EQ(y.scalar_type(), ScalarType::Float) << x.scalar_type();
      expectValues(y, {op.reference(0.0), op.reference(1.0)}, kUnaryFloatTolerance);
    }
  }
}

TEST(UnaryFloating, ClosedFormValues) {
  const double e = std::exp(1.0);
  expectValues(ops::exp(tensor<double>({0.0, 1.0, -1.0})), {1.0, e, 1.0 / e}, kUnaryDoubleTolerance);
  expectValues(ops::log(tensor<double>({1.0, e, 1.0 / (e * e)})), {0.0, 1.0, -2.0}, kUnaryDoubleTolerance);
  expectValues(ops::sqrt(tensor<int64_t>({0, 4, 9, 144})), {0.0, 2.0, 3.0, 12.0}, 0.0);
  expectValues(ops::rsqrt(tensor<float>({0.25f, 1.0f, 16.0f})), {2.0, 1.0, 0.25}, 0.0);
  const double pi = std::acos(-1.0);
  expectValues(ops::cos(tensor<double>({0.0, pi, pi / 3})), {1.0, -1.0, 0.5}, kUnaryDoubleTolerance);
  expectValues(ops::sin(tensor<double>({pi / 2, pi / 6})), {1.0, 0.5}, kUnaryDoubleTolerance);
  expectValues(ops::tanh(tensor<double>({0.0, std::log(2.0)})), {0.0, 0.6}, kUnaryDoubleTolerance);  // (4-1)/(4+1)
  expectValues(ops::acos(tensor<double>({1.0, 0.5, -1.0})), {0.0, pi / 3, pi}, kUnaryDoubleTolerance);
}

TEST(UnaryFloating, IdentitiesHoldAcrossOperators) {
  Tensor x = tensor<double>({-3.0, -0.7, 0.0, 0.3, 2.0, 10.0});
  Tensor sin2 = ops::mul(ops::sin(x), ops::sin(x));
  Tensor cos2 = ops::mul(ops::cos(x), ops::cos(x));
  expectValues(ops::add(sin2, cos2), std::vector<double>(6, 1.0), kUnaryDoubleTolerance);
  Tensor positive = tensor<double>({1e-3, 0.5, 2.0, 1e6});
  expectValues(ops::exp(ops::log(positive)), doublesOf(positive), kUnaryDoubleTolerance);
  expectValues(ops::mul(ops::sqrt(positive), ops::rsqrt(positive)), std::vector<double>(4, 1.0), kUnaryDoubleTolerance);
  // tanh(x) = (e^2x - 1) / (e^2x + 1), evaluated naively here.
  std::vector<double> tanh_expected;
  for (double v : doublesOf(x)) tanh_expected.push_back((std::exp(2 * v) - 1) / (std::exp(2 * v) + 1));
  expectValues(ops::tanh(x), tanh_expected, 1e-12);
}

TEST(UnaryFloating, InfinitiesAndDomainEdgesFollowIeee) {
  expectValues(ops::exp(tensor<double>({-kUnaryInf, kUnaryInf})), {0.0, kUnaryInf}, 0.0);
  expectValues(ops::log(tensor<double>({0.0, -1.0, kUnaryInf})), {-kUnaryInf, kUnaryNan, kUnaryInf}, 0.0);
  expectValues(ops::sqrt(tensor<float>({-1.0f, std::numeric_limits<float>::infinity()})), {kUnaryNan, kUnaryInf}, 0.0);
  expectValues(ops::rsqrt(tensor<double>({0.0, kUnaryInf, -4.0})), {kUnaryInf, 0.0, kUnaryNan}, 0.0);
  expectValues(ops::tanh(tensor<double>({-kUnaryInf, kUnaryInf})), {-1.0, 1.0}, 0.0);
  expectValues(ops::cos(tensor<double>({kUnaryInf})), {kUnaryNan}, 0.0);
  expectValues(ops::acos(tensor<double>({1.5})), {kUnaryNan}, 0.0);
}

TEST(UnaryFloating, NanPropagatesThroughEveryOperator) {
  for (const FloatingOp& op : floatingOps()) {
    expectValues(op.functional(tensor<float>({std::nanf("")})), {kUnaryNan}, 0.0);
    expectValues(op.functional(tensor<double>({kUnaryNan})), {kUnaryNan}, 0.0);
  }
}

// ---- Floating functions: out= and in-place -------------------------------------------------------

TEST(UnaryFloating, OutFormWritesIntoOutAndReturnsIt) {
  for (const FloatingOp& op : floatingOps()) {
    SCOPED_TRACE(op.name);
    Tensor out = empty({5}, ScalarType::Double);
    EXPECT_EQ(&op.out(out, tensor<double>(kInDomain)), &out);
    expectValues(out, mapped(kInDomain, op.reference), kUnaryDoubleTolerance);
  }
}

TEST(UnaryFloating, OutOfTheWrongShapeIsResized) {
  Tensor out = empty({7, 2});
  ops::exp_out(out, tensor<float>({0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, {2, 3}));
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(out.strides(), ElementsAre(3, 1));
  expectValues(out, std::vector<double>(6, 1.0), 0.0);
}

TEST(UnaryFloating, FloatResultIntoDoubleOutIsConvertedOnStore) {
  Tensor out = empty({1}, ScalarType::Double);
  ops::sqrt_out(out, tensor<int32_t>({2}));
  EXPECT_EQ(doublesOf(out)[0], static_cast<double>(std::sqrt(2.0f)));  // computed in Float, then widened
}

TEST(UnaryFloating, OutOfIntegralDtypeIsACastError) {
  Tensor out = empty({1}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::exp_out(out, tensor<int64_t>({1})); }),
            "aten::exp.out: result type Float can't be cast to the desired output type Long");
}

TEST(UnaryFloating, InPlaceFormsUpdateSelfAndReturnIt) {
  for (const FloatingOp& op : floatingOps()) {
    SCOPED_TRACE(op.name);
    Tensor x = tensor<double>(kInDomain);
    EXPECT_EQ(&op.in_place(x), &x);
    expectValues(x, mapped(kInDomain, op.reference), kUnaryDoubleTolerance);
  }
}

TEST(UnaryFloating, InPlaceOnIntegralTensorIsACastError) {
  Tensor x = tensor<int64_t>({1, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::exp_(x); }),
            "aten::exp_: result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(errorMessageOf([&] { ops::sin_(x); }),
            "aten::sin_: result type Float can't be cast to the desired output type Long");
  EXPECT_THAT(doublesOf(x), ElementsAre(1, 2));
}

TEST(UnaryFloating, FunctionalFormCostsExactlyTwoDispatches) {
  Tensor x = tensor<int32_t>({1, 2});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::exp(x);
    ops::abs(x);
  });
  EXPECT_EQ(calls, (std::map<std::string, int>{{"aten::exp", 1}, {"aten::abs", 1}, {"aten::empty.memory_format", 2}}));
}

// ---- Layouts ------------------------------------------------------------------------------------

TEST(UnaryLayout, TransposedSlicedAndExpandedInputsAreReadInLogicalOrder) {
  Tensor base = tensor<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});  // [[1, 4], [2, 5], [3, 6]]
  expectValues(ops::sqrt(transposed), mapped({1, 4, 2, 5, 3, 6}, [](double v) { return std::sqrt(v); }),
               kUnaryDoubleTolerance);
  Tensor every_other = viewOf(base, {3}, {2}, 1);    // [2, 4, 6]
  expectValues(ops::neg(every_other), {-2, -4, -6}, 0.0);
  Tensor expanded = viewOf(base, {2, 3}, {0, 1});    // [[1, 2, 3], [1, 2, 3]]
  expectValues(ops::log(expanded), mapped({1, 2, 3, 1, 2, 3}, [](double v) { return std::log(v); }),
               kUnaryDoubleTolerance);
}

TEST(UnaryLayout, TransposedOutIsWrittenThroughItsStrides) {
  Tensor storage = zeros({6}, ScalarType::Double);
  Tensor out = viewOf(storage, {3, 2}, {1, 3});
  ops::abs_out(out, tensor<double>({-1, -2, -3, -4, -5, -6}, {3, 2}));
  EXPECT_THAT(out.strides(), ElementsAre(1, 3));  // the right shape already: kept as it is
  expectValues(out, {1, 2, 3, 4, 5, 6}, 0.0);
  expectValues(storage, {1, 3, 5, 2, 4, 6}, 0.0);
}

TEST(UnaryLayout, InPlaceOnAViewChangesOnlyTheViewedElements) {
  Tensor base = tensor<float>({-1, -2, -3, -4, -5, -6});
  Tensor every_other = viewOf(base, {3}, {2});
  ops::abs_(every_other);
  expectValues(base, {1, -2, 3, -4, 5, -6}, 0.0);
}

TEST(UnaryLayout, WritingIntoAnExpandedTensorIsAnError) {
  Tensor base = tensor<double>({0.5});
  Tensor expanded = viewOf(base, {4}, {0});
  EXPECT_TRUE(raisesError([&] { ops::exp_(expanded); }, ErrorKind::Generic,
                          "aten::exp_: unsupported operation: more than one element of the written-to tensor 'self' "
                          "refers to a single memory location (dimension 0 is expanded)"));
  EXPECT_THAT(errorMessageOf([&] { ops::abs_out(expanded, ones({4})); }), ::testing::HasSubstr("tensor 'out'"));
}

TEST(UnaryLayout, ZeroDimAndEmptyTensorsKeepTheirShape) {
  Tensor scalar = full({}, 4.0, ScalarType::Double);
  Tensor root = ops::sqrt(scalar);
  EXPECT_EQ(root.dim(), 0);
  EXPECT_EQ(root.item<double>(), 2.0);
  Tensor none = ops::exp(empty({0, 3}, ScalarType::Int));
  EXPECT_THAT(none.sizes(), ElementsAre(0, 3));
  EXPECT_EQ(none.scalar_type(), ScalarType::Float);
  Tensor out = empty({5});
  ops::neg_out(out, empty({2, 0}));
  EXPECT_THAT(out.sizes(), ElementsAre(2, 0));
}

// ---- abs and neg ----------------------------------------------------------------------------------

TEST(UnaryAbs, KeepsEveryDtype) {
  EXPECT_THAT(doublesOf(ops::abs(tensor<int32_t>({-3, 0, 7}))), ElementsAre(3, 0, 7));
  EXPECT_THAT(doublesOf(ops::abs(tensor<int64_t>({-(int64_t{1} << 40), 5}))), ElementsAre(int64_t{1} << 40, 5));
  EXPECT_THAT(doublesOf(ops::abs(tensor<float>({-1.5f, 2.0f}))), ElementsAre(1.5, 2.0));
  EXPECT_THAT(doublesOf(ops::abs(tensor<double>({-0.25, -kUnaryInf}))), ElementsAre(0.25, kUnaryInf));
  for (ScalarType dtype : {ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    EXPECT_EQ(ops::abs(zeros({1}, dtype)).scalar_type(), dtype);
  }
}

TEST(UnaryAbs, OfBoolIsTheIdentity) {
  Tensor y = ops::abs(tensor<bool>({true, false}));
  EXPECT_EQ(y.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(doublesOf(y), ElementsAre(1, 0));
}

TEST(UnaryAbs, MostNegativeIntegerWrapsAroundLikeTwosComplement) {
  EXPECT_THAT(doublesOf(ops::abs(tensor<int32_t>({std::numeric_limits<int32_t>::min()}))),
              ElementsAre(std::numeric_limits<int32_t>::min()));
}

TEST(UnaryAbs, ClearsTheSignOfNegativeZeroAndKeepsNan) {
  Tensor y = ops::abs(tensor<double>({-0.0, -kUnaryNan}));
  EXPECT_FALSE(std::signbit(doublesOf(y)[0]));
  EXPECT_TRUE(std::isnan(doublesOf(y)[1]));
}

TEST(UnaryAbs, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({2}, ScalarType::Long);
  EXPECT_EQ(&ops::abs_out(out, tensor<int64_t>({-4, 4})), &out);
  EXPECT_THAT(doublesOf(out), ElementsAre(4, 4));
  Tensor x = tensor<int32_t>({-9, 9});
  EXPECT_EQ(&ops::abs_(x), &x);
  EXPECT_THAT(doublesOf(x), ElementsAre(9, 9));
}

TEST(UnaryNeg, KeepsEveryNumericDtype) {
  EXPECT_THAT(doublesOf(ops::neg(tensor<int32_t>({-3, 0, 7}))), ElementsAre(3, 0, -7));
  EXPECT_THAT(doublesOf(ops::neg(tensor<int64_t>({int64_t{1} << 40}))), ElementsAre(-(int64_t{1} << 40)));
  const float float_inf = std::numeric_limits<float>::infinity();
  EXPECT_THAT(doublesOf(ops::neg(tensor<float>({1.5f, -float_inf}))), ElementsAre(-1.5, kUnaryInf));
  EXPECT_EQ(ops::neg(tensor<int32_t>({1})).scalar_type(), ScalarType::Int);
  EXPECT_EQ(ops::neg(tensor<double>({1})).scalar_type(), ScalarType::Double);
  EXPECT_TRUE(std::signbit(doublesOf(ops::neg(tensor<double>({0.0})))[0]));
}

TEST(UnaryNeg, MostNegativeIntegerWrapsAroundLikeTwosComplement) {
  EXPECT_THAT(doublesOf(ops::neg(tensor<int64_t>({std::numeric_limits<int64_t>::min()}))),
              ElementsAre(static_cast<double>(std::numeric_limits<int64_t>::min())));
}

TEST(UnaryNeg, OfBoolIsPyTorchsErrorInEveryForm) {
  const std::string advice =
      "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
      "`~` or `logical_not()` operator instead.";
  Tensor mask = tensor<bool>({true});
  Tensor out = empty({1}, ScalarType::Bool);
  EXPECT_EQ(errorMessageOf([&] { ops::neg(mask); }), "aten::neg: " + advice);
  EXPECT_EQ(errorMessageOf([&] { ops::neg_out(out, mask); }), "aten::neg.out: " + advice);
  EXPECT_EQ(errorMessageOf([&] { ops::neg_(mask); }), "aten::neg_: " + advice);
}

TEST(UnaryNeg, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({0}, ScalarType::Double);
  EXPECT_EQ(&ops::neg_out(out, tensor<double>({2.5, -1})), &out);
  EXPECT_THAT(doublesOf(out), ElementsAre(-2.5, 1));
  Tensor x = tensor<int64_t>({3});
  EXPECT_EQ(&ops::neg_(x), &x);
  EXPECT_THAT(doublesOf(x), ElementsAre(-3));
}

TEST(UnaryErrors, UndefinedOutNamesOperatorAndArgument) {
  Tensor out;
  EXPECT_EQ(errorMessageOf([&] { ops::abs_out(out, ones({1})); }),
            "aten::abs.out: argument 'out' is an undefined tensor");
}

}  // namespace
}  // namespace sy
