// Tensors of every ScalarType through the CPU backend: made (empty, zeros, full), converted
// (_to_copy, Tensor::to, copy_) against the element types' own conversions, copied through views,
// read (item, allclose) and printed; a kernel that cannot take a dtype refuses it by name.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using sy::testing::doublesOf;
using sy::testing::errorMessageOf;

// The real dtypes other than the five kernels compute with.
const std::vector<ScalarType> kNewRealDtypes = {
    ScalarType::Byte,          ScalarType::Char,          ScalarType::Short,           ScalarType::Half,
    ScalarType::BFloat16,      ScalarType::Float8_e5m2,   ScalarType::Float8_e4m3fn,   ScalarType::Float8_e5m2fnuz,
    ScalarType::Float8_e4m3fnuz, ScalarType::UInt16,      ScalarType::UInt32,          ScalarType::UInt64};

TEST(EveryDtype, ZerosOnesAndFullMakeTensorsOfEveryRealDtype) {
  for (ScalarType dtype : kNewRealDtypes) {
    SCOPED_TRACE(toString(dtype));
    const Tensor z = ops::zeros({2, 3}, dtype);
    EXPECT_EQ(z.scalar_type(), dtype);
    EXPECT_EQ(z.element_size(), elementSize(dtype));
    EXPECT_EQ(doublesOf(z), std::vector<double>(6, 0.0));
    EXPECT_EQ(doublesOf(ops::ones({2}, dtype)), std::vector<double>(2, 1.0));
    EXPECT_EQ(doublesOf(ops::full({3}, 7, dtype)), std::vector<double>(3, 7.0));
  }
}

TEST(EveryDtype, FullRefusesAValueItsDtypeCannotHold) {
  EXPECT_THAT(errorMessageOf([] { ops::full({1}, 70000, ScalarType::Half); }),
              HasSubstr("value 70000 cannot be converted to type Half without overflow"));
  EXPECT_THAT(errorMessageOf([] { ops::full({1}, -256, ScalarType::Byte); }),
              HasSubstr("value -256 cannot be converted to type Byte without overflow"));
  EXPECT_THAT(errorMessageOf([] { ops::full({1}, -1.0, ScalarType::Byte); }),
              HasSubstr("value -1 cannot be converted to type Byte without overflow"));
  EXPECT_THAT(errorMessageOf([] { ops::full({1}, 500.0, ScalarType::Float8_e4m3fn); }),
              HasSubstr("cannot be converted to type Float8_e4m3fn without overflow"));
  EXPECT_EQ(doublesOf(ops::full({1}, std::numeric_limits<double>::infinity(), ScalarType::BFloat16)),
            std::vector<double>{std::numeric_limits<double>::infinity()});
}

// As c10's checked conversion: an integer whose magnitude an unsigned dtype holds wraps, as
// torch.full((1,), -1, dtype=torch.uint8) gives 255.
TEST(EveryDtype, FullWrapsANegativeIntegerIntoAnUnsignedDtypeAsPyTorch) {
  EXPECT_EQ(doublesOf(ops::full({1}, -1, ScalarType::Byte)), std::vector<double>{255.0});
  EXPECT_EQ(doublesOf(ops::full({1}, -255, ScalarType::Byte)), std::vector<double>{1.0});
  EXPECT_EQ(doublesOf(ops::full({1}, -1, ScalarType::UInt16)), std::vector<double>{65535.0});
}

TEST(EveryDtype, EmptyMakesTensorsOfTheStorageDtypesToo) {
  for (ScalarType dtype : {ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble,
                           ScalarType::QInt8, ScalarType::QUInt4x2, ScalarType::QInt32, ScalarType::Bits16}) {
    const Tensor t = ops::empty({3}, dtype);
    EXPECT_EQ(t.scalar_type(), dtype);
    EXPECT_EQ(t.storage()->nbytes(), 3 * elementSize(dtype)) << dtype;
  }
}

