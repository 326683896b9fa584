// The other quantized_decomposed:: kernels (backends/kernels/quantized/): per-channel and
// per-token (de)quantization, choose_qparams, the quantized embeddings, add, mixed_mm and
// mixed_linear, called boxed by name through the dispatcher as a program calls them.
//
// PyTorch 1.13 has no quantized_decomposed library: every expected value here is worked out
// independently of the kernels, in double, from PyTorch's definitions
// (torch/ao/quantization/fx/_decomposed.py and ExecuTorch's reference patterns), on values chosen
// so that float and double agree exactly or within the stated tolerance.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::doublesOf;
using testing::errorMessageOf;
using testing::valuesOf;

// Calls quantized_decomposed::<name>.<overload> boxed and returns its results.
std::vector<IValue> quantOpsCall(const std::string& name, const std::string& overload, std::vector<IValue> args) {
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow("quantized_decomposed::" + name, overload);
  Stack stack(args.begin(), args.end());
  op.callBoxed(stack);
  return std::vector<IValue>(stack.begin(), stack.end());
}

template <class Q>
Tensor quantOpsTensor(const std::vector<Q>& values, IntArrayRef sizes) {
  Tensor t = empty(sizes, CppTypeToScalarType<Q>::value);
  std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(Q));
  return t;
}

IValue quantOpsDtype(ScalarType t) { return IValue(t); }

TEST(QuantizePerChannel, UsesEachChannelsScaleAndZeroPointAlongTheAxis) {
  // x of shape [2, 3], channels along axis 1 (also written -1): scales 0.5, 1, 2; zero points 0, 10, -5.
  const Tensor x = tensor(std::vector<float>{1.f, 1.f, 1.f, 3.f, -2.5f, 8.f}, {2, 3});
  const Tensor scales = tensor(std::vector<double>{0.5, 1.0, 2.0}, {3});
  const Tensor zero_points = tensor(std::vector<int64_t>{0, 10, -5}, {3});
  for (int64_t axis : {1, -1}) {
    Tensor out = empty({0}, ScalarType::Char);
    quantOpsCall("quantize_per_channel", "out",
                 {x, scales, zero_points, axis, int64_t{-128}, int64_t{127}, quantOpsDtype(ScalarType::Char), out});
    // 1/0.5 = 2; 1/1 + 10 = 11; round(0.5) - 5 = -5; 3/0.5 = 6; round(-2.5) + 10 = 8 (half to even); 8/2 - 5 = -1.
    EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{2, 11, -5, 6, 8, -1})) << "axis " << axis;
  }
  Tensor back = empty({0}, ScalarType::Float);
  Tensor q = quantOpsTensor<int8_t>({2, 11, -5, 6, 8, -1}, {2, 3});
  quantOpsCall("dequantize_per_channel", "out",
               {q, scales, zero_points, int64_t{1}, int64_t{-128}, int64_t{127}, quantOpsDtype(ScalarType::Char), IValue(),
                back});
  EXPECT_EQ(valuesOf<float>(back), (std::vector<float>{1.f, 1.f, 0.f, 3.f, -2.f, 8.f}));
  // Without zero points, dequantization subtracts nothing.
  quantOpsCall("dequantize_per_channel", "out",
               {q, scales, IValue(), int64_t{1}, int64_t{-128}, int64_t{127}, quantOpsDtype(ScalarType::Char), IValue(),
                back});
  EXPECT_EQ(valuesOf<float>(back), (std::vector<float>{1.f, 11.f, -10.f, 3.f, 8.f, -2.f}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("dequantize_per_channel", "out",
                             {q, scales, IValue(), int64_t{0}, int64_t{-128}, int64_t{127},
                              quantOpsDtype(ScalarType::Char), IValue(), back});
              }),
              HasSubstr("expected 'scales' to have 2 values (one per index along 'axis'), but it has 3"));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("quantize_per_channel", "out",
                             {x, scales, zero_points, int64_t{2}, int64_t{-128}, int64_t{127},
                              quantOpsDtype(ScalarType::Char), back});
              }),
              HasSubstr("quantized_decomposed::quantize_per_channel.out"));
}

