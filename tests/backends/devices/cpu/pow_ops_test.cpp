// pow through the dispatcher: a Tensor or Scalar exponent, a Scalar base, the out= and in-place
// forms, PyTorch's result types, its integral rules and the exponents its kernel specialises.
// (The PyTorch oracle, conformance/oracle/, compares every dtype, shape and layout with PyTorch.)
//
// References: small integer powers worked out by hand; 2^31 wraps to INT_MIN in 32-bit two's
// complement; sqrt(-0.0) = -0.0 and sqrt(-inf) = NaN by IEEE 754.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::kInf;
using sy::testing::kNaN;
using sy::testing::valuesOf;

TEST(Pow, AScalarExponentKeepsAnIntegralTensorIntegralUnlessItIsFloating) {
  const Tensor squares = ops::pow(tensor<int32_t>({2, -3, 7}), 2);
  EXPECT_EQ(squares.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(squares), ElementsAre(4, 9, 49));
  const Tensor roots = ops::pow(tensor<int32_t>({4, 9}), 0.5);
  EXPECT_EQ(roots.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(roots), ElementsAre(2.0f, 3.0f));
  EXPECT_THAT(valuesOf<double>(ops::pow(tensor<double>({2, 10}), 3)), ElementsAre(8.0, 1000.0));
}

TEST(Pow, IntegralPowersAreExactAndWrapAroundOnOverflow) {
  EXPECT_THAT(valuesOf<int32_t>(ops::pow(tensor<int32_t>({2, 2, -2}), 31)),
              ElementsAre(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::min()));
  EXPECT_THAT(valuesOf<int64_t>(ops::pow(tensor<int64_t>({3}), 39)), ElementsAre(int64_t{4052555153018976267}));
}

TEST(Pow, ANegativeIntegerExponentOfAnIntegralTensorIsAnError) {
  EXPECT_EQ(errorMessageOf([] { ops::pow(tensor<int64_t>({2}), -1); }),
            "aten::pow.Tensor_Scalar: Integers to negative integer powers are not allowed.");
  // A negative exponent tensor is not refused: it gives 0, or ±1 for a base of ±1.
  EXPECT_THAT(valuesOf<int32_t>(ops::pow(tensor<int32_t>({2, 1, -1, -1}), tensor<int32_t>({-1, -5, -3, -2}))),
              ElementsAre(0, 1, -1, 1));
}

// PyTorch 1.13 refuses a Bool result even for the exponents it answers without computing (found
// by the PyTorch oracle); a Bool tensor with an integral exponent computes in Long.
TEST(Pow, ExponentZeroGivesOnesEvenForNanButABoolResultIsRefused) {
  const Tensor mask = tensor<bool>({true, false});
  EXPECT_THAT(valuesOf<float>(ops::pow(tensor<float>({kNaN, 3}), 0)), ElementsAre(1.0f, 1.0f));
  EXPECT_THAT(valuesOf<int64_t>(ops::pow(mask, 1)), ElementsAre(1, 0));
  EXPECT_THAT(errorMessageOf([&] { ops::pow(mask, true); }),
              ::testing::HasSubstr("aten::pow.Tensor_Scalar: argument 'self' has dtype Bool"));
  EXPECT_THAT(errorMessageOf([&] { ops::pow(mask, tensor<bool>({true, true})); }),
              ::testing::HasSubstr("aten::pow.Tensor_Tensor: argument 'self' has dtype Bool"));
}

TEST(Pow, TheSquareRootExponentIsSqrtOnSignedZeroAndInfinity) {
  const std::vector<float> r = valuesOf<float>(ops::pow(tensor<float>({-0.0f, -kInf, 9}), 0.5));
  EXPECT_TRUE(r[0] == 0.0f && std::signbit(r[0]));
  EXPECT_TRUE(std::isnan(r[1]));
  EXPECT_EQ(r[2], 3.0f);
}

TEST(Pow, AScalarBaseBroadcastsOverTheExponentAndOneGivesOnes) {
  const Tensor powers = ops::pow(Scalar(2), tensor<int32_t>({0, 1, 10}));
  EXPECT_EQ(powers.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(powers), ElementsAre(1, 2, 1024));
  EXPECT_THAT(valuesOf<float>(ops::pow(Scalar(1), tensor<float>({kNaN, -kInf}))), ElementsAre(1.0f, 1.0f));
  Tensor out = sy::empty({0}, ScalarType::Double);
  ops::pow_out(out, Scalar(0.5), tensor<int64_t>({1, 2}));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(0.5, 0.25));
}

TEST(Pow, InPlaceKeepsSelfsDtypeAndRefusesAFloatingResultInAnIntegralSelf) {
  Tensor x = tensor<float>({1, 2, 3});
  ops::pow_(x, tensor<float>({2, 2, 0}));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1.0f, 4.0f, 1.0f));
  Tensor n = tensor<int32_t>({4});
  EXPECT_THAT(errorMessageOf([&] { ops::pow_(n, 0.5); }),
              ::testing::HasSubstr("result type Float can't be cast to the desired output type Int"));
}

}  // namespace
}  // namespace sy
