// The direct convolution (backends/kernels/optimized/direct_convolution.h) against the portable
// convolution kernel, which the oracle suite checks against PyTorch: every count of filters in a
// register block and past it, images whose flat positions end anywhere in a block, padding,
// dilation, rectangular and 1x1 kernels, with and without bias, at one thread and two; which
// geometries it takes; and that the optimized convolution runs it. Each case runs the AVX2 and the
// AVX-512 loop, each skipped where this build or CPU lacks it.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/kernels/optimized/direct_convolution.h"
#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using optimized::DirectGeometry;

struct Operands {
  Tensor input, weight;
  std::optional<Tensor> bias;
};

Operands operandsOf(const DirectGeometry& g, bool bias, uint32_t seed) {
  return {testing::randomTensor({g.channels, g.height, g.width}, seed),
          testing::randomTensor({g.filters, g.channels, g.kernel_h, g.kernel_w}, seed + 1),
          bias ? std::optional<Tensor>(testing::randomTensor({g.filters}, seed + 2)) : std::nullopt};
}

// The portable kernel's result (unbatched input, stride 1).
Tensor portableResult(const DirectGeometry& g, const Operands& o) {
  Tensor out = sy::empty({1});
  cpu::convolution_out_cpu(o.input, o.weight, o.bias, {1}, {g.pad_h, g.pad_w}, {g.dilation_h, g.dilation_w}, false,
                           {0}, 1, out, {"aten::convolution.out"});
  return out;
}

Tensor directResult(const DirectGeometry& g, const Operands& o, const Tensor& like, optimized::InstructionSet set) {
  Tensor out = ops::full(like.sizes(), std::nanf(""));
  optimized::directConvolution(g, o.input.data_ptr<float>(), o.weight.data_ptr<float>(),
                               o.bias ? o.bias->data_ptr<float>() : nullptr, out.data_ptr<float>(), set);
  return out;
}

// Within Float rounding of sums of channels * taps products of values in [-1, 1].
void expectNearPortable(const Tensor& actual, const Tensor& expected, const std::string& where) {
  ASSERT_TRUE(sameSizes(actual.sizes(), expected.sizes())) << where;
  const float* a = actual.data_ptr<float>();
  const float* e = expected.data_ptr<float>();
  for (int64_t i = 0; i < actual.numel(); ++i) {
    ASSERT_NEAR(a[i], e[i], 1e-4f * (1.0f + std::fabs(e[i]))) << where << ", element " << i;
  }
}

std::string describe(const DirectGeometry& g) {
  return std::to_string(g.channels) + "x" + std::to_string(g.height) + "x" + std::to_string(g.width) + " by " +
         std::to_string(g.filters) + " " + std::to_string(g.kernel_h) + "x" + std::to_string(g.kernel_w) +
         " filters, padding (" + std::to_string(g.pad_h) + ", " + std::to_string(g.pad_w) + "), dilation (" +
         std::to_string(g.dilation_h) + ", " + std::to_string(g.dilation_w) + ")";
}

// Each instruction set with a direct loop, skipped where this build or CPU lacks it.
class OptimizedDirectConvolution : public ::testing::TestWithParam<optimized::InstructionSet> {
 protected:
  void SetUp() override {
    if (!optimized::directAvailable(set())) {
      GTEST_SKIP() << "no " << optimized::instructionSetName(set()) << " here: its direct convolution never runs";
    }
  }
  optimized::InstructionSet set() const { return GetParam(); }
};

TEST_P(OptimizedDirectConvolution, AgreesWithThePortableKernelOnEveryFilterCountAndPositionTail) {
  std::vector<DirectGeometry> cases;
  for (int64_t filters = 1; filters <= 17; ++filters) cases.push_back({3, 7, 9, filters, 3, 3, 1, 1, 1, 1});
  for (int64_t width = 1; width <= 20; ++width) cases.push_back({2, 5, width, 5, 1, 3, 0, 1, 1, 1});
  cases.push_back({4, 11, 13, 9, 5, 5, 2, 2, 1, 1});    // 5x5, same padding
  cases.push_back({3, 12, 10, 8, 3, 3, 2, 3, 2, 3});    // dilation (2, 3), padding (2, 3)
  cases.push_back({5, 9, 17, 12, 2, 4, 0, 0, 1, 1});    // rectangular, no padding
  cases.push_back({6, 8, 8, 10, 1, 1, 1, 2, 1, 1});     // 1x1 with padding
  cases.push_back({1, 30, 40, 1, 7, 1, 3, 0, 1, 1});    // one channel, one filter, 7x1
  cases.push_back({2, 3, 3, 4, 3, 3, 4, 4, 1, 1});      // padding larger than the kernel
  cases.push_back({16, 20, 24, 24, 3, 3, 1, 1, 1, 1});  // three full filter blocks, several position blocks
  for (size_t i = 0; i < cases.size(); ++i) {
    const DirectGeometry& g = cases[i];
    ASSERT_TRUE(optimized::directFits(g)) << describe(g);
    for (bool bias : {false, true}) {
      const Operands o = operandsOf(g, bias, 100 + 3 * i);
      const Tensor expected = portableResult(g, o);
      expectNearPortable(directResult(g, o, expected, set()), expected,
                         describe(g) + (bias ? ", with bias" : ", no bias"));
    }
  }
}

