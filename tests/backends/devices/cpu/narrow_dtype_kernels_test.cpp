// The kernels on the dtypes real programs carry besides the five classic ones: Byte, Char and
// Short (quantized models, masks, indices) and Half and BFloat16 (mixed precision).
//
// References are this file's own: the same computation in double, rounded once to the dtype, which
// is PyTorch's CPU semantics for the reduced-precision floats (its kernels accumulate in float) and
// two's-complement wrap-around for the small integers. The PyTorch oracle (conformance/oracle)
// checks every operator on these dtypes against PyTorch 1.13 itself.
#include <cmath>
#include <cstdint>
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
using sy::testing::doublesOf;
using sy::testing::errorMessageOf;

Tensor narrowTensorOf(const std::vector<double>& values, ScalarType dtype, std::vector<int64_t> sizes = {}) {
  if (sizes.empty()) sizes = {static_cast<int64_t>(values.size())};
  const Tensor wide = sy::empty(sizes, ScalarType::Double);
  for (size_t i = 0; i < values.size(); ++i) wide.data_ptr<double>()[i] = values[i];
  return wide.to(dtype);
}

// `value` rounded to `dtype` and read back.
double roundedTo(double value, ScalarType dtype) { return doublesOf(narrowTensorOf({value}, dtype))[0]; }

TEST(NarrowDtypeKernels, HalfArithmeticComputesInFloatAndRoundsOncePerResult) {
  const Tensor a = narrowTensorOf({1.0, 0.1, 65504.0, -3.0}, ScalarType::Half);
  const Tensor b = narrowTensorOf({0.0009765625, 0.2, 65504.0, 0.5}, ScalarType::Half);
  const Tensor sum = ops::add(a, b, 3);
  EXPECT_EQ(sum.scalar_type(), ScalarType::Half);
  const std::vector<double> x = doublesOf(a), y = doublesOf(b);
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) {
    want.push_back(roundedTo(static_cast<float>(x[i]) + 3.0f * static_cast<float>(y[i]), ScalarType::Half));
  }
  EXPECT_EQ(doublesOf(sum), want);
  EXPECT_TRUE(std::isinf(doublesOf(sum)[2]));  // 4 * 65504 overflows to infinity, as in PyTorch
}

TEST(NarrowDtypeKernels, BFloat16FunctionsMatchTheFloatFunctionRoundedOnce) {
  const std::vector<double> values = {0.5, -0.25, 0.75, 0.0, 1.0};
  const Tensor x = narrowTensorOf(values, ScalarType::BFloat16);
  const std::vector<double> read = doublesOf(x);
  const std::vector<double> got = doublesOf(ops::acos(x));
  ASSERT_EQ(ops::acos(x).scalar_type(), ScalarType::BFloat16);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(got[i], roundedTo(std::acos(static_cast<float>(read[i])), ScalarType::BFloat16)) << values[i];
  }
}

TEST(NarrowDtypeKernels, HalfSumsAndProductsAccumulateInFloat) {
  // 4097 ones: a float accumulator holds 4097, which rounds to 4096 in Half (spacing 4 there); a
  // Half accumulator would stop at 2048, where adding 1 rounds back to 2048.
  const Tensor ones = ops::ones({4097}, ScalarType::Half);
  EXPECT_EQ(doublesOf(ops::sum(ones)), std::vector<double>{4096.0});
  const Tensor row = ops::ones({1, 4097}, ScalarType::Half), column = ops::ones({4097, 1}, ScalarType::Half);
  const Tensor product = ops::mm(row, column);
  EXPECT_EQ(product.scalar_type(), ScalarType::Half);
  EXPECT_EQ(doublesOf(product), std::vector<double>{4096.0});
}

TEST(NarrowDtypeKernels, HalfSoftmaxIsTheFloatSoftmaxRounded) {
  const std::vector<double> values = {0.1, 2.0, -1.5, 3.25, 0.0, 1.0};
  const Tensor h = narrowTensorOf(values, ScalarType::Half, {2, 3});
  const Tensor f = h.to(ScalarType::Float);
  EXPECT_EQ(doublesOf(ops::softmax(h, 1)), doublesOf(ops::softmax(f, 1).to(ScalarType::Half)));
  EXPECT_EQ(doublesOf(ops::log_softmax(h, 0)), doublesOf(ops::log_softmax(f, 0).to(ScalarType::Half)));
}

