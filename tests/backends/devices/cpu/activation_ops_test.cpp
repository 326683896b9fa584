// The activations sigmoid, relu, gelu, hardtanh and clamp (Scalar and Tensor bounds) in their functional,
// out= and in-place forms through the dispatcher.
//
// References are computed here in double from the defining formulas (1 / (1 + e^-x), the normal
// CDF via erf, PyTorch's tanh formula, min/max by hand) or taken from tables (Phi(1), Phi(-10)).
// Tolerances: Float results within 1e-6 relative (float rounding of a few operations), Double
// within 1e-12 relative (the kernels rearrange the formulas: erfc for 1 + erf, sigmoid for tanh).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::doublesOf;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::expectValues;
using sy::testing::mapped;
using sy::testing::viewOf;

constexpr double kActivationInf = std::numeric_limits<double>::infinity();
constexpr double kActivationNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kActivationFloatTolerance = 1e-6;
constexpr double kActivationDoubleTolerance = 1e-12;

// Float-exact sample points spanning both tails and zero.
const std::vector<double> kSamples = {-8.0, -3.0, -1.0, -0.25, 0.0, 0.5, 1.0, 2.5, 8.0};
Tensor floatSamples() { return tensor<float>({-8.0f, -3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 2.5f, 8.0f}); }

