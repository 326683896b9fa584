// quantized_decomposed::quantize_per_tensor and dequantize_per_tensor (backends/kernels/quantized/),
// called by name through the dispatcher as a program calls them.
//
// PyTorch 1.13 has no quantized_decomposed library, so the expected values come from a reference
// written here, independently of the kernels, in double: q = clamp(round_half_to_even(x / scale) +
// zero_point, quant_min, quant_max) and x = (q - zero_point) * scale, PyTorch's definitions
// (torch/ao/quantization/fx/_decomposed.py). The kernels compute in float as PyTorch does, so
// random inputs whose x / scale lies that close to a tie (1e-3, more for large values) that float
// and double may round it differently are left to the tests of exact ties.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::doublesOf;
using testing::errorMessageOf;
using testing::kInf;
using testing::kNaN;
using testing::valuesOf;

constexpr const char* kQuantizeOut = "quantized_decomposed::quantize_per_tensor";

Tensor& quantTestQuantize(const Tensor& x, double scale, int64_t zp, int64_t qmin, int64_t qmax, ScalarType dtype,
                          Tensor& out) {
  return Dispatcher::singleton()
      .findSchemaOrThrow(kQuantizeOut, "out")
      .typed<Tensor&(const Tensor&, double, int64_t, int64_t, int64_t, ScalarType, Tensor&)>()
      .call(x, scale, zp, qmin, qmax, dtype, out);
}

Tensor& quantTestQuantizeTensorArgs(const Tensor& x, const Tensor& scale, const Tensor& zp, int64_t qmin, int64_t qmax,
                                    ScalarType dtype, Tensor& out) {
  return Dispatcher::singleton()
      .findSchemaOrThrow(kQuantizeOut, "Tensor_out")
      .typed<Tensor&(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t, ScalarType, Tensor&)>()
      .call(x, scale, zp, qmin, qmax, dtype, out);
}

Tensor& quantTestDequantize(const Tensor& q, double scale, int64_t zp, int64_t qmin, int64_t qmax, ScalarType dtype,
                            std::optional<ScalarType> out_dtype, Tensor& out) {
  return Dispatcher::singleton()
      .findSchemaOrThrow("quantized_decomposed::dequantize_per_tensor", "out")
      .typed<Tensor&(const Tensor&, double, int64_t, int64_t, int64_t, ScalarType, std::optional<ScalarType>, Tensor&)>()
      .call(q, scale, zp, qmin, qmax, dtype, out_dtype, out);
}

Tensor& quantTestDequantizeTensorArgs(const Tensor& q, const Tensor& scale, const Tensor& zp, int64_t qmin,
                                      int64_t qmax, ScalarType dtype, std::optional<ScalarType> out_dtype, Tensor& out) {
  return Dispatcher::singleton()
      .findSchemaOrThrow("quantized_decomposed::dequantize_per_tensor", "Tensor_out")
      .typed<Tensor&(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t, ScalarType,
                     std::optional<ScalarType>, Tensor&)>()
      .call(q, scale, zp, qmin, qmax, dtype, out_dtype, out);
}

// The reference, in double (see the top of the file).
double quantTestReferenceQuantize(double x, double scale, int64_t zp, int64_t qmin, int64_t qmax) {
  if (std::isnan(x)) return static_cast<double>(qmin);
  const double scaled = x / scale;
  double rounded = std::floor(scaled);
  const double fraction = scaled - rounded;
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(rounded, 2.0) != 0)) rounded += 1;
  return std::min(std::max(rounded + static_cast<double>(zp), static_cast<double>(qmin)), static_cast<double>(qmax));
}

bool quantTestNearTie(double x, double scale) {
  const double scaled = x / scale;
  // The float product's own rounding error grows with the value: 1e-6 of it bounds that.
  return std::abs(scaled - std::floor(scaled) - 0.5) < 1e-3 + 1e-6 * std::abs(scaled);
}

// A tensor of a quantized dtype holding `values`.
template <class Q>
Tensor quantTestTensor(const std::vector<Q>& values, IntArrayRef sizes) {
  Tensor t = empty(sizes, CppTypeToScalarType<Q>::value);
  std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(Q));
  return t;
}

struct QuantTestRange {
  ScalarType dtype;
  int64_t qmin, qmax, zp;
  double scale;
};