TEST(EveryDtype, ToCopyConvertsAsTheElementTypesConvert) {
  const std::vector<float> values = {1.5f, -2.0f, 65504.0f, 70000.0f, 1e-8f, 3.14159f, -0.0f};
  const Tensor floats = tensor<float>(values);
  const Tensor halves = floats.to(ScalarType::Half);
  ASSERT_EQ(halves.scalar_type(), ScalarType::Half);
  const Tensor bf16 = ops::_to_copy(floats, ScalarType::BFloat16);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(halves.data_ptr<Half>()[i].bits(), Half(values[i]).bits()) << values[i];
    EXPECT_EQ(bf16.data_ptr<BFloat16>()[i].bits(), BFloat16(values[i]).bits()) << values[i];
  }
  // Back to Float exactly, and through Double, Long, Char and Byte as C++ converts.
  const std::vector<double> back = doublesOf(halves.to(ScalarType::Float));
  EXPECT_EQ(back[0], 1.5);
  EXPECT_EQ(back[2], 65504.0);
  EXPECT_TRUE(std::isinf(back[3]));
  EXPECT_EQ(doublesOf(tensor<float>({3.75f, -3.75f}).to(ScalarType::Half).to(ScalarType::Char)),
            (std::vector<double>{3, -3}));
  EXPECT_EQ(doublesOf(tensor<int64_t>({300, -1}).to(ScalarType::Byte)), (std::vector<double>{44, 255}));
  EXPECT_EQ(doublesOf(tensor<int32_t>({2049}).to(ScalarType::Half)), (std::vector<double>{2048}));
  const Tensor big = ops::full({1}, int64_t{1} << 62, ScalarType::UInt64);
  EXPECT_EQ(big.to(ScalarType::Double).item<double>(), 4611686018427387904.0);
  EXPECT_EQ(tensor<bool>({true}).to(ScalarType::Float8_e4m3fn).item<float>(), 1.0f);
}

TEST(EveryDtype, CopiesKeepEveryBitThroughStridedViews) {
  // A transposed Half view copied element by element keeps NaN payloads, signs and infinities.
  const std::vector<uint16_t> bits = {0x7E01, 0x8000, 0x7C00, 0x0001, 0xFBFF, 0x3C00};
  Tensor h = ops::empty({2, 3}, ScalarType::Half);
  std::memcpy(h.data_ptr(), bits.data(), bits.size() * sizeof(uint16_t));
  const Tensor t = ops::contiguous(ops::transpose(h, 0, 1));
  const Tensor back = ops::contiguous(ops::transpose(t, 0, 1));
  EXPECT_EQ(std::memcmp(back.data_ptr(), bits.data(), bits.size() * sizeof(uint16_t)), 0);
  // 16-byte elements too.
  Tensor c = ops::empty({2, 2}, ScalarType::ComplexDouble);
  Complex<double>* z = static_cast<Complex<double>*>(c.data_ptr());
  for (int i = 0; i < 4; ++i) z[i] = Complex<double>(i, -i);
  const Tensor ct = ops::contiguous(ops::transpose(c, 0, 1));
  const Complex<double>* zt = static_cast<const Complex<double>*>(ct.data_ptr());
  EXPECT_EQ(zt[1], Complex<double>(2, -2));
  EXPECT_EQ(zt[2], Complex<double>(1, -1));
}

TEST(EveryDtype, AQuantizedOrBitsDtypeConvertsOnlyToItself) {
  const Tensor q = ops::zeros({2}, ScalarType::Float).to(ScalarType::Float);
  EXPECT_THAT(errorMessageOf([&] { q.to(ScalarType::QInt8); }), HasSubstr("of dtype Float to self of dtype QInt8"));
  EXPECT_THAT(errorMessageOf([&] { ops::empty({2}, ScalarType::Bits16).to(ScalarType::ComplexFloat); }),
              HasSubstr("cannot convert src of dtype Bits16 to self of dtype ComplexFloat"));
  EXPECT_EQ(ops::clone(ops::empty({2}, ScalarType::QInt8)).scalar_type(), ScalarType::QInt8);
}

// As PyTorch's: part by part between complex dtypes, the real part to a real dtype, a real value as
// the real part of a complex one (See Note [Complex values convert as PyTorch's do] in copy.cpp).
TEST(EveryDtype, ComplexValuesConvertAsPyTorchsDo) {
  Tensor z = ops::empty({2}, ScalarType::ComplexFloat);
  auto* c = static_cast<Complex<float>*>(z.data_ptr());
  c[0] = Complex<float>(1.5f, -2.0f);
  c[1] = Complex<float>(-3.25f, 0.5f);
  EXPECT_EQ(doublesOf(z.to(ScalarType::Double)), (std::vector<double>{1.5, -3.25}));
  EXPECT_EQ(doublesOf(z.to(ScalarType::Int)), (std::vector<double>{1, -3}));
  const Tensor wide = z.to(ScalarType::ComplexDouble);
  EXPECT_EQ(static_cast<const Complex<double>*>(wide.data_ptr())[1], Complex<double>(-3.25, 0.5));
  const Tensor half = z.to(ScalarType::ComplexHalf);
  EXPECT_EQ(static_cast<float>(static_cast<const Complex<Half>*>(half.data_ptr())[0].imag()), -2.0f);
  const Tensor from_real = tensor<int64_t>({7, -1}).to(ScalarType::ComplexFloat);
  EXPECT_EQ(static_cast<const Complex<float>*>(from_real.data_ptr())[0], Complex<float>(7.0f, 0.0f));
  // copy_ and ExecuTorch's dim-order copy take the same path.
  Tensor into = ops::zeros({2}, ScalarType::Float);
  into.copy_(z);
  EXPECT_EQ(doublesOf(into), (std::vector<double>{1.5, -3.25}));
  Tensor ordered = ops::empty({0}, ScalarType::ComplexDouble);
  ::dim_order_ops::ops::_to_dim_order_copy_out(ordered, tensor<float>({2.5f, 4.0f}));
  EXPECT_EQ(static_cast<const Complex<double>*>(ordered.data_ptr())[1], Complex<double>(4.0, 0.0));
}

