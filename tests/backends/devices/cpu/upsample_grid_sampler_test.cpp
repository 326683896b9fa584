// upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa and grid_sampler_2d
// through the dispatcher with their CPU kernels: what the PyTorch oracle does not check (nearest on
// the dtypes PyTorch 1.13's CPU kernel refuses, error messages, strided and aliased outs, a boxed
// call with scale factors as a program makes it). Expected values are hand-worked.
#include <cstdint>
#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::valuesOf;

TEST(UpsampleNearest2d, DoublesEveryPixelOfAnIntImageByScaleFactors) {
  const Tensor image = iota<int32_t>({1, 1, 2, 2});
  const Tensor up = ops::upsample_nearest2d(image, std::nullopt, std::vector<double>{2.0, 1.0});
  EXPECT_EQ(up.sizes(), IntArrayRef({1, 1, 4, 2}));
  EXPECT_THAT(valuesOf<int32_t>(up), ElementsAre(0, 1, 0, 1, 2, 3, 2, 3));
}

TEST(UpsampleNearest2d, RefusesBothOrNeitherSizeAndA3dInput) {
  const Tensor image = zeros({1, 1, 2, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::upsample_nearest2d(image, std::nullopt, std::nullopt); }),
            "aten::upsample_nearest2d.vec: Must specify exactly one of output_size and scale_factors");
  EXPECT_THAT(errorMessageOf([&] { ops::upsample_nearest2d(zeros({1, 2, 2}), IntArrayRef{4, 4}, std::nullopt); }),
              HasSubstr("expected a 4-D input (N, C, H, W)"));
  EXPECT_THAT(errorMessageOf([&] { ops::upsample_nearest2d(image, IntArrayRef{0, 4}, std::nullopt); }),
              HasSubstr("Input and output sizes should be greater than 0"));
}

TEST(UpsampleBilinear2d, InterpolatesWithAndWithoutAlignedCorners) {
  const Tensor row = tensor<float>({0, 3}, {1, 1, 1, 2});
  const Tensor aligned = ops::upsample_bilinear2d(row, IntArrayRef{1, 4}, true, std::nullopt);
  EXPECT_THAT(valuesOf<float>(aligned), ElementsAre(FloatNear(0, 1e-6), FloatNear(1, 1e-6), FloatNear(2, 1e-6), FloatNear(3, 1e-6)));
  // Half-pixel centres: sources -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to the last pixel).
  const Tensor centred = ops::upsample_bilinear2d(row, IntArrayRef{1, 4}, false, std::nullopt);
  EXPECT_THAT(valuesOf<float>(centred), ElementsAre(0, 0.75f, 2.25f, 3));
}

TEST(UpsampleBilinear2dAa, AveragesAWholeRowWhenShrinkingItToOnePixel) {
  const Tensor row = tensor<double>({1, 2, 3, 4}, {1, 1, 1, 4});
  const Tensor shrunk = ops::_upsample_bilinear2d_aa(row, {1, 1}, false);
  // Centre 2, support 4: triangle weights 5/24, 7/24, 7/24, 5/24 over the four pixels.
  EXPECT_THAT(valuesOf<double>(shrunk), ElementsAre(DoubleNear(2.5, 1e-12)));
}

TEST(UpsampleBilinear2d, WritesAStridedOutAndRunsBoxedWithScaleFactors) {
  const Tensor image = tensor<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  Tensor base = zeros({1, 1, 2, 4});
  Tensor every_other = sy::testing::viewOf(base, {1, 1, 2, 2}, {8, 8, 4, 2});
  ops::upsample_nearest2d_out(every_other, image, IntArrayRef{2, 2}, std::nullopt);
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(1, 0, 2, 0, 3, 0, 4, 0));
  auto op = Dispatcher::singleton().findSchemaOrThrow("aten::upsample_bilinear2d", "vec_out");
  Tensor out = empty({0});
  Stack stack{image, IValue(), false, std::vector<double>{1.0, 0.5}, out};
  op.callBoxed(&stack);
  EXPECT_EQ(out.sizes(), IntArrayRef({1, 1, 2, 1}));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1.5f, 3.5f));
}

TEST(GridSampler2d, SamplesPixelCentresExactlyAndPadsOutsideByMode) {
  const Tensor image = tensor<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  // (x, y) at the centre of pixel (0, 1) with align_corners, and one beyond the right edge.
  const Tensor grid = tensor<float>({1, -1, 3, -1}, {1, 1, 2, 2});
  for (int64_t mode : {0, 1, 2}) {
    const Tensor zeros_padded = ops::grid_sampler_2d(image, grid, mode, 0, true);
    EXPECT_THAT(valuesOf<float>(zeros_padded)[0], FloatNear(2, 1e-6)) << "mode " << mode;
  }
  EXPECT_THAT(valuesOf<float>(ops::grid_sampler_2d(image, grid, 1, 0, true)), ElementsAre(2, 0));
  EXPECT_THAT(valuesOf<float>(ops::grid_sampler_2d(image, grid, 1, 1, true)), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(ops::grid_sampler_2d(image, grid, 1, 2, true)), ElementsAre(2, 1));
}

TEST(GridSampler2d, RefusesUnknownModesAndMismatchedGrids) {
  const Tensor image = zeros({1, 1, 2, 2});
  const Tensor grid = zeros({1, 1, 1, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::grid_sampler_2d(image, grid, 3, 0, false); }),
            "aten::grid_sampler_2d: interpolation_mode 3 is not 0 (bilinear), 1 (nearest) or 2 (bicubic)");
  EXPECT_THAT(errorMessageOf([&] { ops::grid_sampler_2d(image, zeros({2, 1, 1, 2}), 0, 0, false); }),
              HasSubstr("expected grid and input to have same batch size"));
  EXPECT_THAT(errorMessageOf([&] { ops::grid_sampler_2d(image, zeros({1, 1, 1, 2}, ScalarType::Double), 0, 0, false); }),
              HasSubstr("expected input and grid to have same dtype"));
}

}  // namespace
}  // namespace sy