TEST(QuantizePerTensor, MatchesTheDoubleReferenceForEveryQuantizedDtype) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-300, 300);
  const QuantTestRange ranges[] = {{ScalarType::Byte, 0, 255, 128, 0.75},      {ScalarType::Char, -128, 127, -3, 0.1},
                                   {ScalarType::Char, -127, 127, 0, 2.5},      {ScalarType::Short, -32768, 32767, 17, 0.01},
                                   {ScalarType::Int, -100000, 100000, -5, 0.003}, {ScalarType::UInt16, 0, 65535, 30000, 0.02}};
  for (const QuantTestRange& r : ranges) {
    std::vector<float> xs(64);
    for (float& x : xs) x = value(rng);
    Tensor out = empty({0}, r.dtype);
    quantTestQuantize(tensor(xs, {8, 8}), r.scale, r.zp, r.qmin, r.qmax, r.dtype, out);
    ASSERT_EQ(out.sizes(), IntArrayRef({8, 8}));
    const std::vector<double> got = doublesOf(out);
    for (size_t i = 0; i < xs.size(); ++i) {
      if (quantTestNearTie(xs[i], r.scale)) continue;
      EXPECT_EQ(got[i], quantTestReferenceQuantize(xs[i], r.scale, r.zp, r.qmin, r.qmax))
          << r.dtype << " x=" << xs[i] << " scale=" << r.scale << " zp=" << r.zp;
    }
  }
}

TEST(QuantizePerTensor, RoundsHalvesToEven) {
  Tensor out = empty({0}, ScalarType::Char);
  quantTestQuantize(tensor(std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.25f, 0.75f}, {8}), 1.0, 0, -128,
                    127, ScalarType::Char, out);
  EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{0, 2, 2, 0, -2, -2, 0, 1}));
  // Ties are decided before the zero point is added: round(2.5) + 1 is 3, not round(3.5).
  quantTestQuantize(tensor(std::vector<float>{1.25f, 1.75f}, {2}), 0.5, 1, -128, 127, ScalarType::Char, out);
  EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{3, 5}));
}

TEST(QuantizePerTensor, ClampsToTheQuantRangeAndSendsNaNToQuantMin) {
  Tensor out = empty({0}, ScalarType::Byte);
  quantTestQuantize(tensor(std::vector<float>{-1000.f, 1000.f, kInf, -kInf, kNaN, 1e38f, 3.f}, {7}), 0.5, 10, 5, 250,
                    ScalarType::Byte, out);
  EXPECT_EQ(valuesOf<uint8_t>(out), (std::vector<uint8_t>{5, 250, 250, 5, 5, 250, 16}));
  // A tiny scale sends ordinary values far beyond the integer range: clamped, not wrapped.
  Tensor wide = empty({0}, ScalarType::Int);
  quantTestQuantize(tensor(std::vector<float>{1.f, -1.f}, {2}), 1e-30, 0, -2147483648LL, 2147483647LL, ScalarType::Int,
                    wide);
  EXPECT_EQ(valuesOf<int32_t>(wide), (std::vector<int32_t>{2147483647, -2147483647 - 1}));
}

TEST(QuantizePerTensor, TakesDoubleInputsStridedInputsAndResizesOut) {
  const std::vector<double> xs{0.15, -2.6, 7.4, 3.35, -0.2, 1.85};
  Tensor out = empty({5, 5}, ScalarType::Char);
  quantTestQuantize(tensor(xs, {2, 3}), 0.2, 1, -128, 127, ScalarType::Char, out);
  ASSERT_EQ(out.sizes(), IntArrayRef({2, 3}));
  std::vector<int8_t> expected;
  for (double x : xs) expected.push_back(static_cast<int8_t>(quantTestReferenceQuantize(x, 0.2, 1, -128, 127)));
  EXPECT_EQ(valuesOf<int8_t>(out), expected);
  // The transpose of a contiguous (3, 2) tensor reads the same values.
  std::vector<float> columns{0.15f, 3.35f, -2.6f, -0.2f, 7.4f, 1.85f};
  Tensor strided = ops::transpose(tensor(columns, {3, 2}), 0, 1);
  Tensor out2 = empty({0}, ScalarType::Char);
  quantTestQuantize(strided, 0.2, 1, -128, 127, ScalarType::Char, out2);
  EXPECT_EQ(valuesOf<int8_t>(out2), expected);
}