TEST(EveryDtype, KernelsThatCannotTakeADtypeRefuseItNamingOperatorAndDtype) {
  const Tensor f8 = ops::ones({2}, ScalarType::Float8_e5m2);
  const std::string add = errorMessageOf([&] { ops::add(f8, f8); });
  EXPECT_THAT(add, HasSubstr("aten::add"));
  EXPECT_THAT(add, HasSubstr("Float8_e5m2"));
  const std::string bitwise = errorMessageOf([&] { ops::bitwise_not(ops::ones({2}, ScalarType::BFloat16)); });
  EXPECT_THAT(bitwise, HasSubstr("aten::bitwise_not"));
  EXPECT_THAT(bitwise, HasSubstr("BFloat16"));
  const std::string neg = errorMessageOf([&] { ops::abs(ops::empty({2}, ScalarType::ComplexFloat)); });
  EXPECT_THAT(neg, HasSubstr("aten::abs"));
  EXPECT_THAT(neg, HasSubstr("ComplexFloat"));
}

TEST(EveryDtype, ItemAndAllcloseReadEveryRealDtype) {
  EXPECT_EQ(ops::full({}, 2.5, ScalarType::Half).item<float>(), 2.5f);
  EXPECT_EQ(ops::full({}, -7, ScalarType::Char).item<int64_t>(), -7);
  EXPECT_EQ(ops::full({}, 3, ScalarType::Byte).item<double>(), 3.0);
  EXPECT_TRUE(allclose(ops::full({2}, 0.1, ScalarType::BFloat16), ops::full({2}, 0.1f), 1e-2, 0));
  EXPECT_FALSE(allclose(ops::full({2}, 0.1, ScalarType::Half), ops::full({2}, 0.1f), 1e-6, 0));
}

TEST(EveryDtype, PrintsTheValuesOfEveryRealDtype) {
  EXPECT_EQ(tensor<float>({1.5f, -2.0f}).to(ScalarType::Half).toString(), "tensor([ 1.5000, -2.0000], dtype=Half)");
  EXPECT_EQ(tensor<float>({1.0f, 2.0f}).to(ScalarType::BFloat16).toString(), "tensor([1., 2.], dtype=BFloat16)");
  EXPECT_EQ(tensor<int64_t>({-128, 5}).to(ScalarType::Char).toString(), "tensor([-128,    5], dtype=Char)");
  EXPECT_EQ(ops::full({1}, int64_t{1} << 62, ScalarType::UInt64).toString(),
            "tensor([4611686018427387904], dtype=UInt64)");
}

TEST(EveryDtype, PrintsComplexElementsAsPairsAndQuantizedOnesAsTheirIntegers) {
  Tensor c = ops::empty({2}, ScalarType::ComplexFloat);
  c.data_ptr<Complex<float>>()[0] = Complex<float>(1.5f, -0.25f);
  c.data_ptr<Complex<float>>()[1] = Complex<float>(-2.0f, 3.0f);
  EXPECT_EQ(c.toString(), "tensor([ 1.5000-0.2500j, -2.0000+3.0000j], dtype=ComplexFloat)");
  Tensor whole = ops::empty({1}, ScalarType::ComplexDouble);
  whole.data_ptr<Complex<double>>()[0] = Complex<double>(1, 2);
  EXPECT_EQ(whole.toString(), "tensor([1.+2.j], dtype=ComplexDouble)");
  Tensor q = ops::empty({2}, ScalarType::QInt8);
  q.data_ptr<qint8>()[0] = qint8(-7);
  q.data_ptr<qint8>()[1] = qint8(12);
  EXPECT_EQ(q.toString(), "tensor([-7, 12], dtype=QInt8)");
  Tensor bits = ops::empty({1}, ScalarType::Bits16);
  bits.data_ptr<bits16>()[0] = bits16(0xFFFF);
  EXPECT_EQ(bits.toString(), "tensor([65535], dtype=Bits16)");
}

