// Kernel arguments (a program's Int values, a model's) whose size arithmetic overflows int64: each
// is an error naming the operator and the argument, or, where the sizes are legal and only a naive
// formula overflowed, the right result. Before, they were signed overflows: a wrong output size, a
// read before the input, a vector of 2^62 elements, a division of INT64_MIN by -1.
#include <cstdint>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

constexpr int64_t k2To61 = int64_t{1} << 61;
constexpr int64_t k2To62 = int64_t{1} << 62;
constexpr int64_t kMaxInt = std::numeric_limits<int64_t>::max();

// The image 1..16 in row-major order, shaped (1, 1, 4, 4).
Tensor image4x4() {
  std::vector<float> values;
  for (int i = 1; i <= 16; ++i) values.push_back(static_cast<float>(i));
  return tensor<float>(values, {1, 1, 4, 4});
}

TEST(KernelArgumentOverflow, MaxPoolRefusesADilatedKernelPast64Bits) {
  // kernel 2^62 + 1 dilated by 2 reaches 2^63 positions.
  EXPECT_THAT(errorMessageOf([] { ops::max_pool2d(image4x4(), {k2To62 + 1, 1}, {1, 1}, {0, 0}, {2, 1}); }),
              HasSubstr("aten::max_pool2d: 'kernel_size' (4611686018427387905, 1) with 'dilation' (2, 1) and "
                        "'padding' (0, 0) overflow 64-bit sizes for an input of 4 x 4"));
  EXPECT_THAT(errorMessageOf([] { ops::max_pool2d(image4x4(), {kMaxInt, 2}, {1, 1}, {kMaxInt / 2, 0}); }),
              HasSubstr("'padding' (4611686018427387903, 0) overflow 64-bit sizes"));
}

TEST(KernelArgumentOverflow, PoolsACeilModeWindowWithAStrideNearTheLargestInt) {
  // One window, at the top left: ceil((4 - 2) / stride) + 1 = 2 windows, the second starting past
  // the input. Before, the ceiling was computed as (4 - 2) + (stride - 1), a signed overflow.
  const Tensor y = ops::max_pool2d(image4x4(), {2, 2}, {kMaxInt, kMaxInt}, {0, 0}, {1, 1}, /*ceil_mode=*/true);
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(6));
  const Tensor a = ops::avg_pool2d(image4x4(), {2, 2}, {kMaxInt, kMaxInt}, {0, 0}, /*ceil_mode=*/true);
  EXPECT_THAT(valuesOf<float>(a), ElementsAre(3.5f));
}

TEST(KernelArgumentOverflow, PoolsAKernelOfMostlyPaddingAtTheCostOfItsInput) {
  // A 2^62-wide window padded by 2^61 on each side covers the whole row from every output
  // position: five outputs, each the row's maximum. Before, a vector of 2^62 column ranges.
  const Tensor y = ops::max_pool2d(image4x4(), {1, k2To62}, {1, 1}, {0, k2To61});
  EXPECT_THAT(y.sizes(), ElementsAre(1, 1, 4, 5));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 12, 12, 12, 12, 12, 16, 16, 16, 16, 16));
  // The same kernel down the columns, with indices.
  const auto [down, indices] = ops::max_pool2d_with_indices(image4x4(), {k2To62, 1}, {1, 1}, {k2To61, 0});
  EXPECT_THAT(down.sizes(), ElementsAre(1, 1, 5, 4));
  EXPECT_THAT(valuesOf<int64_t>(indices).front(), 12);
}

TEST(KernelArgumentOverflow, AvgPoolRefusesAWindowWithMorePositionsThan64BitsHold) {
  // Padding half the kernel keeps the output non-empty.
  const int64_t k2To32 = int64_t{1} << 32;
  EXPECT_THAT(errorMessageOf([&] { ops::avg_pool2d(image4x4(), {k2To32, k2To32}, {}, {k2To32 / 2, k2To32 / 2}); }),
              HasSubstr("aten::avg_pool2d: 'kernel_size' (4294967296, 4294967296) has more positions than fit in 64 bits"));
}