TEST(QuantizePerTensor, TheTensorFormReadsScaleAndZeroPointFromOneElementTensors) {
  const Tensor x = tensor(std::vector<float>{-1.f, 0.3f, 2.2f, 9.f}, {4});
  Tensor a = empty({0}, ScalarType::Byte);
  Tensor b = empty({0}, ScalarType::Byte);
  quantTestQuantize(x, 0.25, 7, 0, 255, ScalarType::Byte, a);
  quantTestQuantizeTensorArgs(x, tensor(std::vector<double>{0.25}, {1}), tensor(std::vector<int64_t>{7}, {}), 0, 255,
                              ScalarType::Byte, b);
  EXPECT_EQ(valuesOf<uint8_t>(b), valuesOf<uint8_t>(a));
  EXPECT_THAT(errorMessageOf([&] {
                quantTestQuantizeTensorArgs(x, tensor(std::vector<double>{0.25, 0.5}, {2}),
                                            tensor(std::vector<int64_t>{7}, {1}), 0, 255, ScalarType::Byte, b);
              }),
              HasSubstr("quantized_decomposed::quantize_per_tensor.Tensor_out: expected 'scale' to have one element, "
                        "but it has 2"));
  EXPECT_THAT(errorMessageOf([&] {
                quantTestQuantizeTensorArgs(x, tensor(std::vector<double>{0.25}, {1}),
                                            tensor(std::vector<float>{7.f}, {1}), 0, 255, ScalarType::Byte, b);
              }),
              HasSubstr("expected 'zero_point' to be a Long or Int tensor, but got Float"));
}

TEST(QuantizePerTensor, RefusesRangesOutputsAndInputsThatDoNotFit) {
  const Tensor x = tensor(std::vector<float>{1.f}, {1});
  Tensor out = empty({1}, ScalarType::Byte);
  EXPECT_EQ(errorMessageOf([&] { quantTestQuantize(x, 1.0, 0, 0, 300, ScalarType::Byte, out); }),
            "quantized_decomposed::quantize_per_tensor.out: quant_max 300 is out of bounds for dtype Byte, whose "
            "largest value is 255");
  EXPECT_THAT(errorMessageOf([&] { quantTestQuantize(x, 1.0, 0, -129, 127, ScalarType::Char, out); }),
              HasSubstr("quant_min -129 is out of bounds for dtype Char, whose smallest value is -128"));
  EXPECT_EQ(errorMessageOf([&] { quantTestQuantize(x, 1.0, 0, -128, 127, ScalarType::Char, out); }),
            "quantized_decomposed::quantize_per_tensor.out: expected 'out' to have the quantized dtype Char (the "
            "'dtype' argument), but got Byte");
  EXPECT_THAT(errorMessageOf([&] { quantTestQuantize(x, 1.0, 0, 0, 1, ScalarType::Float, out); }),
              HasSubstr("argument 'dtype' has dtype Float, which this kernel does not support"));
  EXPECT_THAT(errorMessageOf([&] {
                quantTestQuantize(tensor(std::vector<int32_t>{1}, {1}), 1.0, 0, 0, 255, ScalarType::Byte, out);
              }),
              HasSubstr("argument 'input' has dtype Int, which this kernel does not support"));
}

