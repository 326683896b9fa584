// rand, randn and native_dropout through the dispatcher: reproducible after sy::manualSeed, PyTorch's
// numbers for the same seed, dtypes, strided outs and errors. (The oracle, conformance/oracle/
// random_check.cpp, compares every floating dtype with PyTorch 1.13 number for number.)
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "allocation_counter.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::FloatEq;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

TEST(Rand, GivesPyTorchsNumbersForTheSameSeed) {
  // torch.manual_seed(42); torch.rand(5) in PyTorch 1.13.
  manualSeed(42);
  EXPECT_THAT(valuesOf<float>(ops::rand({5})), ElementsAre(FloatEq(0.882269263f), FloatEq(0.915003955f),
                                                           FloatEq(0.38286376f), FloatEq(0.959305644f),
                                                           FloatEq(0.390448213f)));
  // torch.manual_seed(42); torch.rand(3, dtype=torch.float64): 53 bits of two draws each.
  manualSeed(42);
  EXPECT_THAT(valuesOf<double>(ops::rand({3}, ScalarType::Double)),
              ElementsAre(0.058154485961429692, 0.062910167424577557, 0.12358607277440903));
}

TEST(Rand, RepeatsAfterTheSameSeedAndContinuesOtherwise) {
  manualSeed(7);
  const std::vector<float> first = valuesOf<float>(ops::rand({4, 4}));
  const std::vector<float> second = valuesOf<float>(ops::rand({4, 4}));
  manualSeed(7);
  EXPECT_EQ(valuesOf<float>(ops::rand({4, 4})), first);
  EXPECT_NE(first, second);
  EXPECT_EQ(defaultCpuGenerator().seed(), 7u);
}

TEST(Rand, TakesTheFloatingDtypesAndRefusesOthers) {
  EXPECT_EQ(ops::rand({2, 3}).scalar_type(), ScalarType::Float);
  for (ScalarType dtype : {ScalarType::Half, ScalarType::BFloat16, ScalarType::Double}) {
    const Tensor t = ops::randn({2, 3}, dtype);
    EXPECT_EQ(t.scalar_type(), dtype);
    EXPECT_THAT(t.sizes(), ElementsAre(2, 3));
  }
  Tensor longs = sy::empty({3}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::rand_out(longs, {3}); }), HasSubstr("aten::rand.out"));
  EXPECT_THAT(errorMessageOf([&] { ops::rand({-1}); }), HasSubstr("aten::rand"));
}

TEST(Rand, FillsAStridedOutInPlace) {
  Tensor base = sy::zeros({3, 4});
  Tensor transposed = base.transpose(0, 1);
  ops::rand_out(transposed, {4, 3});
  EXPECT_THAT(transposed.strides(), ElementsAre(1, 4));  // still a view of base
  for (float v : valuesOf<float>(base)) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
  }
}

TEST(Randn, KeepsTheSecondSampleOfAPairForTheNextCall) {
  // Below 16 elements each pair of draws gives two normals; an odd count leaves one for the next
  // call, which therefore starts with it, as in PyTorch.
  manualSeed(3);
  const std::vector<double> three = valuesOf<double>(ops::randn({3}, ScalarType::Double));
  const std::vector<double> next = valuesOf<double>(ops::randn({1}, ScalarType::Double));
  manualSeed(3);
  const std::vector<double> four = valuesOf<double>(ops::randn({4}, ScalarType::Double));
  EXPECT_THAT(four, ElementsAre(three[0], three[1], three[2], next[0]));
}

TEST(Randn, BlocksOf16HaveUnitVariance) {
  manualSeed(0);
  const std::vector<float> v = valuesOf<float>(ops::randn({4001}));
  double mean = 0, squares = 0;
  for (float x : v) mean += x;
  mean /= v.size();
  for (float x : v) squares += (x - mean) * (x - mean);
  EXPECT_NEAR(mean, 0.0, 0.08);
  EXPECT_NEAR(squares / (v.size() - 1), 1.0, 0.1);
}

