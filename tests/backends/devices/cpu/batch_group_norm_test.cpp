// The _native_batch_norm_legit family and native_group_norm: hand-worked values, the running
// statistics' in-place update in training mode, the shapes of the saved statistics in each mode,
// strided per-channel tensors and outs, and the errors. The oracle compares the values with
// PyTorch's; these tests pin what it does not see (errors, aliasing, views).
#include <cmath>
#include <optional>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::contiguousDoublesOf;
using sy::testing::errorMessageOf;

// Two samples, two channels, two positions: channel 0 holds {1, 3, 5, 7}, channel 1 {2, 2, 2, 2}.
Tensor batchNormExampleInput() { return tensor<float>({1, 3, 2, 2, 5, 7, 2, 2}, {2, 2, 2}); }

TEST(BatchNorm, EvaluationModeNormalisesWithTheRunningStatistics) {
  Tensor running_mean = tensor<float>({1, 2}, {2}), running_var = tensor<float>({4, 1}, {2});
  auto [y, mean, invstd] = ops::_native_batch_norm_legit_no_training(
      batchNormExampleInput(), tensor<float>({1, 10}, {2}), tensor<float>({0, 1}, {2}), running_mean, running_var,
      0.1, 0.0);
  // Channel 0: (x - 1) / 2; channel 1: (x - 2) * 10 + 1.
  EXPECT_THAT(contiguousDoublesOf(y), ElementsAre(0, 1, 1, 1, 2, 3, 1, 1));
  EXPECT_THAT(mean.sizes(), ElementsAre(0));
  EXPECT_THAT(invstd.sizes(), ElementsAre(0));
  EXPECT_THAT(contiguousDoublesOf(running_mean), ElementsAre(1, 2));  // untouched
}

TEST(BatchNorm, TrainingModeSavesBatchStatisticsAndUpdatesTheRunningOnesInPlace) {
  Tensor running_mean = tensor<float>({0, 0}, {2}), running_var = tensor<float>({1, 1}, {2});
  auto [y, mean, invstd] = ops::_native_batch_norm_legit(batchNormExampleInput(), std::nullopt, std::nullopt,
                                                         running_mean, running_var, true, 0.5, 0.0);
  // Channel 0: mean 4, biased variance 5, unbiased 20/3; channel 1: mean 2, variance 0.
  EXPECT_THAT(contiguousDoublesOf(mean), ElementsAre(4, 2));
  EXPECT_NEAR(contiguousDoublesOf(invstd)[0], 1 / std::sqrt(5.0), 1e-7);
  EXPECT_TRUE(std::isinf(contiguousDoublesOf(invstd)[1]));
  EXPECT_THAT(contiguousDoublesOf(running_mean), ElementsAre(2, 1));
  EXPECT_NEAR(contiguousDoublesOf(running_var)[0], 0.5 + 0.5 * 20 / 3.0, 1e-6);
  EXPECT_EQ(contiguousDoublesOf(running_var)[1], 0.5);
  EXPECT_NEAR(contiguousDoublesOf(y)[0], -3 / std::sqrt(5.0), 1e-6);
}

TEST(BatchNorm, OutFormUpdatesStridedRunningStatisticsAndFillsStridedOuts) {
  // running_mean and running_var are every other element of a buffer.
  Tensor buffer = tensor<double>({0, -1, 0, -1, 1, -1, 1, -1}, {8});
  Tensor running_mean = sy::testing::viewOf(buffer, {2}, {2}, 0);
  Tensor running_var = sy::testing::viewOf(buffer, {2}, {2}, 4);
  Tensor out = empty({2, 2, 2}, ScalarType::Double);
  Tensor stats = zeros({2, 2}, ScalarType::Double);
  Tensor save_mean = sy::testing::viewOf(stats, {2}, {2}, 0), save_invstd = sy::testing::viewOf(stats, {2}, {2}, 1);
  Tensor input = tensor<double>({1, 3, 2, 2, 5, 7, 2, 2}, {2, 2, 2});
  auto results = ops::_native_batch_norm_legit_out(out, save_mean, save_invstd, input, std::nullopt, std::nullopt,
                                                   running_mean, running_var, true, 1.0, 1.0);
  EXPECT_EQ(&std::get<1>(results), &save_mean);
  EXPECT_THAT(contiguousDoublesOf(buffer), ElementsAre(4, -1, 2, -1, 20 / 3.0, -1, 0, -1));
  EXPECT_THAT(contiguousDoublesOf(stats), ElementsAre(4, 1 / std::sqrt(6.0), 2, 1));
}

TEST(BatchNorm, NoStatsTrainingNormalisesWithTheBatchStatistics) {
  auto [y, mean, invstd] =
      ops::_native_batch_norm_legit(batchNormExampleInput(), std::nullopt, tensor<float>({0, 5}, {2}), true, 0.1, 0.0);
  EXPECT_THAT(contiguousDoublesOf(mean), ElementsAre(4, 2));
  // Channel 1 has no spread: with eps 0 its invstd is infinite and its values NaN, as in PyTorch.
  EXPECT_TRUE(std::isnan(contiguousDoublesOf(y)[2]));
  EXPECT_NEAR(contiguousDoublesOf(y)[1], -1 / std::sqrt(5.0), 1e-6);
}

TEST(BatchNorm, OutAliasingTheInputGetsTheResultOfTheOriginalInput) {
  Tensor x = batchNormExampleInput();
  Tensor mean = empty({0}), invstd = empty({0});
  Tensor running_mean = tensor<float>({1, 2}, {2}), running_var = tensor<float>({4, 1}, {2});
  ops::_native_batch_norm_legit_no_training_out(x, mean, invstd, x, std::nullopt, std::nullopt, running_mean,
                                                running_var, 0.1, 0.0);
  EXPECT_THAT(contiguousDoublesOf(x), ElementsAre(0, 1, 0, 0, 2, 3, 0, 0));
}