TEST(DequantizePerTensor, MatchesTheDoubleReferenceForEveryQuantizedDtype) {
  {
    Tensor out = empty({0}, ScalarType::Float);
    quantTestDequantize(quantTestTensor<uint8_t>({0, 1, 128, 200, 255}, {5}), 0.125, 128, 0, 255, ScalarType::Byte,
                        std::nullopt, out);
    EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{-16.f, -15.875f, 0.f, 9.f, 15.875f}));
  }
  {
    Tensor out = empty({0}, ScalarType::Float);
    quantTestDequantize(quantTestTensor<int8_t>({-128, -1, 0, 127}, {2, 2}), 0.1, -3, -128, 127, ScalarType::Char,
                        std::nullopt, out);
    const std::vector<double> got = doublesOf(out);
    const double expected[] = {-125 * 0.1, 2 * 0.1, 3 * 0.1, 130 * 0.1};
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], expected[i], 1e-6 * std::abs(expected[i])) << i;
  }
  {
    Tensor out = empty({0}, ScalarType::Double);
    quantTestDequantize(quantTestTensor<int16_t>({-32768, 5, 32767}, {3}), 0.5, 1, -32768, 32767, ScalarType::Short,
                        ScalarType::Double, out);
    EXPECT_EQ(valuesOf<double>(out), (std::vector<double>{-16384.5, 2.0, 16383.0}));
  }
  {
    Tensor out = empty({0}, ScalarType::Float);
    quantTestDequantizeTensorArgs(quantTestTensor<int32_t>({-70000, 0, 70000}, {3}), tensor(std::vector<float>{0.5f}, {1}),
                                  tensor(std::vector<int32_t>{10}, {1}), -100000, 100000, ScalarType::Int, std::nullopt,
                                  out);
    EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{-35005.f, -5.f, 34995.f}));
  }
}

TEST(DequantizePerTensor, UndoesQuantizationWithinHalfAStep) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-10, 10);
  std::vector<float> xs(50);
  for (float& x : xs) x = value(rng);
  Tensor q = empty({0}, ScalarType::Char);
  Tensor back = empty({0}, ScalarType::Float);
  quantTestQuantize(tensor(xs, {50}), 0.1, 2, -128, 127, ScalarType::Char, q);
  quantTestDequantize(q, 0.1, 2, -128, 127, ScalarType::Char, std::nullopt, back);
  const std::vector<float> got = valuesOf<float>(back);
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_NEAR(got[i], xs[i], 0.05 + 1e-5) << xs[i];
}

TEST(DequantizePerTensor, RefusesAnInputOfAnotherDtypeThanDtypeAndAnOutOfAnotherThanOutDtype) {
  const Tensor q = quantTestTensor<uint8_t>({1, 2}, {2});
  Tensor out = empty({2}, ScalarType::Float);
  EXPECT_EQ(errorMessageOf([&] { quantTestDequantize(q, 1.0, 0, -128, 127, ScalarType::Char, std::nullopt, out); }),
            "quantized_decomposed::dequantize_per_tensor.out: expected 'input' to have dtype Char (the 'dtype' "
            "argument), but got Byte");
  EXPECT_EQ(errorMessageOf([&] { quantTestDequantize(q, 1.0, 0, 0, 255, ScalarType::Byte, ScalarType::Double, out); }),
            "quantized_decomposed::dequantize_per_tensor.out: expected 'out' to have dtype Double (the 'out_dtype' "
            "argument), but got Float");
  EXPECT_THAT(errorMessageOf([&] { quantTestDequantize(q, 1.0, 0, 255, 0, ScalarType::Byte, std::nullopt, out); }),
              HasSubstr("quant_min 255 is greater than quant_max 0"));
  Tensor ints = empty({2}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { quantTestDequantize(q, 1.0, 0, 0, 255, ScalarType::Byte, std::nullopt, ints); }),
              HasSubstr("argument 'out' has dtype Long, which this kernel does not support"));
}

TEST(QuantizePerTensor, FunctionalFormsReturnTensorsOfTheRequestedDtypes) {
  Dispatcher& d = Dispatcher::singleton();
  const Tensor x = tensor(std::vector<float>{-1.f, 0.5f, 3.f}, {3});
  Tensor q = d.findSchemaOrThrow(kQuantizeOut, "")
                 .typed<Tensor(const Tensor&, double, int64_t, int64_t, int64_t, ScalarType)>()
                 .call(x, 0.5, 0, -128, 127, ScalarType::Char);
  EXPECT_EQ(valuesOf<int8_t>(q), (std::vector<int8_t>{-2, 1, 6}));
  Tensor y = d.findSchemaOrThrow("quantized_decomposed::dequantize_per_tensor", "tensor")
                 .typed<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t, ScalarType,
                               std::optional<ScalarType>)>()
                 .call(q, tensor(std::vector<double>{0.5}, {1}), tensor(std::vector<int64_t>{0}, {1}), -128, 127,
                       ScalarType::Char, std::nullopt);
  EXPECT_EQ(valuesOf<float>(y), (std::vector<float>{-1.f, 0.5f, 3.f}));
}

}  // namespace
}  // namespace sy