TEST(QuantizePerToken, QuantizesEachRowWithItsOwnParametersAddingTheZeroPointBeforeRounding) {
  const Tensor x = tensor(std::vector<float>{0.75f, -1.f, 2.f, 0.5f}, {2, 2});
  const Tensor scales = tensor(std::vector<double>{0.5, 0.25}, {2, 1});
  const Tensor zero_points = tensor(std::vector<int64_t>{1, -3}, {2, 1});
  Tensor out = empty({0}, ScalarType::Char);
  quantOpsCall("quantize_per_token", "out",
               {x, scales, zero_points, int64_t{-128}, int64_t{127}, quantOpsDtype(ScalarType::Char), out});
  // Row 0: 0.75 / 0.5 + 1 = 2.5 -> 2 (even), -1 / 0.5 + 1 = -1; row 1: 2 / 0.25 - 3 = 5, 0.5 / 0.25 - 3 = -1.
  EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{2, -1, 5, -1}));
  Tensor back = empty({0}, ScalarType::Float);
  quantOpsCall("dequantize_per_token", "out",
               {out, scales, zero_points, int64_t{-128}, int64_t{127}, quantOpsDtype(ScalarType::Char),
                quantOpsDtype(ScalarType::Float), back});
  EXPECT_EQ(valuesOf<float>(back), (std::vector<float>{0.5f, -1.f, 2.f, 0.5f}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("quantize_per_token", "out",
                             {x, tensor(std::vector<double>{0.5}, {1}), zero_points, int64_t{-128}, int64_t{127},
                              quantOpsDtype(ScalarType::Char), out});
              }),
              HasSubstr("expected 'scales' to have 2 values (one per row of 'input'), but it has 1"));
}

TEST(ChooseQparams, MapsTheRangeIncludingZeroOntoTheQuantizedRange) {
  Tensor scale = empty({0}, ScalarType::Double);
  Tensor zero_point = empty({0}, ScalarType::Long);
  quantOpsCall("choose_qparams", "Tensor_out",
               {tensor(std::vector<float>{-1.f, 0.5f, 3.f}, {3}), int64_t{0}, int64_t{255}, 1e-8,
                quantOpsDtype(ScalarType::Byte), scale, zero_point});
  // scale = (3 - (-1)) / 255; zero point = 0 - round(-1 / scale) = round(63.75) = 64.
  ASSERT_EQ(scale.sizes(), IntArrayRef({1}));
  EXPECT_NEAR(valuesOf<double>(scale)[0], 4.0 / 255, 1e-7);
  EXPECT_EQ(valuesOf<int64_t>(zero_point), (std::vector<int64_t>{64}));
  // An all-positive input's range starts at 0: zero point quant_min; eps bounds the scale of zeros.
  quantOpsCall("choose_qparams", "Tensor_out",
               {tensor(std::vector<float>{0.f, 0.f}, {2}), int64_t{-128}, int64_t{127}, 0.125,
                quantOpsDtype(ScalarType::Char), scale, zero_point});
  EXPECT_EQ(valuesOf<double>(scale), (std::vector<double>{0.125}));
  EXPECT_EQ(valuesOf<int64_t>(zero_point), (std::vector<int64_t>{-128}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("choose_qparams", "Tensor_out",
                             {tensor(std::vector<float>{1.f}, {1}), int64_t{1}, int64_t{255}, 1e-8,
                              quantOpsDtype(ScalarType::Byte), scale, zero_point});
              }),
              HasSubstr("the range [quant_min, quant_max] = [1, 255] must include 0"));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("choose_qparams", "Tensor_out",
                             {empty({0}, ScalarType::Float), int64_t{0}, int64_t{255}, 1e-8,
                              quantOpsDtype(ScalarType::Byte), scale, zero_point});
              }),
              HasSubstr("'input' is empty"));
}