TEST(NarrowDtypeKernels, SmallIntegersWrapAroundAsTwosComplement) {
  const Tensor u = narrowTensorOf({200, 255, 0}, ScalarType::Byte);
  EXPECT_EQ(doublesOf(ops::add(u, narrowTensorOf({100, 1, 0}, ScalarType::Byte))), (std::vector<double>{44, 0, 0}));
  EXPECT_EQ(doublesOf(ops::neg(u)), (std::vector<double>{56, 1, 0}));
  const Tensor c = narrowTensorOf({-128, 127, -5}, ScalarType::Char);
  EXPECT_EQ(doublesOf(ops::sub(c, narrowTensorOf({1, -1, 3}, ScalarType::Char))), (std::vector<double>{127, -128, -8}));
  const Tensor s = narrowTensorOf({300, -300}, ScalarType::Short);
  EXPECT_EQ(doublesOf(ops::mul(s, s)), (std::vector<double>{90000 - 65536, 90000 - 65536}));
}

TEST(NarrowDtypeKernels, MixedDtypesPromoteAsPyTorchDoes) {
  const Tensor u = narrowTensorOf({3, 4}, ScalarType::Byte), c = narrowTensorOf({-1, 2}, ScalarType::Char);
  const Tensor mixed = ops::add(u, c);  // uint8 + int8 -> int16
  EXPECT_EQ(mixed.scalar_type(), ScalarType::Short);
  EXPECT_EQ(doublesOf(mixed), (std::vector<double>{2, 6}));
  const Tensor h = narrowTensorOf({1.5, 2.5}, ScalarType::Half), bf = narrowTensorOf({1, 2}, ScalarType::BFloat16);
  EXPECT_EQ(ops::mul(h, bf).scalar_type(), ScalarType::Float);  // Half with BFloat16 -> Float
  EXPECT_EQ(ops::mul(u, h).scalar_type(), ScalarType::Half);
  const Tensor quotient = ops::div(u, narrowTensorOf({2, 8}, ScalarType::Byte));  // true division: Float
  EXPECT_EQ(quotient.scalar_type(), ScalarType::Float);
  EXPECT_EQ(doublesOf(quotient), (std::vector<double>{1.5, 0.5}));
}

TEST(NarrowDtypeKernels, ComparisonsAndExtremaReadEveryNarrowDtype) {
  for (ScalarType dtype : {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Half, ScalarType::BFloat16}) {
    SCOPED_TRACE(toString(dtype));
    const Tensor t = narrowTensorOf({3, 7, 5}, dtype);
    EXPECT_EQ(doublesOf(ops::gt(t, narrowTensorOf({4, 4, 4}, dtype))), (std::vector<double>{0, 1, 1}));
    EXPECT_EQ(doublesOf(ops::amax(t)), std::vector<double>{7});
    EXPECT_EQ(doublesOf(ops::where(ops::gt(t, 4), t, narrowTensorOf({0, 0, 0}, dtype))), (std::vector<double>{0, 7, 5}));
    EXPECT_EQ(doublesOf(ops::sum(t)), std::vector<double>{15});
  }
}

TEST(NarrowDtypeKernels, AKernelRefusesADtypeOutsideItsYamlSetNamingTheOperatorAndTheSet) {
  // _pdist_forward declares FLOATHBF16 in linalg_ops.yaml, as ExecuTorch's kernel.
  EXPECT_EQ(errorMessageOf([] { ops::_pdist_forward(ops::ones({3, 2}, ScalarType::Short)); }),
            "aten::_pdist_forward: argument 'self' has dtype Short, which this kernel does not support "
            "(supported: Half, Float, Double, BFloat16)");
}