// ExecuTorch's permute, transpose, t, diagonal, as_strided and padding kernels take its ALL family
// (the real types, complex, quantized and bits), and its view copies, clone, repeat, index_select,
// embedding, cat and pixel_shuffle copy bytes of any dtype. These move elements without reading
// them, so every dtype of ALL moves bit for bit (their YAML entries declare it).
TEST(EveryDtype, TheElementMovingKernelsMoveTheStorageDtypesBitForBit) {
  for (ScalarType dtype : {ScalarType::ComplexFloat, ScalarType::ComplexDouble, ScalarType::QInt8, ScalarType::QUInt8,
                           ScalarType::QInt32, ScalarType::Bits16}) {
    SCOPED_TRACE(toString(dtype));
    Tensor t = ops::empty({2, 3}, dtype);
    auto* bytes = static_cast<unsigned char*>(t.data_ptr());
    for (size_t i = 0; i < t.storage()->nbytes(); ++i) bytes[i] = static_cast<unsigned char>(i * 7 + 1);
    const size_t item = elementSize(dtype);
    auto sameElement = [&](const Tensor& out, int64_t out_index, int64_t in_index) {
      return std::memcmp(static_cast<const char*>(out.data_ptr()) + out_index * item, bytes + in_index * item, item) == 0;
    };
    auto fresh = [&] { return ops::empty({0}, dtype); };
    Tensor permuted = fresh(), transposed = fresh(), swapped = fresh();
    ops::permute_copy_out(permuted, t, {1, 0});
    EXPECT_TRUE(sameElement(permuted, 1, 3));  // [0, 1] of the result is [1, 0] of t
    ops::transpose_copy_out(transposed, t, 0, 1);
    EXPECT_TRUE(sameElement(transposed, 5, 5));
    ops::t_copy_out(swapped, t);
    EXPECT_TRUE(sameElement(swapped, 4, 2));
    EXPECT_TRUE(sameElement(ops::diagonal_copy(t), 1, 4));
    EXPECT_TRUE(sameElement(ops::as_strided_copy(t, {2}, {2}, 1), 1, 3));
    const Tensor padded = ops::reflection_pad1d(t, {1, 0});  // each row [x1, x0, x1, x2]
    EXPECT_EQ(padded.scalar_type(), dtype);
    EXPECT_TRUE(sameElement(padded, 0, 1));
    const Tensor replicated = ops::replication_pad1d(t, {0, 1});  // each row [x0, x1, x2, x2]
    EXPECT_TRUE(sameElement(replicated, 7, 5));
    // The copies ExecuTorch makes by bytes, of any dtype.
    Tensor o[12];
    for (Tensor& each : o) each = fresh();
    ops::view_copy_out(o[0], t, {3, 2});
    ops::expand_copy_out(o[1], t, {2, 2, 3});
    ops::squeeze_copy_out(o[2], t, int64_t{0});
    ops::unsqueeze_copy_out(o[3], t, 0);
    ops::alias_copy_out(o[4], t);
    ops::select_copy_out(o[5], t, 0, 1);
    ops::slice_copy_out(o[6], t, 1, 1);
    ops::narrow_copy_out(o[7], t, 1, 2, 1);
    ops::detach_copy_out(o[8], t);
    ops::lift_fresh_copy_out(o[9], t);
    ops::clone_out(o[10], t);
    ops::repeat_out(o[11], t, {1, 2});
    EXPECT_TRUE(sameElement(o[0], 5, 5) && sameElement(o[1], 9, 3) && sameElement(o[2], 4, 4) &&
                sameElement(o[3], 2, 2) && sameElement(o[4], 1, 1));
    EXPECT_TRUE(sameElement(o[5], 0, 3) && sameElement(o[6], 3, 5) && sameElement(o[7], 1, 5) &&
                sameElement(o[8], 3, 3) && sameElement(o[9], 0, 0) && sameElement(o[10], 5, 5) &&
                sameElement(o[11], 4, 1));
    // And those that gather whole elements by index.
    Tensor gathered[5];  // index_select, embedding, cat, and a [1, 4, 1, 1] view for pixel_shuffle
    for (Tensor& each : gathered) each = fresh();
    const Tensor index = tensor<int64_t>({1, 0});
    ops::index_select_out(gathered[0], t, 0, index);
    ops::embedding_out(gathered[1], t, index);
    ops::cat_out(gathered[2], {t, t}, 1);
    ops::view_copy_out(gathered[3], ops::slice_copy_out(gathered[4], t, 1, 0, 2), {1, 4, 1, 1});
    Tensor shuffled = fresh();
    ops::pixel_shuffle_out(shuffled, gathered[3], 2);  // [1, 1, 2, 2]: channel k becomes element k
    EXPECT_TRUE(sameElement(gathered[0], 0, 3) && sameElement(gathered[1], 4, 1) && sameElement(gathered[2], 3, 0));
    EXPECT_TRUE(sameElement(shuffled, 2, 3));  // element 2 is channel 2: t's [1, 0]
  }
}

}  // namespace
}  // namespace sy
