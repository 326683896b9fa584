// The unary operators added for ExecuTorch's portable library, through the dispatcher: the
// floating functions (asin ... reciprocal), rounding and sign, the predicates isnan and isinf, and
// logical_not and bitwise_not, in their functional, out= and in-place forms. (The PyTorch oracle,
// conformance/oracle/, compares every dtype, shape and layout with PyTorch itself.)
//
// References: values worked out by hand or closed forms (asin(1) = pi/2, log2(8) = 3, expm1(0) = 0);
// round half to even (2.5 -> 2, -0.5 -> -0, 3.5 -> 4), as IEEE 754's default rounding.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::kInf;
using sy::testing::kNaN;
using sy::testing::valuesOf;

TEST(UnaryFloatingFunctions, IntegralInputsComputeInFloatAndFloatingOnesKeepTheirDtype) {
  const Tensor half_pi = ops::asin(tensor<int32_t>({1}));
  EXPECT_EQ(half_pi.scalar_type(), ScalarType::Float);
  EXPECT_FLOAT_EQ(valuesOf<float>(half_pi)[0], static_cast<float>(M_PI / 2));
  EXPECT_THAT(valuesOf<double>(ops::log2(tensor<double>({8, 0.5}))), ElementsAre(3.0, -1.0));
  EXPECT_THAT(valuesOf<float>(ops::reciprocal(tensor<int64_t>({4, 0}))), ElementsAre(0.25f, kInf));
  EXPECT_THAT(valuesOf<double>(ops::expm1(tensor<double>({0}))), ElementsAre(0.0));
  Tensor n = tensor<int32_t>({1});
  EXPECT_THAT(errorMessageOf([&] { ops::tan_(n); }),
              HasSubstr("result type Float can't be cast to the desired output type Int"));
}

TEST(UnaryRounding, RoundsHalvesToEvenAndCopiesIntegers) {
  EXPECT_THAT(valuesOf<float>(ops::round(tensor<float>({2.5f, 3.5f, -2.5f, 0.4f}))), ElementsAre(2.0f, 4.0f, -2.0f, 0.0f));
  EXPECT_THAT(valuesOf<double>(ops::floor(tensor<double>({-1.5, 1.5}))), ElementsAre(-2.0, 1.0));
  EXPECT_THAT(valuesOf<double>(ops::ceil(tensor<double>({-1.5, 1.5}))), ElementsAre(-1.0, 2.0));
  EXPECT_THAT(valuesOf<double>(ops::trunc(tensor<double>({-1.5, 1.5}))), ElementsAre(-1.0, 1.0));
  const Tensor ints = ops::floor(tensor<int64_t>({-3, 7}));
  EXPECT_EQ(ints.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(ints), ElementsAre(-3, 7));
  EXPECT_THAT(errorMessageOf([] { ops::ceil(tensor<bool>({true})); }),
              HasSubstr("aten::ceil: argument 'self' has dtype Bool"));
}

TEST(UnaryRounding, SignIsMinusOneZeroOrOneInSelfsDtypeAndZeroForNan) {
  EXPECT_THAT(valuesOf<float>(ops::sign(tensor<float>({-2.5f, 0.0f, 3.0f, kNaN}))), ElementsAre(-1.0f, 0.0f, 1.0f, 0.0f));
  EXPECT_THAT(valuesOf<int32_t>(ops::sign(tensor<int32_t>({-7, 0, 9}))), ElementsAre(-1, 0, 1));
  EXPECT_THAT(valuesOf<bool>(ops::sign(tensor<bool>({true, false}))), ElementsAre(true, false));
}

TEST(UnaryPredicates, IsnanAndIsinfReadSelfInItsOwnDtype) {
  const Tensor x = tensor<float>({kNaN, kInf, -kInf, 1});
  EXPECT_THAT(valuesOf<bool>(ops::isnan(x)), ElementsAre(true, false, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::isinf(x)), ElementsAre(false, true, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::isnan(tensor<int32_t>({0, 1}))), ElementsAre(false, false));
  Tensor out = sy::empty({0}, ScalarType::Float);
  ops::isinf_out(out, x);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0.0f, 1.0f, 1.0f, 0.0f));
}

TEST(UnaryLogical, LogicalNotIsBoolButWritesOutAndSelfInTheirOwnDtype) {
  EXPECT_THAT(valuesOf<bool>(ops::logical_not(tensor<float>({0, kNaN, -0.0f}))), ElementsAre(true, false, true));
  Tensor x = tensor<double>({0, 2});
  ops::logical_not_(x);
  EXPECT_EQ(x.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(x), ElementsAre(1.0, 0.0));
}

TEST(UnaryLogical, BitwiseNotComplementsIntegersNegatesBoolsAndRefusesFloats) {
  EXPECT_THAT(valuesOf<int32_t>(ops::bitwise_not(tensor<int32_t>({0, -1, 5}))), ElementsAre(-1, 0, -6));
  EXPECT_THAT(valuesOf<bool>(ops::bitwise_not(tensor<bool>({true, false}))), ElementsAre(false, true));
  EXPECT_THAT(errorMessageOf([] { ops::bitwise_not(tensor<float>({1})); }),
              HasSubstr("aten::bitwise_not: argument 'self' has dtype Float"));
}

TEST(UnaryActivations, LeakyReluAndEluScaleTheNegativeSide) {
  EXPECT_THAT(valuesOf<double>(ops::leaky_relu(tensor<double>({-2, 3}), 0.5)), ElementsAre(-1.0, 3.0));
  const std::vector<double> e = valuesOf<double>(ops::elu(tensor<double>({-1, 2}), 2, 3, 0.5));
  EXPECT_DOUBLE_EQ(e[0], 2 * 3 * std::expm1(-0.5));
  EXPECT_DOUBLE_EQ(e[1], 6.0);
  EXPECT_THAT(errorMessageOf([] { ops::leaky_relu(tensor<int32_t>({1})); }),
              HasSubstr("aten::leaky_relu: argument 'self' has dtype Int"));
}

}  // namespace
}  // namespace sy