TEST(ChooseQparamsPerTokenAsymmetric, GivesEachRowAScaleAndZeroPointOfShapeRowsBy1) {
  Tensor scale = empty({0}, ScalarType::Double);
  Tensor zero_point = empty({0}, ScalarType::Long);
  quantOpsCall("choose_qparams_per_token_asymmetric", "out",
               {tensor(std::vector<float>{-2.55f, 0.f, 0.f, 5.1f}, {2, 2}), quantOpsDtype(ScalarType::Char), scale,
                zero_point});
  ASSERT_EQ(scale.sizes(), IntArrayRef({2, 1}));
  // Row 0: range [-2.55, 0], scale 0.01, zero point from the max end: 127 - 0 = 127.
  // Row 1: range [0, 5.1], scale 0.02, zero point from the min end: -128 - 0 = -128.
  const std::vector<double> scales = valuesOf<double>(scale);
  EXPECT_NEAR(scales[0], 0.01, 1e-7);
  EXPECT_NEAR(scales[1], 0.02, 1e-7);
  EXPECT_EQ(valuesOf<int64_t>(zero_point), (std::vector<int64_t>{127, -128}));
}

TEST(QuantizedEmbedding, DequantizesTheIndexedRowsOfAByteTable) {
  // A 3-row table of 4 values, one scale per row, zero points 0, 1, 2 (as floats, as exported).
  const Tensor weight = quantOpsTensor<uint8_t>({1, 2, 3, 4, 10, 20, 30, 40, 0, 2, 4, 6}, {3, 4});
  const Tensor scales = tensor(std::vector<float>{1.f, 0.5f, 0.25f}, {3});
  const Tensor zero_points = tensor(std::vector<float>{0.f, 1.f, 2.f}, {3});
  const Tensor indices = tensor(std::vector<int64_t>{2, 0, 2}, {3});
  Tensor out = empty({0}, ScalarType::Float);
  quantOpsCall("embedding_byte", "out", {weight, scales, zero_points, int64_t{0}, int64_t{255}, indices, out});
  ASSERT_EQ(out.sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(valuesOf<float>(out),
            (std::vector<float>{-0.5f, 0.f, 0.5f, 1.f, 1.f, 2.f, 3.f, 4.f, -0.5f, 0.f, 0.5f, 1.f}));
  // Two groups of two columns per row: row 1's scales 0.5 and 2.
  const Tensor grouped = tensor(std::vector<float>{1.f, 1.f, 0.5f, 2.f, 1.f, 1.f}, {3, 2});
  quantOpsCall("embedding_byte", "dtype_out",
               {weight, grouped, IValue(), int64_t{0}, int64_t{255}, tensor(std::vector<int64_t>{1}, {1, 1}),
                quantOpsDtype(ScalarType::Float), out});
  ASSERT_EQ(out.sizes(), IntArrayRef({1, 1, 4}));
  EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{5.f, 10.f, 60.f, 80.f}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("embedding_byte", "out",
                             {weight, scales, zero_points, int64_t{0}, int64_t{255}, tensor(std::vector<int64_t>{3}, {1}),
                              out});
              }),
              HasSubstr("quantized_decomposed::embedding_byte.out: index 3 is out of range for a table of 3 rows"));
}

TEST(QuantizedEmbedding, UnpacksFourAndTwoBitTables) {
  // 4-bit: byte 0x9F holds 9 (high nibble, first) and 15, stored with an offset of 8: 1 and 7.
  const Tensor four = quantOpsTensor<uint8_t>({0x9F, 0x08}, {1, 2});
  Tensor out = empty({0}, ScalarType::Float);
  quantOpsCall("embedding_4bit", "out",
               {four, tensor(std::vector<float>{0.5f}, {1}), IValue(), int64_t{-8}, int64_t{7},
                tensor(std::vector<int64_t>{0}, {1}), out});
  EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{0.5f, 3.5f, -4.f, 0.f}));
  // 2-bit: byte 0b11100100 holds 0, 1, 2, 3 from the lowest bits, offset 2: -2, -1, 0, 1.
  const Tensor two = quantOpsTensor<uint8_t>({0xE4}, {1, 1});
  quantOpsCall("embedding_2bit", "dtype_out",
               {two, tensor(std::vector<float>{2.f}, {1}), IValue(), int64_t{-2}, int64_t{1},
                tensor(std::vector<int64_t>{0}, {1}), IValue(), out});
  EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{-4.f, -2.f, 0.f, 2.f}));
}