TEST(NarrowDtypeKernels, BilinearUpsamplingKeepsAConstantIntegralImageConstant) {
  // See Note [Interpolated integers are rounded to nearest] in backends/devices/cpu/nn_kernels.h.
  for (ScalarType dtype : {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
    SCOPED_TRACE(toString(dtype));
    const Tensor image = ops::full({1, 1, 3, 3}, 3, dtype);
    const Tensor up = ops::upsample_bilinear2d(image, std::vector<int64_t>{7, 10}, false, std::nullopt);
    EXPECT_EQ(doublesOf(up), std::vector<double>(70, 3.0));
    const Tensor aa = ops::_upsample_bilinear2d_aa(image, {2, 2}, false);
    EXPECT_EQ(doublesOf(aa), std::vector<double>(4, 3.0));
  }
  // 0 and 255 halfway: 127.5 rounds to even, 128.
  const Tensor edge = narrowTensorOf({0, 255}, ScalarType::Byte, {1, 1, 1, 2});
  EXPECT_EQ(doublesOf(ops::upsample_bilinear2d(edge, std::vector<int64_t>{1, 3}, true, std::nullopt)),
            (std::vector<double>{0, 128, 255}));
}

TEST(NarrowDtypeKernels, HalfPowIsStdPowInFloatAsPyTorchsHalfKernel) {
  // No sqrt specialisation for Half: pow(-inf, 0.5) is inf (sqrt(-inf) would be NaN).
  EXPECT_EQ(doublesOf(ops::pow(narrowTensorOf({-INFINITY, 4}, ScalarType::Half), 0.5)),
            (std::vector<double>{INFINITY, 2}));
  EXPECT_EQ(doublesOf(ops::pow(narrowTensorOf({300}, ScalarType::Half), 2)), std::vector<double>{INFINITY});
  EXPECT_EQ(doublesOf(ops::pow(narrowTensorOf({3}, ScalarType::Char), 4)), std::vector<double>{81});
}

TEST(NarrowDtypeKernels, ActivationsOnHalfComputeInFloatAndRoundOnce) {
  const Tensor x = narrowTensorOf({-2.5, -0.3, 0.0, 0.7, 3.1}, ScalarType::Half);
  const std::vector<double> read = doublesOf(x);
  const Tensor gelu = ops::gelu(x, "tanh");
  ASSERT_EQ(gelu.scalar_type(), ScalarType::Half);
  for (size_t i = 0; i < read.size(); ++i) {
    // PyTorch's tanh form, in float: its constants are not rounded to Half first.
    const float v = static_cast<float>(read[i]);
    const float want = 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    EXPECT_NEAR(doublesOf(gelu)[i], roundedTo(want, ScalarType::Half), 1e-3 * std::abs(want) + 1e-7) << read[i];
  }
  EXPECT_EQ(doublesOf(ops::relu(narrowTensorOf({-3, 4}, ScalarType::Char))), (std::vector<double>{0, 4}));
  EXPECT_EQ(doublesOf(ops::hardtanh(narrowTensorOf({-3, 0.5, 4}, ScalarType::BFloat16))),
            (std::vector<double>{-1, 0.5, 1}));
  // Halfway cases round to even, in the reduced type as in Float.
  EXPECT_EQ(doublesOf(ops::round(narrowTensorOf({2.5, 3.5, -0.5}, ScalarType::BFloat16))),
            (std::vector<double>{2, 4, -0.0}));
  EXPECT_EQ(doublesOf(ops::isnan(narrowTensorOf({NAN, 1}, ScalarType::Half))), (std::vector<double>{1, 0}));
  EXPECT_EQ(doublesOf(ops::logical_not(narrowTensorOf({0, 7}, ScalarType::Short))), (std::vector<double>{1, 0}));
}

TEST(NarrowDtypeKernels, HalfConvolutionAndLayerNormAccumulateInFloatAndRoundOnce) {
  // A Half accumulator stops at 2048 (2048 + 1 rounds back to 2048); accumulated in float, 2050
  // ones give 2050, which Half holds.
  const Tensor input = ops::ones({1, 2050, 1, 1}, ScalarType::Half);
  const Tensor weight = ops::ones({1, 2050, 1, 1}, ScalarType::Half);
  const Tensor y = ops::conv2d(input, weight);
  ASSERT_EQ(y.scalar_type(), ScalarType::Half);
  EXPECT_EQ(doublesOf(y), std::vector<double>{2050});
  // Layer norm of [1, 2, 3, 4] in BFloat16: the Float result rounded once.
  const Tensor x = narrowTensorOf({1, 2, 3, 4}, ScalarType::BFloat16, {1, 4});
  const Tensor normalized = ops::layer_norm(x, {4});
  ASSERT_EQ(normalized.scalar_type(), ScalarType::BFloat16);
  const double rstd = 1.0 / std::sqrt(1.25 + 1e-5);
  EXPECT_EQ(doublesOf(normalized), (std::vector<double>{roundedTo(-1.5 * rstd, ScalarType::BFloat16),
                                                        roundedTo(-0.5 * rstd, ScalarType::BFloat16),
                                                        roundedTo(0.5 * rstd, ScalarType::BFloat16),
                                                        roundedTo(1.5 * rstd, ScalarType::BFloat16)}));
}

TEST(NarrowDtypeKernels, ClampingByteWithANegativeIntegerBoundWrapsItAsPyTorch) {
  // PyTorch converts the bound to uint8 by c10's checked conversion, which wraps -1 to 255.
  const Tensor t = narrowTensorOf({3, 7, 250}, ScalarType::Byte);
  EXPECT_EQ(doublesOf(ops::clamp(t, -1)), (std::vector<double>{255, 255, 255}));
  EXPECT_THAT(errorMessageOf([&] { ops::clamp(t, -256); }), HasSubstr("value -256 cannot be converted to type Byte"));
  // hardtanh refuses negative limits on an unsigned self instead.
  EXPECT_THAT(errorMessageOf([&] { ops::hardtanh(t); }),
              HasSubstr("aten::hardtanh: cannot do hardtanh on an unsigned type with negative limits"));
  EXPECT_EQ(doublesOf(ops::hardtanh(t, 0, 5)), (std::vector<double>{3, 5, 5}));
}

TEST(NarrowDtypeKernels, IndexAndMaskOperatorsMoveEveryNarrowDtype) {
  // A Half KV cache updated in place and read back, as LLM programs do.
  Tensor cache = ops::zeros({4}, ScalarType::Half);
  const Tensor position = narrowTensorOf({2}, ScalarType::Long);
  const Tensor values = narrowTensorOf({0.1}, ScalarType::Half);
  cache = ops::index_put(cache, {std::optional<Tensor>(position)}, values, /*accumulate=*/true);
  cache = ops::index_put(cache, {std::optional<Tensor>(position)}, values, /*accumulate=*/true);
  // Each accumulation is a Half sum, rounded once: 0.1 (0.0999755859375 in Half) twice.
  EXPECT_EQ(doublesOf(cache), (std::vector<double>{0, 0, roundedTo(2 * 0.0999755859375, ScalarType::Half), 0}));
  EXPECT_EQ(doublesOf(ops::gather(narrowTensorOf({5, -7, 9}, ScalarType::Short), 0, narrowTensorOf({2, 0}, ScalarType::Long))),
            (std::vector<double>{9, 5}));
  const Tensor mask = ops::gt(narrowTensorOf({1, 0, 1}, ScalarType::Byte), 0);
  EXPECT_EQ(doublesOf(ops::masked_fill(narrowTensorOf({1, 2, 3}, ScalarType::Char), mask, -4)),
            (std::vector<double>{-4, 2, -4}));
  // The value converts as PyTorch converts it, even when nothing is filled.
  EXPECT_THAT(errorMessageOf([] {
                ops::masked_fill(ops::empty({0}, ScalarType::Byte), ops::empty({0}, ScalarType::Bool), -1.5);
              }),
              HasSubstr("value -1.5 cannot be converted to type Byte without overflow"));
}

TEST(NarrowDtypeKernels, AnyOfAByteTensorIsByteAsInPyTorch) {
  const Tensor bytes = narrowTensorOf({0, 3}, ScalarType::Byte);
  EXPECT_EQ(ops::any(bytes).scalar_type(), ScalarType::Byte);
  EXPECT_EQ(doublesOf(ops::any(bytes)), std::vector<double>{1});
  EXPECT_EQ(ops::any(narrowTensorOf({0, 3}, ScalarType::Char)).scalar_type(), ScalarType::Bool);
}

TEST(NarrowDtypeKernels, TopkOnHalfPutsNaNFirstAsTheLargest) {
  const auto [values, indices] = ops::topk(narrowTensorOf({1, NAN, 3}, ScalarType::Half), 2);
  EXPECT_TRUE(std::isnan(doublesOf(values)[0]));
  EXPECT_EQ(doublesOf(values)[1], 3);
  EXPECT_EQ(doublesOf(indices), (std::vector<double>{1, 2}));
}

TEST(NarrowDtypeKernels, ShiftsPastTheWidthGiveZeroOrTheSignOfTheSmallIntegers) {
  // Byte has no sign bit: 200 >> 9 is 0 (an arithmetic shift by 7 would give 1); Char keeps its sign.
  EXPECT_EQ(doublesOf(ops::bitwise_right_shift(ops::full({1}, 200, ScalarType::Byte), ops::full({1}, 9, ScalarType::Byte))),
            std::vector<double>{0});
  EXPECT_EQ(doublesOf(ops::bitwise_right_shift(ops::full({1}, -100, ScalarType::Char), ops::full({1}, 9, ScalarType::Char))),
            std::vector<double>{-1});
  // A left shift drops what leaves the type: Short 0x4001 << 2 is 4 (0x10004 without its bit 16).
  EXPECT_EQ(doublesOf(ops::bitwise_left_shift(ops::full({1}, 0x4001, ScalarType::Short), ops::full({1}, 2, ScalarType::Short))),
            std::vector<double>{4});
  EXPECT_EQ(doublesOf(ops::bitwise_not(ops::full({1}, 5, ScalarType::Byte))), std::vector<double>{250});
}

TEST(NarrowDtypeKernels, AKernelsYamlDtypesAreTheOnesItTakes) {
  // neg.out declares REALHBF16 (no Bool) in unary_ops.yaml; sub.out declares REALHBF16 too.
  EXPECT_EQ(doublesOf(ops::neg(narrowTensorOf({2}, ScalarType::BFloat16))), std::vector<double>{-2});
  EXPECT_THAT(errorMessageOf([] { ops::neg(ops::ones({2}, ScalarType::Bool)); }), HasSubstr("aten::neg"));
  EXPECT_THAT(errorMessageOf([] { ops::add(ops::ones({1}, ScalarType::UInt16), ops::ones({1}, ScalarType::UInt16)); }),
              HasSubstr("UInt16, which this kernel does not support (supported: Byte, Char, Short, Int, Long, Half, "
                        "Float, Double, Bool, BFloat16)"));
}

}  // namespace
}  // namespace sy