TEST(KernelArgumentOverflow, AvgPoolDividesTheSmallestLongByMinusOneWithoutTrapping) {
  const Tensor x = tensor<int64_t>({std::numeric_limits<int64_t>::min()}, {1, 1, 1, 1});
  const Tensor y = ops::avg_pool2d(x, {1, 1}, {1, 1}, {0, 0}, false, true, /*divisor_override=*/-1);
  EXPECT_THAT(valuesOf<int64_t>(y), ElementsAre(std::numeric_limits<int64_t>::min()));  // wraps, as neg does
}

TEST(KernelArgumentOverflow, ConvolutionRefusesPaddingOrDilationPast64Bits) {
  const Tensor weight = sy::ones({1, 1, 3, 3});
  EXPECT_THAT(errorMessageOf([&] { ops::convolution(image4x4(), weight, std::nullopt, {1, 1}, {k2To62, 0}, {1, 1}, false, {0, 0}, 1); }),
              HasSubstr("aten::convolution: 'padding' (4611686018427387904, 0) overflows 64-bit sizes for an input of 4 x 4"));
  EXPECT_THAT(errorMessageOf([&] { ops::convolution(image4x4(), weight, std::nullopt, {1, 1}, {0, 0}, {k2To62, 1}, false, {0, 0}, 1); }),
              HasSubstr("aten::convolution: 'dilation' (4611686018427387904, 1) overflows 64-bit sizes for a kernel of 3 x 3"));
  EXPECT_THAT(errorMessageOf([] { ops::convolution(sy::ones({1, 1, 4, 4}), sy::ones({0, 4, 1, 1}), std::nullopt, {1, 1},
                                                   {0, 0}, {1, 1}, false, {0, 0}, k2To62); }),
              HasSubstr("'groups' (4611686018427387904) times the in_channels / groups of 'weight' (4) overflows"));
}

TEST(KernelArgumentOverflow, ValidOutputRangeIsExactForExtremeStridesAndOffsets) {
  using cpu::nn_detail::validOutputRange;
  // Output 0 would read input -5; output 1 is past the input. Before, -offset + stride - 1
  // overflowed and output 0 was let through to read before the input.
  EXPECT_EQ(validOutputRange(3, kMaxInt, -5, 4), std::make_pair(int64_t{1}, int64_t{1}));
  EXPECT_EQ(validOutputRange(10, 1, std::numeric_limits<int64_t>::min(), 4), std::make_pair(int64_t{10}, int64_t{10}));
  EXPECT_EQ(validOutputRange(10, 3, -7, 20), std::make_pair(int64_t{3}, int64_t{9}));
  EXPECT_EQ(validOutputRange(10, kMaxInt, 2, 4), std::make_pair(int64_t{0}, int64_t{1}));
}

TEST(KernelArgumentOverflow, ArangeRefusesARangeOfTwoToTheSixtyThree) {
  // 0 down to INT64_MIN in steps of -1: its length divided INT64_MIN by -1 and trapped.
  EXPECT_THAT(errorMessageOf([] { ops::arange(0, std::numeric_limits<int64_t>::min(), -1); }),
              HasSubstr("aten::arange.start_step: invalid size, possible overflow? (start 0, end -9223372036854775808)"));
}

TEST(KernelArgumentOverflow, CatRefusesSizesThatAddUpPast64Bits) {
  const Tensor wide = ops::expand(sy::ones({1}), {k2To62});
  EXPECT_THAT(errorMessageOf([&] { ops::cat({wide, wide, wide}, 0); }),
              HasSubstr("aten::cat: the sizes of the tensors in dimension 0 add up to more than 64 bits hold (at tensor "
                        "number 1 in the list)"));
}

TEST(KernelArgumentOverflow, ChannelsLastRefusesAnEmptySizeWhoseStridesOverflow) {
  const int64_t k2To40 = int64_t{1} << 40;
  EXPECT_THAT(errorMessageOf([&] {
                cpu::empty_memory_format_cpu({0, k2To40, k2To40, k2To40}, ScalarType::Float, std::nullopt, std::nullopt,
                                             std::nullopt, MemoryFormat::ChannelsLast,
                                             KernelContext{"aten::empty.memory_format", OutputForm::Functional});
              }),
              HasSubstr("aten::empty.memory_format: the strides of size (0, 1099511627776, 1099511627776, "
                        "1099511627776) in dim order (0, 2, 3, 1) do not fit in 64 bits"));
}

}  // namespace
}  // namespace sy