TEST_P(OptimizedDirectConvolution, GivesTheBiasAloneForAnImageWithoutChannels) {
  const DirectGeometry g{0, 12, 20, 5, 3, 3, 1, 1, 1, 1};
  ASSERT_TRUE(optimized::directPays(g));
  const Operands o = operandsOf(g, true, 3);
  const Tensor expected = portableResult(g, o);
  expectNearPortable(directResult(g, o, expected, set()), expected, describe(g));
  expectNearPortable(ops::convolution(o.input, o.weight, o.bias, {1}, {1}, {1}, false, {0}, 1), expected,
                     describe(g) + ", through the dispatcher");
}

TEST_P(OptimizedDirectConvolution, GivesTheSameBitsOnOneThreadAndOnTwo) {
  const DirectGeometry g{8, 40, 44, 20, 3, 3, 1, 1, 1, 1};
  const Operands o = operandsOf(g, true, 7);
  const Tensor expected = portableResult(g, o);
  const int threads = get_num_threads();
  set_num_threads(1);
  const Tensor one = directResult(g, o, expected, set());
  set_num_threads(2);
  const Tensor two = directResult(g, o, expected, set());
  set_num_threads(threads);
  expectNearPortable(one, expected, describe(g));
  EXPECT_EQ(std::memcmp(one.data_ptr<float>(), two.data_ptr<float>(), size_t(one.numel()) * sizeof(float)), 0);
}

TEST_P(OptimizedDirectConvolution, TakesGeometriesThatWasteLittleAndFitItsLimits) {
  EXPECT_TRUE(optimized::directPays({32, 56, 56, 64, 3, 3, 1, 1, 1, 1}));
  // 7x7 outputs on a 9-wide padded image: 49 outputs of 96 computed positions.
  EXPECT_FALSE(optimized::directPays({512, 7, 7, 512, 3, 3, 1, 1, 1, 1}));
  // A padded image of more than 32 MiB, and one whose flat offsets would overflow int32_t.
  EXPECT_FALSE(optimized::directFits({64, 512, 512, 8, 3, 3, 1, 1, 1, 1}));
  EXPECT_FALSE(optimized::directFits({1, 70000, 70000, 1, 3, 3, 0, 0, 1, 1}));
  EXPECT_FALSE(optimized::directPays({1, 70000, 70000, 1, 3, 3, 0, 0, 1, 1}));
  // Called anyway, it refuses before reading anything.
  EXPECT_THAT(sy::testing::errorMessageOf([this] {
                optimized::directConvolution({64, 512, 512, 8, 3, 3, 1, 1, 1, 1}, nullptr, nullptr, nullptr, nullptr, set());
              }),
              ::testing::HasSubstr("does not fit its limits"));
}

TEST_P(OptimizedDirectConvolution, RunsTheOptimizedConvolutionOfStrideOneWithGroupsAndBias) {
  // Two groups of 2 channels and 3 filters each: the direct result of each group, bit for bit
  // (every unit computes each output with the same FMAs in the same order).
  const Tensor input = testing::randomTensor({2, 4, 20, 30}, 11), weight = testing::randomTensor({6, 2, 3, 3}, 12);
  const Tensor bias = testing::randomTensor({6}, 13);
  const DirectGeometry g{2, 20, 30, 3, 3, 3, 1, 1, 1, 1};
  ASSERT_TRUE(optimized::directPays(g));
  const Tensor out = ops::convolution(input, weight, bias, {1}, {1}, {1}, false, {0}, 2);
  ASSERT_TRUE(sameSizes(out.sizes(), SizesVector{2, 6, 20, 30}));
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t group = 0; group < 2; ++group) {
      const auto part = [](const Tensor& t, int64_t first, int64_t n) { return ops::clone(ops::slice(t, 0, first, first + n)); };
      const Operands o{part(ops::select(input, 0, n), 2 * group, 2), part(weight, 3 * group, 3), part(bias, 3 * group, 3)};
      const Tensor expected = part(ops::select(out, 0, n), 3 * group, 3);
      const Tensor direct = directResult(g, o, expected, set());
      EXPECT_EQ(std::memcmp(direct.data_ptr<float>(), expected.data_ptr<float>(), size_t(direct.numel()) * 4), 0)
          << "image " << n << ", group " << group;
      expectNearPortable(direct, portableResult(g, o), "image " + std::to_string(n) + ", group " + std::to_string(group));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(InstructionSets, OptimizedDirectConvolution,
                         ::testing::Values(optimized::InstructionSet::Avx2, optimized::InstructionSet::Avx512),
                         [](const ::testing::TestParamInfo<optimized::InstructionSet>& info) {
                           return std::string(optimized::instructionSetName(info.param));
                         });

}  // namespace
}  // namespace sy