TEST(BatchNorm, AnEmptyBatchGivesEmptyResults) {
  // (PyTorch 1.13's native_batch_norm divides by zero here, so the oracle leaves this call out.)
  Tensor c = ones({3});
  auto [y, mean, invstd] = ops::_native_batch_norm_legit_no_training(zeros({0, 3, 4}), {}, {}, c, c, 0.1, 1e-5);
  EXPECT_THAT(y.sizes(), ElementsAre(0, 3, 4));
  EXPECT_THAT(mean.sizes(), ElementsAre(0));
  auto [t, batch_mean, batch_invstd] = ops::_native_batch_norm_legit(zeros({0, 3}), {}, {}, true, 0.1, 1e-5);
  EXPECT_THAT(t.sizes(), ElementsAre(0, 3));
  EXPECT_THAT(batch_mean.sizes(), ElementsAre(3));
}

TEST(BatchNorm, BadArgumentsAreRefusedNamingTheOperatorAndArgument) {
  Tensor c2 = ones({2});
  EXPECT_EQ(errorMessageOf([&] { ops::_native_batch_norm_legit_no_training(ones({4}), {}, {}, c2, c2, 0.1, 1e-5); }),
            "aten::_native_batch_norm_legit_no_training: expected 'input' to have at least 2 dimensions (N, C, ...) "
            "but got a 1-D tensor");
  EXPECT_EQ(errorMessageOf([&] { ops::_native_batch_norm_legit_no_training(ones({2, 3}), {}, {}, c2, c2, 0.1, 1e-5); }),
            "aten::_native_batch_norm_legit_no_training: expected 'running_mean' to be a 1-D tensor of 3 elements "
            "(the channels of 'input') but got size (2,)");
  EXPECT_EQ(errorMessageOf([&] {
              ops::_native_batch_norm_legit_no_training(ones({2, 2}), ones({2}, ScalarType::Double), {}, c2, c2, 0.1,
                                                        1e-5);
            }),
            "aten::_native_batch_norm_legit_no_training: expected 'weight' to have the same dtype as 'input' (Float) "
            "but got Double");
  EXPECT_EQ(errorMessageOf([&] {
              ops::_native_batch_norm_legit_no_training(ones({2, 2}, ScalarType::Long), {}, {},
                                                        ones({2}, ScalarType::Long), ones({2}, ScalarType::Long), 0.1,
                                                        1e-5);
            }),
            "aten::_native_batch_norm_legit_no_training: expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got Long");
  EXPECT_EQ(errorMessageOf([&] { ops::_native_batch_norm_legit(ones({2, 2}), {}, {}, false, 0.1, 1e-5); }),
            "aten::_native_batch_norm_legit.no_stats: evaluation mode (training=False) normalises with the running "
            "statistics, but 'running_mean' or 'running_var' is None");
}

TEST(GroupNorm, EachSampleAndGroupIsNormalisedOnItsOwn) {
  // N = 1, C = 4, HxW = 2, two groups: {1, 2, 3, 4} and {10, 10, 20, 20}.
  Tensor x = tensor<double>({1, 2, 3, 4, 10, 10, 20, 20}, {1, 4, 2});
  auto [y, mean, rstd] = ops::native_group_norm(x, std::nullopt, tensor<double>({0, 0, 1, 1}, {4}), 1, 4, 2, 2, 0.0);
  EXPECT_THAT(mean.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(contiguousDoublesOf(mean), ElementsAre(2.5, 15));
  EXPECT_NEAR(contiguousDoublesOf(rstd)[0], 1 / std::sqrt(1.25), 1e-12);
  EXPECT_NEAR(contiguousDoublesOf(rstd)[1], 0.2, 1e-12);
  // Channel 2 of group 1: (10 - 15) * 0.2 + bias 1; channel 3: (20 - 15) * 0.2 + 1.
  EXPECT_NEAR(contiguousDoublesOf(y)[4], 0.0, 1e-12);
  EXPECT_NEAR(contiguousDoublesOf(y)[7], 2.0, 1e-12);
  EXPECT_NEAR(contiguousDoublesOf(y)[0], -1.5 / std::sqrt(1.25), 1e-12);
}

TEST(GroupNorm, BadArgumentsAreRefusedNamingTheOperator) {
  EXPECT_EQ(errorMessageOf([] { ops::native_group_norm(ones({2, 6, 4}), {}, {}, 2, 6, 4, 4, 1e-5); }),
            "aten::native_group_norm: expected the channels C (6) to be divisible by 'group' (4)");
  EXPECT_EQ(errorMessageOf([] { ops::native_group_norm(ones({2, 6, 4}), {}, {}, 2, 6, 5, 3, 1e-5); }),
            "aten::native_group_norm: expected 'input' to have N * C * HxW = 2 * 6 * 5 elements but it has 48 (size "
            "(2, 6, 4))");
  EXPECT_EQ(errorMessageOf([] { ops::native_group_norm(ones({2, 6, 4}), ones({4}), {}, 2, 6, 4, 3, 1e-5); }),
            "aten::native_group_norm: expected 'weight' to be a 1-D tensor of C = 6 elements but got size (4,)");
  EXPECT_EQ(errorMessageOf([] { ops::native_group_norm(ones({2, 6, 4}), {}, {}, 2, 6, 4, 0, 1e-5); }),
            "aten::native_group_norm: expected 'group' to be positive but got 0");
}

}  // namespace
}  // namespace sy