TEST(QuantizedAdd, RequantizesTheSumOfTheDequantizedOperands) {
  const Tensor a = quantOpsTensor<uint8_t>({10, 20, 255}, {3});
  const Tensor b = quantOpsTensor<uint8_t>({5, 0, 255}, {3});
  Tensor out = empty({0}, ScalarType::Byte);
  // a: scale 0.5, zero point 10 -> 0, 5, 122.5; b: scale 1, zero point 5 -> 0, -5, 250;
  // sums 0, 0, 372.5; out: scale 2, zero point 3 -> 3, 3, round(186.25) + 3 = 189.
  quantOpsCall("add", "out",
               {a, 0.5, int64_t{10}, int64_t{0}, int64_t{255}, b, 1.0, int64_t{5}, int64_t{0}, int64_t{255}, 2.0,
                int64_t{3}, int64_t{0}, int64_t{255}, out});
  EXPECT_EQ(valuesOf<uint8_t>(out), (std::vector<uint8_t>{3, 3, 189}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("add", "out",
                             {a, 0.5, int64_t{10}, int64_t{0}, int64_t{255}, quantOpsTensor<uint8_t>({1, 2}, {2}), 1.0,
                              int64_t{5}, int64_t{0}, int64_t{255}, 2.0, int64_t{3}, int64_t{0}, int64_t{255}, out});
              }),
              HasSubstr("expected 'a' and 'b' to have one shape, but got (3,) and (2,)"));
}

TEST(MixedMatmul, MultipliesByTheDequantizedInt8Weight) {
  const Tensor input = tensor(std::vector<float>{1.f, 2.f, -1.f, 0.5f}, {2, 2});
  // mixed_mm: weight [2, 3] with one scale per row (0.5, 2).
  const Tensor w = quantOpsTensor<int8_t>({2, -4, 6, 1, 0, -1}, {2, 3});
  Tensor out = empty({0}, ScalarType::Float);
  quantOpsCall("mixed_mm", "out", {input, w, tensor(std::vector<float>{0.5f, 2.f}, {2}), IValue(), out});
  // Dequantized weight rows: [1, -2, 3] and [2, 0, -2].
  EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{5.f, -2.f, -1.f, 0.f, 2.f, -4.f}));
  // mixed_linear: weight [3, 2] (out features by in features), one scale per output feature.
  const Tensor wl = quantOpsTensor<int8_t>({2, 1, -4, 0, 6, -1}, {3, 2});
  quantOpsCall("mixed_linear", "out",
               {input, wl, tensor(std::vector<float>{0.5f, 0.5f, 0.5f}, {3}), IValue(), IValue(), out});
  // Dequantized rows [1, 0.5], [-2, 0], [3, -0.5].
  EXPECT_EQ(valuesOf<float>(out), (std::vector<float>{2.f, -2.f, 2.f, -0.75f, 2.f, -3.25f}));
  EXPECT_THAT(errorMessageOf([&] {
                quantOpsCall("mixed_mm", "out",
                             {input, quantOpsTensor<int8_t>({1, 2, 3}, {3, 1}), tensor(std::vector<float>{1.f, 1.f, 1.f}, {3}),
                              IValue(), out});
              }),
              HasSubstr("quantized_decomposed::mixed_mm.out: 'input' [2, 2] cannot be multiplied by 'weight' [3, 1]"));
}

}  // namespace
}  // namespace sy