double sigmoidReference(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double geluReference(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double geluTanhReference(double x) {
  const double k = std::sqrt(2.0 / std::acos(-1.0));
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

// ---- sigmoid -----------------------------------------------------------------------------------------

TEST(ActivationSigmoid, MatchesTheLogisticFunction) {
  expectValues(ops::sigmoid(floatSamples()), mapped(kSamples, sigmoidReference), kActivationFloatTolerance);
  Tensor y = ops::sigmoid(tensor<double>(kSamples));
  EXPECT_EQ(y.scalar_type(), ScalarType::Double);
  expectValues(y, mapped(kSamples, sigmoidReference), kActivationDoubleTolerance);
  expectValues(ops::sigmoid(tensor<double>({0.0})), {0.5}, 0.0);
}

TEST(ActivationSigmoid, SaturatesAtTheExtremesWithoutNan) {
  expectValues(ops::sigmoid(tensor<float>({-1000.0f, 1000.0f, -std::numeric_limits<float>::infinity()})),
               {0.0, 1.0, 0.0}, 0.0);
  expectValues(ops::sigmoid(tensor<double>({-kActivationInf, kActivationInf, kActivationNan})), {0.0, 1.0, kActivationNan}, 0.0);
}

TEST(ActivationSigmoid, IntegralAndBoolInputsGiveFloat) {
  for (const Tensor& x : {tensor<int32_t>({0, 2}), tensor<int64_t>({0, 2}), tensor<bool>({false, true})}) {
    Tensor y = ops::sigmoid(x);
    EXPECT_EQ(y.scalar_type(), ScalarType::Float);
    expectValues(y, {0.5, sigmoidReference(doublesOf(x)[1])}, kActivationFloatTolerance);
  }
}

TEST(ActivationSigmoid, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({3, 3}, ScalarType::Double);
  EXPECT_EQ(&ops::sigmoid_out(out, tensor<double>({-1, 0, 1})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  expectValues(out, {sigmoidReference(-1), 0.5, sigmoidReference(1)}, kActivationDoubleTolerance);
  Tensor x = tensor<float>({0.0f});
  EXPECT_EQ(&ops::sigmoid_(x), &x);
  expectValues(x, {0.5}, 0.0);
  Tensor integral = tensor<int32_t>({1});
  EXPECT_EQ(errorMessageOf([&] { ops::sigmoid_(integral); }),
            "aten::sigmoid_: result type Float can't be cast to the desired output type Int");
}

// ---- relu ------------------------------------------------------------------------------------------

TEST(ActivationRelu, ZeroesNegativesAndKeepsTheDtype) {
  for (ScalarType dtype : {ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    Tensor x = empty({4}, dtype);
    x.copy_(tensor<int64_t>({-2, 0, 3, -1}));
    Tensor y = ops::relu(x);
    EXPECT_EQ(y.scalar_type(), dtype);
    EXPECT_THAT(doublesOf(y), ElementsAre(0, 0, 3, 0)) << dtype;
  }
}

TEST(ActivationRelu, NanAndInfinitiesPassThroughOrClampToZero) {
  expectValues(ops::relu(tensor<double>({kActivationNan, kActivationInf, -kActivationInf})), {kActivationNan, kActivationInf, 0.0}, 0.0);
}

TEST(ActivationRelu, BoolInputIsPyTorchsError) {
  Tensor mask = tensor<bool>({true});
  EXPECT_EQ(errorMessageOf([&] { ops::relu(mask); }), "aten::relu: Boolean inputs not supported for relu");
  EXPECT_EQ(errorMessageOf([&] { ops::relu_(mask); }), "aten::relu_: Boolean inputs not supported for relu");
}

TEST(ActivationRelu, OutAndInPlaceFormsWorkOnViews) {
  Tensor base = tensor<int64_t>({-1, 2, -3, 4, -5, 6}, {2, 3});
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});
  Tensor out = empty({1}, ScalarType::Long);
  EXPECT_EQ(&ops::relu_out(out, transposed), &out);
  EXPECT_THAT(doublesOf(out), ElementsAre(0, 4, 2, 0, 0, 6));
  EXPECT_EQ(&ops::relu_(transposed), &transposed);
  EXPECT_THAT(doublesOf(base), ElementsAre(0, 2, 0, 4, 0, 6));
}

// ---- gelu ------------------------------------------------------------------------------------------

TEST(ActivationGelu, ExactFormIsXTimesTheNormalCdf) {
  expectValues(ops::gelu(floatSamples()), mapped(kSamples, geluReference), kActivationFloatTolerance);
  expectValues(ops::gelu(tensor<double>(kSamples), "none"), mapped(kSamples, geluReference), kActivationDoubleTolerance);
  // Phi(1) and Phi(-1) from tables of the normal distribution.
  expectValues(ops::gelu(tensor<double>({1.0, -1.0, 0.0})), {0.8413447460685429, -0.15865525393145707, 0.0}, 1e-15);
}

TEST(ActivationGelu, ExactFormKeepsRelativePrecisionFarInTheNegativeTail) {
  // gelu(-10) = -10 * Phi(-10) = -7.6198530241605e-23; 1 + erf(x) would cancel to 0 here.
  const double y = doublesOf(ops::gelu(tensor<double>({-10.0})))[0];
  EXPECT_NEAR(y / -7.6198530241605e-23, 1.0, 1e-12);
}

TEST(ActivationGelu, TanhFormMatchesPyTorchsFormula) {
  expectValues(ops::gelu(floatSamples(), "tanh"), mapped(kSamples, geluTanhReference), kActivationFloatTolerance);
  expectValues(ops::gelu(tensor<double>(kSamples), "tanh"), mapped(kSamples, geluTanhReference), kActivationDoubleTolerance);
}

TEST(ActivationGelu, InfinitiesGiveTheirLimitsAndNanPropagates) {
  for (const char* approximate : {"none", "tanh"}) {
    SCOPED_TRACE(approximate);
    expectValues(ops::gelu(tensor<double>({kActivationInf, -kActivationInf, kActivationNan}), approximate), {kActivationInf, 0.0, kActivationNan}, 0.0);
    expectValues(ops::gelu(tensor<float>({std::numeric_limits<float>::infinity()}), approximate), {kActivationInf}, 0.0);
  }
}

TEST(ActivationGelu, NonFloatingInputIsAnErrorNamingTheDtype) {
  EXPECT_TRUE(raisesError([] { ops::gelu(tensor<int64_t>({1})); }, ErrorKind::NotImplemented,
                          "aten::gelu: argument 'self' has dtype Long, which this kernel does not support (supported: "
                          "Half, Float, Double, BFloat16)"));
}

TEST(ActivationGelu, UnknownApproximationIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::gelu(ones({1}), "fast"); }),
            "aten::gelu: approximate argument must be either none or tanh, but got 'fast'");
}

TEST(ActivationGelu, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({0});
  EXPECT_EQ(&ops::gelu_out(out, tensor<float>({1.0f}), "tanh"), &out);
  expectValues(out, {geluTanhReference(1.0)}, kActivationFloatTolerance);
  Tensor x = tensor<double>({-1.0, 2.0});
  EXPECT_EQ(&ops::gelu_(x), &x);
  expectValues(x, {geluReference(-1.0), geluReference(2.0)}, kActivationDoubleTolerance);
}

TEST(ActivationGelu, BoxedCallTakesTheSchemaDefault) {
  Stack stack{tensor<double>({1.0}), std::string("none")};
  Dispatcher::singleton().findSchemaOrThrow("aten::gelu", "").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  expectValues(stack[0].toTensor(), {geluReference(1.0)}, kActivationDoubleTolerance);
}

// ---- hardtanh ----------------------------------------------------------------------------------

TEST(ActivationHardtanh, ClampsToMinusOneAndOneByDefaultInEveryDtype) {
  for (ScalarType dtype : {ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    Tensor x = empty({5}, dtype);
    x.copy_(tensor<int64_t>({-5, -1, 0, 1, 9}));
    Tensor y = ops::hardtanh(x);
    EXPECT_EQ(y.scalar_type(), dtype);
    EXPECT_THAT(doublesOf(y), ElementsAre(-1, -1, 0, 1, 1)) << dtype;
  }
  expectValues(ops::hardtanh(tensor<float>({-0.75f, 0.25f, 2.0f})), {-0.75, 0.25, 1.0}, 0.0);
}

TEST(ActivationHardtanh, Relu6AndNanAndInfinities) {
  expectValues(ops::hardtanh(tensor<float>({-3.0f, 2.5f, 7.0f}), 0, 6), {0.0, 2.5, 6.0}, 0.0);
  expectValues(ops::hardtanh(tensor<double>({kActivationNan, -kActivationInf, kActivationInf}), -2.0, 2.0),
               {kActivationNan, -2.0, 2.0}, 0.0);
}

TEST(ActivationHardtanh, BoundsNeverPromoteAndIntegralSelfTruncatesThem) {
  Tensor y = ops::hardtanh(tensor<int32_t>({-5, -1, 0, 2, 3}), -1.5, 2.5);  // clamp would give Float
  EXPECT_EQ(y.scalar_type(), ScalarType::Int);
  EXPECT_THAT(doublesOf(y), ElementsAre(-1, -1, 0, 2, 2));
  EXPECT_EQ(ops::hardtanh(tensor<float>({1.0f}), 0.0, 2.0).scalar_type(), ScalarType::Float);  // not Double
}

TEST(ActivationHardtanh, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({3, 3}, ScalarType::Double);
  EXPECT_EQ(&ops::hardtanh_out(out, tensor<float>({-3.0f, 0.5f, 3.0f})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  EXPECT_THAT(doublesOf(out), ElementsAre(-1, 0.5, 1));
  Tensor base = tensor<float>({-3, 0, 3, 6}, {2, 2});
  Tensor transposed = viewOf(base, {2, 2}, {1, 2});
  EXPECT_EQ(&ops::hardtanh_(transposed, 0, 4), &transposed);
  EXPECT_THAT(doublesOf(base), ElementsAre(0, 0, 3, 4));
}

TEST(ActivationHardtanh, BadInputsAreErrorsThatLeaveTheOutputAlone) {
  EXPECT_EQ(errorMessageOf([] { ops::hardtanh(tensor<bool>({true})); }),
            "aten::hardtanh: Bool inputs not supported for hardtanh");
  EXPECT_EQ(errorMessageOf([] { ops::hardtanh(tensor<int64_t>({1}), kActivationNan, 1); }),
            "aten::hardtanh: 'min_val' nan has no integer value for the Long self");
  EXPECT_EQ(errorMessageOf([] { ops::hardtanh(tensor<int32_t>({1}), -1, int64_t{1} << 40); }),
            "aten::hardtanh: value 1099511627776 of 'max_val' cannot be converted to the result type Int without "
            "overflow");
  Tensor ints = tensor<int32_t>({-3, 3});
  EXPECT_EQ(errorMessageOf([&] { ops::hardtanh_out(ints, tensor<float>({0.5f, 2.0f})); }),
            "aten::hardtanh.out: result type Float can't be cast to the desired output type Int");
  EXPECT_THAT(doublesOf(ints), ElementsAre(-3, 3));
}

// ---- clamp with Scalar bounds -------------------------------------------------------------------

TEST(ActivationClamp, BothBoundsLimitEveryElementInEveryDtype) {
  for (ScalarType dtype : {ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    Tensor x = empty({5}, dtype);
    x.copy_(tensor<int64_t>({-5, -1, 0, 2, 9}));
    Tensor y = ops::clamp(x, -1, 3);
    EXPECT_EQ(y.scalar_type(), dtype);
    EXPECT_THAT(doublesOf(y), ElementsAre(-1, -1, 0, 2, 3)) << dtype;
  }
}

TEST(ActivationClamp, OneBoundLeavesTheOtherSideOpen) {
  EXPECT_THAT(doublesOf(ops::clamp(tensor<double>({-5, 0, 5}), 1.5)), ElementsAre(1.5, 1.5, 5));
  EXPECT_THAT(doublesOf(ops::clamp(tensor<double>({-5, 0, 5}), std::nullopt, 1.5)), ElementsAre(-5, 0, 1.5));
}

TEST(ActivationClamp, MinAboveMaxGivesMaxEverywhere) {
  EXPECT_THAT(doublesOf(ops::clamp(tensor<int64_t>({-9, 0, 9}), 4, 2)), ElementsAre(2, 2, 2));
}

TEST(ActivationClamp, NanInSelfOrInABoundGivesNan) {
  expectValues(ops::clamp(tensor<double>({kActivationNan, -kActivationInf, kActivationInf}), -1.0, 1.0), {kActivationNan, -1.0, 1.0}, 0.0);
  expectValues(ops::clamp(tensor<float>({1.0f, 2.0f}), kActivationNan, 1.0), {kActivationNan, kActivationNan}, 0.0);
  expectValues(ops::clamp(tensor<float>({1.0f}), std::nullopt, kActivationNan), {kActivationNan}, 0.0);
}

TEST(ActivationClamp, ResultTypePromotesLikeAPythonNumber) {
  EXPECT_EQ(ops::clamp(tensor<int32_t>({1}), 2).scalar_type(), ScalarType::Int);      // int bound: no widening
  EXPECT_EQ(ops::clamp(tensor<int32_t>({1}), 2.5).scalar_type(), ScalarType::Float);  // float bound: Float
  EXPECT_EQ(ops::clamp(tensor<float>({1}), 2.5).scalar_type(), ScalarType::Float);    // not Double
  EXPECT_EQ(ops::clamp(tensor<bool>({true}), 0).scalar_type(), ScalarType::Long);
  Tensor bools = ops::clamp(tensor<bool>({false, true}), true);
  EXPECT_EQ(bools.scalar_type(), ScalarType::Bool);
  EXPECT_THAT(doublesOf(bools), ElementsAre(1, 1));
  EXPECT_THAT(doublesOf(ops::clamp(tensor<int64_t>({0, 5}), 0.5, 2)), ElementsAre(0.5, 2.0));
}

TEST(ActivationClamp, NoBoundIsPyTorchsErrorInEveryForm) {
  const std::string message = "torch.clamp: At least one of 'min' or 'max' must not be None";
  Tensor x = ones({1});
  Tensor out = empty({1});
  EXPECT_EQ(errorMessageOf([&] { ops::clamp(x, std::optional<Scalar>()); }), message);
  EXPECT_EQ(errorMessageOf([&] { ops::clamp_out(out, x, std::optional<Scalar>()); }), message);
  EXPECT_EQ(errorMessageOf([&] { ops::clamp_(x, std::optional<Scalar>()); }), message);
  EXPECT_EQ(errorMessageOf([&] { ops::clamp(x); }), message);
  EXPECT_EQ(errorMessageOf([&] { ops::clamp_(x, std::optional<Tensor>(Tensor())); }), message);
}

TEST(ActivationClamp, IntegralBoundBeyondTheResultDtypeIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::clamp(tensor<int32_t>({1}), int64_t{1} << 40); }),
            "aten::clamp: value 1099511627776 of 'min' cannot be converted to the result type Int without overflow");
}

// PyTorch converts a bound to the result dtype with an overflow check, as here (an infinite bound
// converts to any floating dtype).
TEST(ActivationClamp, AFloatingBoundBeyondTheResultDtypesRangeIsAnError) {
  Tensor x = tensor<float>({1, 5});
  EXPECT_EQ(errorMessageOf([&] { ops::clamp(x, 1e300); }),
            "aten::clamp: value 1e+300 of 'min' cannot be converted to the result type Float without overflow");
  EXPECT_EQ(errorMessageOf([&] { ops::hardtanh(x, -1e300, 1.0); }),
            "aten::hardtanh: value -1e+300 of 'min_val' cannot be converted to the result type Float without overflow");
  EXPECT_THAT(doublesOf(ops::clamp(x, -kActivationInf, 2.0)), ElementsAre(1, 2));
  EXPECT_THAT(doublesOf(x), ElementsAre(1, 5));
}

TEST(ActivationClamp, InPlacePromotionIsACastError) {
  Tensor x = tensor<int32_t>({1, 5});
  EXPECT_EQ(errorMessageOf([&] { ops::clamp_(x, 0.5); }),
            "aten::clamp_: result type Float can't be cast to the desired output type Int");
  EXPECT_THAT(doublesOf(x), ElementsAre(1, 5));
}

TEST(ActivationClamp, OutAndInPlaceFormsReturnTheCallersTensor) {
  Tensor out = empty({4, 4}, ScalarType::Double);
  EXPECT_EQ(&ops::clamp_out(out, tensor<int32_t>({-3, 3}), -1, 1), &out);  // Int result, widened on store
  EXPECT_THAT(out.sizes(), ElementsAre(2));
  EXPECT_THAT(doublesOf(out), ElementsAre(-1, 1));
  Tensor base = tensor<float>({-3, 0, 3, 6}, {2, 2});
  Tensor transposed = viewOf(base, {2, 2}, {1, 2});
  EXPECT_EQ(&ops::clamp_(transposed, 0, 4), &transposed);
  EXPECT_THAT(doublesOf(base), ElementsAre(0, 0, 3, 4));
}

TEST(ActivationClamp, ZeroDimAndEmptyInputsKeepTheirShape) {
  Tensor y = ops::clamp(full({}, 7, ScalarType::Long), std::nullopt, 3);
  EXPECT_EQ(y.dim(), 0);
  EXPECT_EQ(y.item<int64_t>(), 3);
  EXPECT_THAT(ops::clamp(empty({0, 2}), 0).sizes(), ElementsAre(0, 2));
}

TEST(ActivationClamp, BoxedCallTakesNoneForAnAbsentBound) {
  Stack stack{tensor<int64_t>({-4, 4}), IValue(), int64_t{1}};
  Dispatcher::singleton().findSchemaOrThrow("aten::clamp", "").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_THAT(doublesOf(stack[0].toTensor()), ElementsAre(-4, 1));
}

// ---- clamp with Tensor bounds -------------------------------------------------------------------

TEST(ActivationClampTensor, BoundsBroadcastAgainstSelfElementByElement) {
  Tensor x = tensor<double>({-5, 0, 5, -5, 0, 5}, {2, 3});
  Tensor lo = tensor<double>({-1, 1, 2});   // per column
  Tensor hi = tensor<double>({0, 4}, {2, 1});  // per row
  Tensor y = ops::clamp(x, lo, hi);
  // Naive reference: min(max(x[i][j], lo[j]), hi[i]).
  std::vector<double> expected;
  const std::vector<double> xs = doublesOf(x), los = doublesOf(lo), his = doublesOf(hi);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) expected.push_back(std::min(std::max(xs[i * 3 + j], los[j]), his[i]));
  }
  expectValues(y, expected, 0.0);
}

