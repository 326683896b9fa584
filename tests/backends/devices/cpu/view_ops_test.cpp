// The view operators through the dispatcher: view, reshape, permute, transpose, unsqueeze,
// squeeze, expand, slice, select, contiguous. Expected geometry is worked out by hand in each
// test; expected values are read back through the result's own strides and compared with the
// base's elements at indices computed here.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::iota;
using sy::testing::sharesStorage;
using sy::testing::valuesOf;

// ---- view ----------------------------------------------------------------------------------------

TEST(ViewView, SharesStorageSoWritesAreVisibleInTheBase) {
  Tensor base = iota({2, 3});
  Tensor v = ops::view(base, {3, 2});
  EXPECT_THAT(v.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(v.strides(), ElementsAre(2, 1));
  EXPECT_TRUE(sharesStorage(v, base));
  static_cast<float*>(v.data_ptr())[5] = 42;
  EXPECT_EQ(valuesOf<float>(base)[5], 42);
}

TEST(ViewView, InfersTheMinusOneDimension) {
  EXPECT_THAT(ops::view(iota({2, 6}), {-1, 4}).sizes(), ElementsAre(3, 4));
  EXPECT_THAT(ops::view(iota({2, 6}), {3, -1}).sizes(), ElementsAre(3, 4));
}

TEST(ViewView, ScalarViewsAsOnesAndBack) {
  Tensor scalar = full({}, 5.0f);
  Tensor ones = ops::view(scalar, {1, 1});
  EXPECT_THAT(ones.sizes(), ElementsAre(1, 1));
  EXPECT_EQ(ops::view(ones, {}).dim(), 0);
  EXPECT_EQ(valuesOf<float>(ops::view(ones, {})), std::vector<float>{5});
}

TEST(ViewView, EmptyTensorTakesAnyShapeWithZeroElements) {
  Tensor v = ops::view(empty({0, 4}), {2, 0, 3});
  EXPECT_THAT(v.sizes(), ElementsAre(2, 0, 3));
  EXPECT_EQ(v.numel(), 0);
}

TEST(ViewView, SplitsADimensionOfATransposedTensorWithinItsChunk) {
  // t is [6, 4] with strides (1, 6): dimension 0 can be split, dimension 1 can be split.
  Tensor t = ops::transpose(iota({4, 6}), 0, 1);
  Tensor v = ops::view(t, {3, 2, 2, 2});
  EXPECT_THAT(v.strides(), ElementsAre(2, 1, 12, 6));
  EXPECT_EQ(valuesOf<float>(v), valuesOf<float>(ops::reshape(ops::contiguous(t), {3, 2, 2, 2})));
}

TEST(ViewView, KeepsStorageOffsetAndDtype) {
  Tensor row = ops::select(iota<int64_t>({3, 4}), 0, 2);  // offset 8
  Tensor v = ops::view(row, {2, 2});
  EXPECT_EQ(v.storage_offset(), 8);
  EXPECT_THAT(valuesOf<int64_t>(v), ElementsAre(8, 9, 10, 11));
}

TEST(ViewView, RejectsAShapeWithTheWrongNumberOfElements) {
  EXPECT_EQ(errorMessageOf([] { ops::view(iota({2, 3}), {4, 2}); }),
            "aten::view: shape '[4, 2]' is invalid for input of size 6");
  EXPECT_EQ(errorMessageOf([] { ops::view(iota({2, 3}), {-1, 4}); }),
            "aten::view: shape '[-1, 4]' is invalid for input of size 6");
}

TEST(ViewView, RejectsTwoInferredDimensionsAndNegativeSizes) {
  EXPECT_EQ(errorMessageOf([] { ops::view(iota({2, 3}), {-1, -1}); }),
            "aten::view: only one dimension can be inferred, but shape [-1, -1] has -1 at indices 0 and 1");
  EXPECT_EQ(errorMessageOf([] { ops::view(iota({2, 3}), {-2, -3}); }),
            "aten::view: invalid shape dimension -2 at index 0 of shape [-2, -3]");
}

TEST(ViewView, RejectsAmbiguousInferenceOnAnEmptyTensor) {
  EXPECT_EQ(errorMessageOf([] { ops::view(empty({0, 3}), {0, -1}); }),
            "aten::view: cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
            "dimension size -1 can be any value and is ambiguous");
}

TEST(ViewView, RejectsMergingAcrossNonContiguousDimensionsAndSuggestsReshape) {
  Tensor t = ops::transpose(iota({2, 3}), 0, 1);
  EXPECT_THAT(errorMessageOf([&] { ops::view(t, {6}); }),
              ::testing::StartsWith("aten::view: view size is not compatible with input tensor's size and stride (at "
                                    "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
                                    "instead."));
}

// ---- reshape -------------------------------------------------------------------------------------

TEST(ViewReshape, IsAViewWhenTheStridesAllow) {
  Tensor base = iota({2, 3});
  Tensor r = ops::reshape(base, {6});
  EXPECT_TRUE(sharesStorage(r, base));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(ViewReshape, CopiesInRowMajorOrderWhenNoViewExists) {
  Tensor base = iota({2, 3});
  Tensor r = ops::reshape(ops::transpose(base, 0, 1), {6});
  EXPECT_FALSE(sharesStorage(r, base));
  EXPECT_TRUE(r.is_contiguous());
  // transpose(base)[i][j] = base[j][i] = 3 * j + i, read row-major over i in [0, 3), j in [0, 2).
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(ViewReshape, NamesItselfInErrors) {
  EXPECT_EQ(errorMessageOf([] { ops::reshape(iota({5}), {2, -1}); }),
            "aten::reshape: shape '[2, -1]' is invalid for input of size 5");
}

// ---- permute and transpose -----------------------------------------------------------------------

TEST(ViewPermute, ReordersSizesAndStridesAndReadsTheRightElements) {
  Tensor base = iota({2, 3, 4});
  Tensor p = ops::permute(base, {2, 0, -2});
  EXPECT_THAT(p.sizes(), ElementsAre(4, 2, 3));
  EXPECT_THAT(p.strides(), ElementsAre(1, 12, 4));
  std::vector<float> expected;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) expected.push_back(static_cast<float>(i * 12 + j * 4 + k));
  EXPECT_THAT(valuesOf<float>(p), ElementsAreArray(expected));
}

TEST(ViewPermute, RejectsDuplicateAndMiscountedDims) {
  EXPECT_EQ(errorMessageOf([] { ops::permute(iota({2, 3}), {1, -1}); }),
            "aten::permute: duplicate dims are not allowed (dimension 1 appears twice in [1, -1])");
  EXPECT_EQ(errorMessageOf([] { ops::permute(iota({2, 3}), {0}); }),
            "aten::permute: number of dimensions in the tensor input does not match the length of the desired "
            "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1");
}

TEST(ViewTranspose, SwapsTwoDimensionsAndWritesShowInTheBase) {
  Tensor base = iota<int32_t>({2, 3});
  Tensor t = ops::transpose(base, -1, 0);
  EXPECT_THAT(t.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(t.strides(), ElementsAre(1, 3));
  EXPECT_THAT(valuesOf<int32_t>(t), ElementsAre(0, 3, 1, 4, 2, 5));
  static_cast<int32_t*>(t.data_ptr())[1 * t.stride(0) + 1 * t.stride(1)] = -7;  // t[1][1] is base[1][1]
  EXPECT_EQ(valuesOf<int32_t>(base)[4], -7);
}

TEST(ViewTranspose, OfAZeroDimTensorAcceptsDimensionsZeroAndMinusOne) {
  Tensor t = ops::transpose(full({}, 1.0f), 0, -1);
  EXPECT_EQ(t.dim(), 0);
}

TEST(ViewTranspose, RejectsAnOutOfRangeDimension) {
  EXPECT_TRUE(raisesError([] { ops::transpose(iota({2, 3}), 0, 2); }, ErrorKind::Index,
                          "aten::transpose.int: dimension out of range for argument 'dim1' (expected to be in range of "
                          "[-2, 1], but got 2)"));
}

// ---- unsqueeze and squeeze -----------------------------------------------------------------------

TEST(ViewUnsqueeze, InsertsASizeOneDimensionAtEveryPosition) {
  Tensor base = iota({2, 3});
  EXPECT_THAT(ops::unsqueeze(base, 0).sizes(), ElementsAre(1, 2, 3));
  EXPECT_THAT(ops::unsqueeze(base, 1).sizes(), ElementsAre(2, 1, 3));
  EXPECT_THAT(ops::unsqueeze(base, 1).strides(), ElementsAre(3, 3, 1));
  EXPECT_THAT(ops::unsqueeze(base, -1).sizes(), ElementsAre(2, 3, 1));
  EXPECT_THAT(ops::unsqueeze(base, -1).strides(), ElementsAre(3, 1, 1));
  EXPECT_TRUE(ops::unsqueeze(base, 2).is_contiguous());
  EXPECT_THAT(ops::unsqueeze(full({}, 1.0f), 0).sizes(), ElementsAre(1));
}

TEST(ViewUnsqueeze, RejectsADimensionPastTheEnd) {
  EXPECT_EQ(errorMessageOf([] { ops::unsqueeze(iota({2, 3}), 4); }),
            "aten::unsqueeze: dimension out of range for argument 'dim' (expected to be in range of [-3, 2], but "
            "got 4)");
}

TEST(ViewSqueeze, DropsEverySizeOneDimension) {
  Tensor s = ops::squeeze(iota({1, 2, 1, 3, 1}));
  EXPECT_THAT(s.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(s.strides(), ElementsAre(3, 1));
  EXPECT_EQ(ops::squeeze(iota({1, 1})).dim(), 0);
}

TEST(ViewSqueeze, DimDropsOnlyThatDimensionAndOnlyIfItIsOne) {
  Tensor base = iota({1, 2, 1});
  EXPECT_THAT(ops::squeeze(base, -1).sizes(), ElementsAre(1, 2));
  EXPECT_THAT(ops::squeeze(base, 1).sizes(), ElementsAre(1, 2, 1));  // size 2: unchanged
  EXPECT_TRUE(sharesStorage(ops::squeeze(base, 1), base));
  EXPECT_EQ(ops::squeeze(full({}, 1.0f), 0).dim(), 0);
}

}  // namespace
}  // namespace sy
