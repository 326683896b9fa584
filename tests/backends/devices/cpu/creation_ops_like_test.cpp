// The tensor-based creation operators through the dispatcher: empty_like, zeros_like, ones_like,
// full_like (with their out= forms) and _to_copy (+ _to_copy.out). Split from
// creation_ops_test.cpp to keep files short. Expected values are literals or element-wise C++
// conversions done here.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

Tensor transposedFloats() { return ops::transpose(tensor<float>({1.5f, -2.5f, 3.75f, 0, -0.5f, 9}, {2, 3}), 0, 1); }

// Counts calls of two CPU kernels while a test's Library is alive (the real kernels still run).
int g_like_empty_calls = 0;
int g_copy_calls = 0;
Tensor countingLikeEmpty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory,
                         std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  ++g_like_empty_calls;
  return cpu::empty_memory_format_cpu(size, dtype, layout, device, pin_memory, memory_format, ctx);
}
Tensor& countingCopy(Tensor& self, const Tensor& src, bool non_blocking, const KernelContext& ctx) {
  ++g_copy_calls;
  return cpu::copy_cpu(self, src, non_blocking, ctx);
}
constexpr KernelContext kCountingLikeEmpty{"aten::empty.memory_format", OutputForm::Functional};
constexpr KernelContext kCountingCopy{"aten::copy_", OutputForm::InPlace};

// ---- empty_like, zeros_like, ones_like, full_like ------------------------------------------------