TEST(NativeDropout, DropsWithProbabilityPAndScalesWhatItKeeps) {
  manualSeed(1);
  const auto [output, mask] = ops::native_dropout(sy::ones({8}), 0.5, true);
  EXPECT_EQ(mask.scalar_type(), ScalarType::Bool);
  // torch.manual_seed(1); torch.native_dropout(torch.ones(8), 0.5, True) in PyTorch 1.13.
  EXPECT_THAT(valuesOf<bool>(mask), ElementsAre(true, true, true, true, false, true, true, false));
  EXPECT_THAT(valuesOf<float>(output), ElementsAre(2, 2, 2, 2, 0, 2, 2, 0));
}

TEST(NativeDropout, OutsideTrainingCopiesAndKeepsEverything) {
  const Tensor x = sy::full({2, 2}, 3.0f);
  const auto [output, mask] = ops::native_dropout(x, 0.9, false);
  EXPECT_THAT(valuesOf<float>(output), Each(3.0f));
  EXPECT_THAT(valuesOf<bool>(mask), Each(true));
  EXPECT_FALSE(output.is_same(x));
}

TEST(NativeDropout, PIsOneDropsEverythingAndNaNStaysNaN) {
  const auto [zeros, kept] = ops::native_dropout(sy::ones({5}), 1.0, true);
  EXPECT_THAT(valuesOf<float>(zeros), Each(0.0f));
  EXPECT_THAT(valuesOf<bool>(kept), Each(false));
  // A dropped NaN is NaN * 0, as in PyTorch's input.mul(mask).
  const auto [nan_out, nan_mask] = ops::native_dropout(sy::full({3}, std::numeric_limits<float>::quiet_NaN()), 1.0, true);
  for (float v : valuesOf<float>(nan_out)) EXPECT_TRUE(std::isnan(v));
}

TEST(NativeDropout, RefusesAProbabilityOutsideZeroToOneAndIntegralInputs) {
  EXPECT_THAT(errorMessageOf([] { ops::native_dropout(sy::ones({2}), 1.5, true); }),
              HasSubstr("aten::native_dropout: dropout probability has to be between 0 and 1, but got 1.5"));
  EXPECT_THAT(errorMessageOf([] { ops::native_dropout(sy::ones({2}, ScalarType::Long), 0.5, true); }),
              HasSubstr("aten::native_dropout"));
  Tensor out = sy::empty({0});
  Tensor wrong_mask = sy::empty({0});
  EXPECT_THAT(errorMessageOf([&] { ops::native_dropout_out(out, wrong_mask, sy::ones({2}), 0.5, true); }),
              HasSubstr("expected 'out1' (the mask) to be Bool"));
  Tensor doubles = sy::empty({0}, ScalarType::Double);
  Tensor mask = sy::empty({0}, ScalarType::Bool);
  EXPECT_THAT(errorMessageOf([&] { ops::native_dropout_out(doubles, mask, sy::ones({2}), 0.5, true); }),
              HasSubstr("expected 'out0' to have the dtype of 'input' (Float) but got Double"));
}

// The random out variants keep the rule the oracle checks for the others (See Note [An out kernel
// allocates nothing] in conformance/oracle/oracle_runner.cpp): their outs sized, a repeated call
// allocates nothing, in every floating dtype.
TEST(RandomOps, OutVariantsAllocateNothingOnceTheirOutsHaveTheirSizes) {
  const std::vector<int64_t> size{3, 5};
  for (ScalarType dtype : {ScalarType::Half, ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
    Tensor out = sy::empty(size, dtype);
    Tensor mask = sy::empty(size, ScalarType::Bool);
    const Tensor input = sy::ones(size, dtype);
    const auto calls = [&] {
      ops::rand_out(out, size);
      ops::randn_out(out, size);
      ops::native_dropout_out(out, mask, input, 0.5, true);
    };
    calls();
    EXPECT_EQ(sy::testing::allocationsDuring(calls), 0) << dtype;
  }
}

}  // namespace
}  // namespace sy
