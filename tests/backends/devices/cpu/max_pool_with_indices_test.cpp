// aten::max_pool2d_with_indices and its out= form (which ExecuTorch programs call for
// nn.MaxPool2d) through the dispatcher: the maxima and where each was, against windows worked out
// by hand, including padding, ties, NaN, the unbatched form, and argument checks.
#include <cmath>
#include <cstdint>
#include <tuple>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

// [[1, 5, 2, 0],
//  [3, 4, 7, 7],
//  [0, 9, 1, 2],
//  [8, 8, 3, 6]]
Tensor fourByFour() { return tensor<float>({1, 5, 2, 0, 3, 4, 7, 7, 0, 9, 1, 2, 8, 8, 3, 6}, {1, 1, 4, 4}); }

TEST(MaxPool2dWithIndices, GivesEachWindowsMaximumAndItsFlatPositionInThePlane) {
  const auto [values, indices] = ops::max_pool2d_with_indices(fourByFour(), {2, 2});
  EXPECT_THAT(values.sizes(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(valuesOf<float>(values), ElementsAre(5, 7, 9, 6));
  EXPECT_EQ(indices.scalar_type(), ScalarType::Long);
  // 5 at (0, 1); the first 7 at (1, 2); 9 at (2, 1); 6 at (3, 3).
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1, 6, 9, 15));
}

TEST(MaxPool2dWithIndices, IndicesCountWithinEachPlaneNotAcrossTheBatch) {
  // Two planes; the second is the first plus 10, so its maxima are at the same positions.
  Tensor x = tensor<float>({1, 2, 4, 3, 11, 12, 14, 13}, {2, 1, 2, 2});
  const auto [values, indices] = ops::max_pool2d_with_indices(x, {2, 2});
  EXPECT_THAT(valuesOf<float>(values), ElementsAre(4, 14));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(2, 2));
}

TEST(MaxPool2dWithIndices, PaddedWindowsPointOnlyAtInputElements) {
  // One row [5, 1, 2], kernel (1, 3), padding (0, 1): windows {pad, 5, 1}, {5, 1, 2}, {1, 2, pad}.
  const auto [values, indices] =
      ops::max_pool2d_with_indices(tensor<float>({5, 1, 2}, {1, 1, 1, 3}), {1, 3}, {1, 1}, {0, 1});
  EXPECT_THAT(valuesOf<float>(values), ElementsAre(5, 5, 2));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(0, 0, 2));
}

TEST(MaxPool2dWithIndices, StrideAndDilationPickTheRightElements) {
  // Row 0 to 5, kernel (1, 2) dilated by 2, stride 3: windows {0, 2} and {3, 5}.
  const auto [values, indices] = ops::max_pool2d_with_indices(tensor<float>({0, 1, 2, 3, 4, 5}, {1, 1, 1, 6}),
                                                              {1, 2}, {1, 3}, {0, 0}, {1, 2});
  EXPECT_THAT(valuesOf<float>(values), ElementsAre(2, 5));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(2, 5));
}

TEST(MaxPool2dWithIndices, TiesKeepTheFirstAndNanWins) {
  const auto [tie_values, tie_indices] = ops::max_pool2d_with_indices(tensor<float>({2, 2, 2, 2}, {1, 2, 2}), {2, 2});
  EXPECT_THAT(valuesOf<int64_t>(tie_indices), ElementsAre(0));
  const auto [nan_values, nan_indices] =
      ops::max_pool2d_with_indices(tensor<double>({1, NAN, 3, 0}, {1, 2, 2}), {2, 2});
  EXPECT_TRUE(std::isnan(valuesOf<double>(nan_values)[0]));
  EXPECT_THAT(valuesOf<int64_t>(nan_indices), ElementsAre(1));
}

TEST(MaxPool2dWithIndices, WorksOnIntegerInputs) {
  const auto [values, indices] = ops::max_pool2d_with_indices(tensor<int32_t>({-3, -1, -2, -4}, {1, 2, 2}), {2, 2});
  EXPECT_THAT(valuesOf<int32_t>(values), ElementsAre(-1));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1));
}

TEST(MaxPool2dWithIndicesOut, ResizesBothOutputsAndReturnsThem) {
  Tensor out = sy::empty({0});
  Tensor indices = sy::empty({0}, ScalarType::Long);
  auto result = ops::max_pool2d_with_indices_out(out, indices, fourByFour(), {2, 2});
  EXPECT_TRUE(std::get<0>(result).is_same(out));
  EXPECT_TRUE(std::get<1>(result).is_same(indices));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(5, 7, 9, 6));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1, 6, 9, 15));
}

TEST(MaxPool2dWithIndicesOut, RejectsIndicesThatAreNotLong) {
  Tensor out = sy::empty({0});
  Tensor indices = sy::empty({0}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::max_pool2d_with_indices_out(out, indices, fourByFour(), {2, 2}); }),
              HasSubstr("aten::max_pool2d_with_indices.out: expected 'indices' to have dtype Long but got Int"));
}

TEST(MaxPool2dWithIndicesOut, RejectsAnInputThatIsNotThreeOrFourD) {
  Tensor out = sy::empty({0});
  Tensor indices = sy::empty({0}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::max_pool2d_with_indices_out(out, indices, sy::zeros({4, 4}), {2, 2}); }),
              HasSubstr("aten::max_pool2d_with_indices.out: expected 'self' to be a 3-D (C, H, W) or 4-D"));
  EXPECT_THAT(errorMessageOf([&] { ops::max_pool2d_with_indices(fourByFour(), {2, 2}, {2, 2}, {2, 2}); }),
              HasSubstr("aten::max_pool2d_with_indices: expected 'padding' (2, 2) to be at most half of 'kernel_size'"));
}

}  // namespace
}  // namespace sy