TEST(CreationLike, EmptyLikeTakesShapeDtypeAndStridesFromSelf) {
  Tensor t = transposedFloats();
  Tensor e = ops::empty_like(t);
  EXPECT_THAT(e.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(e.strides(), ElementsAre(1, 3));
  EXPECT_EQ(e.scalar_type(), ScalarType::Float);
  EXPECT_NE(e.storage().get(), t.storage().get());
  EXPECT_THAT(ops::empty_like(t, ScalarType::Long, MemoryFormat::Contiguous).strides(), ElementsAre(2, 1));
  EXPECT_EQ(ops::empty_like(t, ScalarType::Long).scalar_type(), ScalarType::Long);
}

TEST(CreationLike, ZerosAndOnesLikeKeepSelfsDtypeUnlessGivenOne) {
  Tensor ints = tensor<int32_t>({5, 6, 7});
  EXPECT_THAT(valuesOf<int32_t>(ops::zeros_like(ints)), ElementsAre(0, 0, 0));
  EXPECT_THAT(valuesOf<int32_t>(ops::ones_like(ints)), ElementsAre(1, 1, 1));
  EXPECT_THAT(valuesOf<bool>(ops::ones_like(ints, ScalarType::Bool)), ElementsAre(true, true, true));
  EXPECT_THAT(valuesOf<double>(ops::zeros_like(ints, ScalarType::Double)), ElementsAre(0, 0, 0));
}

TEST(CreationLike, FullLikeConvertsTheValueToSelfsDtype) {
  // Unlike full, full_like does not infer a dtype from the value.
  EXPECT_THAT(valuesOf<int64_t>(ops::full_like(tensor<int64_t>({1, 2}), 2.7)), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(ops::full_like(transposedFloats(), -4)), Each(-4.0f));
  EXPECT_EQ(errorMessageOf([] { ops::full_like(tensor<int32_t>({1}), 1e10); }),
            "aten::full_like: value 1e+10 cannot be converted to type Int without overflow");
}

TEST(CreationLike, FilledLikePreservesStridesOfADenseInput) {
  Tensor z = ops::zeros_like(transposedFloats());
  EXPECT_THAT(z.strides(), ElementsAre(1, 3));
  EXPECT_THAT(valuesOf<float>(z), Each(0.0f));
  Tensor nhwc = ops::ones_like(ops::zeros({1, 2, 3, 3}), {}, MemoryFormat::ChannelsLast);
  EXPECT_THAT(nhwc.strides(), ElementsAre(18, 1, 6, 2));
  EXPECT_THAT(valuesOf<float>(nhwc), Each(1.0f));
}

TEST(CreationLike, ZeroDimAndEmptyInputs) {
  Tensor scalar = full({}, 3.0, ScalarType::Double);
  EXPECT_EQ(ops::ones_like(scalar).dim(), 0);
  EXPECT_EQ(valuesOf<double>(ops::ones_like(scalar)), std::vector<double>{1});
  EXPECT_THAT(ops::full_like(empty({0, 2}), 5).sizes(), ElementsAre(0, 2));
}

TEST(CreationLike, OutFormsResizeFillAndReturnTheCallersTensor) {
  Tensor self = ops::zeros({2, 2});
  Tensor out = empty({7}, ScalarType::Long);
  EXPECT_EQ(&ops::full_like_out(out, self, 3), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<int64_t>(out), Each(3));
  EXPECT_EQ(&ops::zeros_like_out(out, self), &out);
  EXPECT_THAT(valuesOf<int64_t>(out), Each(0));
  EXPECT_EQ(&ops::ones_like_out(out, self), &out);
  EXPECT_THAT(valuesOf<int64_t>(out), Each(1));
  Tensor other = empty({1});
  EXPECT_EQ(&ops::empty_like_out(other, self), &other);
  EXPECT_THAT(other.sizes(), ElementsAre(2, 2));
}

TEST(CreationLike, RejectsChannelsLastForNonFourDimensionalInputs) {
  EXPECT_EQ(errorMessageOf([] { ops::zeros_like(ops::zeros({2, 3}), {}, MemoryFormat::ChannelsLast); }),
            "aten::zeros_like: memory_format ChannelsLast needs a 4-D tensor (N, C, H, W), but 'self' is 2-D");
  Tensor out = empty({1});
  EXPECT_EQ(errorMessageOf([&] { ops::ones_like_out(out, ops::zeros({3}), MemoryFormat::ChannelsLast); }),
            "aten::ones_like.out: memory_format ChannelsLast needs a 4-D tensor (N, C, H, W), but 'self' is 1-D");
}

TEST(CreationLike, FunctionalFormsAllocateOnceThroughTheDispatcher) {
  g_like_empty_calls = 0;
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("empty.memory_format", withContext<&countingLikeEmpty, &kCountingLikeEmpty>());
  ops::zeros_like(transposedFloats());
  ops::full({3}, 1.5);
  ops::arange(4);
  EXPECT_EQ(g_like_empty_calls, 3);
}

// ---- _to_copy ------------------------------------------------------------------------------------

TEST(CreationToCopy, ConvertsFloatToEveryDtypeLikeACast) {
  const std::vector<float> source = {1.5f, -2.5f, 0.0f, 7.75f};
  Tensor x = tensor<float>(source);
  std::vector<int32_t> ints;
  std::vector<bool> flags;
  for (float v : source) {
    ints.push_back(static_cast<int32_t>(v));
    flags.push_back(v != 0);
  }
  EXPECT_EQ(valuesOf<int32_t>(ops::_to_copy(x, ScalarType::Int)), ints);
  EXPECT_EQ(valuesOf<bool>(ops::_to_copy(x, ScalarType::Bool)), flags);
  EXPECT_THAT(valuesOf<int64_t>(ops::_to_copy(x, ScalarType::Long)), ElementsAre(1, -2, 0, 7));
  EXPECT_THAT(valuesOf<double>(ops::_to_copy(x, ScalarType::Double)), ElementsAre(1.5, -2.5, 0, 7.75));
}

TEST(CreationToCopy, AlwaysCopiesEvenWithoutAConversion) {
  Tensor x = tensor<int64_t>({1, 2, 3});
  Tensor y = ops::_to_copy(x);
  EXPECT_EQ(y.scalar_type(), ScalarType::Long);
  EXPECT_NE(y.storage().get(), x.storage().get());
  EXPECT_THAT(valuesOf<int64_t>(y), ElementsAre(1, 2, 3));
}

TEST(CreationToCopy, PreservesTheLayoutOfADenseInput) {
  Tensor y = ops::_to_copy(transposedFloats(), ScalarType::Double);
  EXPECT_THAT(y.strides(), ElementsAre(1, 3));
  EXPECT_THAT(valuesOf<double>(y), ElementsAre(1.5, 0, -2.5, -0.5, 3.75, 9));
}

TEST(CreationToCopy, ExplicitCpuDeviceOverloadCopiesOnTheCpu) {
  Tensor y = ops::_to_copy(tensor<float>({2}), ScalarType::Int, std::nullopt, kCPU, std::nullopt, false,
                           MemoryFormat::Contiguous);
  EXPECT_TRUE(y.is_cpu());
  EXPECT_THAT(valuesOf<int32_t>(y), ElementsAre(2));
}

TEST(CreationToCopy, AllocatesAndCopiesThroughTheDispatcher) {
  // Both steps are operator calls, so another device's empty and copy_ take over transfers.
  g_like_empty_calls = 0;
  g_copy_calls = 0;
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("empty.memory_format", withContext<&countingLikeEmpty, &kCountingLikeEmpty>());
  counting.impl("copy_", withContext<&countingCopy, &kCountingCopy>());
  ops::_to_copy(tensor<float>({1, 2}), ScalarType::Double);
  EXPECT_EQ(g_like_empty_calls, 1);
  EXPECT_EQ(g_copy_calls, 1);
}

TEST(CreationToCopy, OutFormConvertsToOutsDtypeAndReturnsIt) {
  Tensor out = empty({5}, ScalarType::Int);
  Tensor& result = ops::_to_copy_out(out, tensor<double>({-1.75, 2.5}));
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(-1, 2));
}

TEST(CreationToCopy, NanAndInfinitySurviveFloatingConversions) {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor y = ops::_to_copy(tensor<double>({std::nan(""), -inf}), ScalarType::Float);
  const std::vector<float> values = valuesOf<float>(y);
  EXPECT_TRUE(std::isnan(values[0]));
  EXPECT_EQ(values[1], -std::numeric_limits<float>::infinity());
}

}  // namespace
}  // namespace sy