TEST(ActivationClampTensor, ResultTakesTheBroadcastShape) {
  Tensor y = ops::clamp(tensor<int64_t>({1, 5, 9}), tensor<int64_t>({2, 2, 2, 6, 6, 6}, {2, 3}));
  EXPECT_THAT(y.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(doublesOf(y), ElementsAre(2, 5, 9, 6, 6, 9));
  Tensor out = empty({1}, ScalarType::Long);
  ops::clamp_out(out, tensor<int64_t>({1, 5, 9}), std::nullopt, tensor<int64_t>({4}));
  EXPECT_THAT(doublesOf(out), ElementsAre(1, 4, 4));
}

TEST(ActivationClampTensor, InPlaceNeedsTheBroadcastShapeToBeSelfs) {
  Tensor x = zeros({3});
  EXPECT_EQ(errorMessageOf([&] { ops::clamp_(x, zeros({2, 3})); }),
            "aten::clamp_.Tensor: output with shape (3,) doesn't match the broadcast shape (2, 3)");
  EXPECT_EQ(&ops::clamp_(x, full({}, 1.0)), &x);
  EXPECT_THAT(doublesOf(x), ElementsAre(1, 1, 1));
}

TEST(ActivationClampTensor, ResultTypePromotesAcrossSelfAndBounds) {
  Tensor ints = tensor<int32_t>({1, 2});
  EXPECT_EQ(ops::clamp(ints, tensor<double>({0, 0})).scalar_type(), ScalarType::Double);
  EXPECT_EQ(ops::clamp(ints, full({}, 0.5, ScalarType::Double)).scalar_type(), ScalarType::Double);
  EXPECT_EQ(ops::clamp(ints, full({}, 0, ScalarType::Long)).scalar_type(), ScalarType::Int);
  EXPECT_EQ(ops::clamp(tensor<float>({1}), tensor<double>({0})).scalar_type(), ScalarType::Double);
}

TEST(ActivationClampTensor, NanInEitherBoundGivesNanForThatElement) {
  Tensor y = ops::clamp(tensor<double>({1, 2, 3}), tensor<double>({kActivationNan, 0, 0}), tensor<double>({5, kActivationNan, 5}));
  expectValues(y, {kActivationNan, kActivationNan, 3}, 0.0);
  expectValues(ops::clamp(tensor<double>({kActivationNan}), tensor<double>({0})), {kActivationNan}, 0.0);
}

TEST(ActivationClampTensor, BoundThatAliasesTheOutputIsReadBeforeItIsOverwritten) {
  // self = x[1:4], min = x[0:3]: each min element must be x's original value, not one just
  // written (reading as it writes would carry the 5 all the way along).
  Tensor x = tensor<double>({5, 0, 0, 0});
  Tensor self = viewOf(x, {3}, {1}, 1);
  ops::clamp_(self, viewOf(x, {3}, {1}, 0));
  EXPECT_THAT(doublesOf(x), ElementsAre(5, 5, 0, 0));
}

}  // namespace
}  // namespace sy
