// The view operators that pick or repeat elements: expand, slice, select; plus contiguous, and
// the properties every view shares (all dtypes, the key set, any backend, boxed calls). Split
// from view_ops_test.cpp to keep files short. Expected elements are computed here from the
// base's row-major indices.
#include <cstdint>
#include <limits>
#include <optional>
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
using sy::testing::iota;
using sy::testing::sharesStorage;
using sy::testing::valuesOf;

// ---- expand --------------------------------------------------------------------------------------

TEST(ViewExpand, BroadcastsSizeOneDimensionsWithStrideZero) {
  Tensor column = iota({3, 1});
  Tensor e = ops::expand(column, {3, 4});
  EXPECT_THAT(e.sizes(), ElementsAre(3, 4));
  EXPECT_THAT(e.strides(), ElementsAre(1, 0));
  EXPECT_TRUE(sharesStorage(e, column));
  EXPECT_THAT(valuesOf<float>(e), ElementsAre(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2));
}

TEST(ViewExpand, AddsLeadingDimensionsAndKeepsMinusOneSizes) {
  Tensor e = ops::expand(iota({3}), {2, -1});
  EXPECT_THAT(e.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(e.strides(), ElementsAre(0, 1));
  EXPECT_THAT(valuesOf<float>(e), ElementsAre(0, 1, 2, 0, 1, 2));
  // A new leading dimension of size 1 steps over the rest, like unsqueeze(0).
  EXPECT_THAT(ops::expand(iota({3}), {1, 3}).strides(), ElementsAre(3, 1));
}

TEST(ViewExpand, ExpandsAZeroDimTensorToAnyShape) {
  Tensor e = ops::expand(full({}, 2.5, ScalarType::Double), {2, 2}, /*implicit=*/true);
  EXPECT_THAT(e.strides(), ElementsAre(0, 0));
  EXPECT_THAT(valuesOf<double>(e), ElementsAre(2.5, 2.5, 2.5, 2.5));
}

TEST(ViewExpand, RejectsChangingANonSingletonDimension) {
  EXPECT_EQ(errorMessageOf([] { ops::expand(iota({2, 3}), {2, 4}); }),
            "aten::expand: the expanded size of the tensor (4) must match the existing size (3) at non-singleton "
            "dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]");
}

TEST(ViewExpand, RejectsTooFewSizesAndALeadingMinusOne) {
  EXPECT_EQ(errorMessageOf([] { ops::expand(iota({2, 3}), {3}); }),
            "aten::expand: the number of sizes provided (1) must be greater or equal to the number of dimensions in "
            "the tensor (2)");
  EXPECT_EQ(errorMessageOf([] { ops::expand(iota({3}), {-1, 3}); }),
            "aten::expand: the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
}

TEST(ViewExpand, RejectsSizesWhoseElementCountOverflows) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(errorMessageOf([&] { ops::expand(iota({1, 1}), {big, big}); }),
            "aten::expand: size (1099511627776, 1099511627776) has too many elements");
}

// ---- slice ---------------------------------------------------------------------------------------

TEST(ViewSlice, DefaultsSelectEverything) {
  Tensor base = iota({4});
  Tensor s = ops::slice(base);
  EXPECT_THAT(valuesOf<float>(s), ElementsAre(0, 1, 2, 3));
  EXPECT_TRUE(sharesStorage(s, base));
}

TEST(ViewSlice, StepsThroughTheRangeAndOffsetsTheStorage) {
  Tensor s = ops::slice(iota({3, 10}), 1, 1, 8, 3);
  EXPECT_THAT(s.sizes(), ElementsAre(3, 3));  // columns 1, 4, 7
  EXPECT_THAT(s.strides(), ElementsAre(10, 3));
  EXPECT_EQ(s.storage_offset(), 1);
  EXPECT_THAT(valuesOf<float>(s), ElementsAre(1, 4, 7, 11, 14, 17, 21, 24, 27));
}

TEST(ViewSlice, NegativeBoundsCountFromTheEndAndOutOfRangeBoundsClamp) {
  Tensor base = iota({6});
  EXPECT_THAT(valuesOf<float>(ops::slice(base, 0, -2)), ElementsAre(4, 5));
  EXPECT_THAT(valuesOf<float>(ops::slice(base, 0, std::nullopt, -4)), ElementsAre(0, 1));
  EXPECT_THAT(valuesOf<float>(ops::slice(base, 0, -100, 100)), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_EQ(ops::slice(base, 0, 4, 2).numel(), 0);  // end before start: empty
  EXPECT_EQ(ops::slice(base, 0, 7, 9).numel(), 0);  // start past the end: empty
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(valuesOf<float>(ops::slice(base, 0, 1, huge, huge)), ElementsAre(1));
}

TEST(ViewSlice, OfATransposedTensorComposesStrides) {
  Tensor t = ops::transpose(iota({3, 4}), 0, 1);  // [4, 3], strides (1, 4)
  Tensor s = ops::slice(t, 0, 1, std::nullopt, 2);  // rows 1 and 3 of t: columns 1 and 3 of the base
  EXPECT_THAT(s.strides(), ElementsAre(2, 4));
  EXPECT_THAT(valuesOf<float>(s), ElementsAre(1, 5, 9, 3, 7, 11));
}

TEST(ViewSlice, RejectsNonPositiveStepsAndZeroDimTensors) {
  EXPECT_EQ(errorMessageOf([] { ops::slice(iota({4}), 0, 0, 4, 0); }),
            "aten::slice.Tensor: slice step must be positive, but got step=0");
  EXPECT_EQ(errorMessageOf([] { ops::slice(full({}, 1.0f)); }),
            "aten::slice.Tensor: slice() cannot be applied to a 0-dim tensor.");
}

// ---- select --------------------------------------------------------------------------------------

TEST(ViewSelect, RemovesTheDimensionAndNegativeIndicesWrap) {
  Tensor base = iota({3, 4});
  Tensor column = ops::select(base, 1, -1);
  EXPECT_THAT(column.sizes(), ElementsAre(3));
  EXPECT_THAT(column.strides(), ElementsAre(4));
  EXPECT_EQ(column.storage_offset(), 3);
  EXPECT_THAT(valuesOf<float>(column), ElementsAre(3, 7, 11));
  EXPECT_EQ(ops::select(ops::select(base, 0, 2), 0, 1).dim(), 0);
  EXPECT_EQ(valuesOf<float>(ops::select(ops::select(base, 0, 2), 0, 1)), std::vector<float>{9});
}

TEST(ViewSelect, OutOfRangeIndexGivesPyTorchsIndexErrorText) {
  EXPECT_EQ(errorMessageOf([] { ops::select(iota({2, 3}), 1, 3); }),
            "aten::select.int: select(): index 3 out of range for tensor of size [2, 3] at dimension 1");
  EXPECT_EQ(errorMessageOf([] { ops::select(iota({2, 3}), -2, -3); }),
            "aten::select.int: select(): index -3 out of range for tensor of size [2, 3] at dimension 0");
  EXPECT_EQ(errorMessageOf([] { ops::select(full({}, 1.0f), 0, 0); }),
            "aten::select.int: select() cannot be applied to a 0-dim tensor.");
}

// ---- contiguous ----------------------------------------------------------------------------------

TEST(ViewContiguous, ReturnsSelfWhenAlreadyContiguous) {
  Tensor base = iota({2, 3});
  EXPECT_TRUE(ops::contiguous(base).is_same(base));
}

TEST(ViewContiguous, CopiesANonContiguousTensorIntoRowMajorOrder) {
  Tensor t = ops::transpose(iota<int64_t>({2, 3}), 0, 1);
  Tensor c = ops::contiguous(t);
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FALSE(sharesStorage(c, t));
  EXPECT_THAT(valuesOf<int64_t>(c), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(ViewContiguous, ChannelsLastGivesNhwcStridesAndPreserveIsRejected) {
  Tensor c = ops::contiguous(iota({2, 3, 2, 2}), MemoryFormat::ChannelsLast);
  EXPECT_THAT(c.strides(), ElementsAre(12, 1, 6, 3));
  EXPECT_EQ(valuesOf<float>(c), valuesOf<float>(iota({2, 3, 2, 2})));
  EXPECT_TRUE(ops::contiguous(c, MemoryFormat::ChannelsLast).is_same(c));
  EXPECT_EQ(errorMessageOf([] { ops::contiguous(iota({2}), MemoryFormat::Preserve); }),
            "aten::contiguous: preserve memory format is unsupported by the contiguous operator");
}

// ---- properties of every view --------------------------------------------------------------------

TEST(ViewDtypes, EveryDtypeViewsTheSameElements) {
  const std::vector<int64_t> expected = {0, 3, 1, 4, 2, 5};  // transpose of [[0, 1, 2], [3, 4, 5]]
  EXPECT_THAT(valuesOf<int32_t>(ops::transpose(iota<int32_t>({2, 3}), 0, 1)), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<int64_t>(ops::transpose(iota<int64_t>({2, 3}), 0, 1)), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<float>(ops::transpose(iota<float>({2, 3}), 0, 1)), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<double>(ops::transpose(iota<double>({2, 3}), 0, 1)), ElementsAreArray(expected));
  Tensor flags = tensor<bool>({true, false, false, true}, {2, 2});
  EXPECT_THAT(valuesOf<bool>(ops::select(flags, 1, 0)), ElementsAre(true, false));
}

TEST(ViewKeys, AViewKeepsTheBaseKeySetAndServesAnyBackend) {
  // A view kernel only computes metadata, so it is registered as CompositeExplicit: a tensor of
  // another backend (here CPU memory tagged PrivateUse1) gets views without a kernel of its own.
  Tensor base = iota({2, 3});
  const DispatchKeySet keys(DispatchKey::PrivateUse1);
  base.unsafeGetTensorImpl()->set_key_set(keys);
  Tensor t = ops::transpose(base, 0, 1);
  EXPECT_EQ(t.key_set(), keys);
  EXPECT_EQ(ops::slice(t, 0, 1).key_set(), keys);
  EXPECT_EQ(ops::view(base, {6}).key_set(), keys);
}

TEST(ViewBoxed, SliceWithNoneBoundsRunsFromAStack) {
  Stack stack{iota({5}), int64_t{0}, IValue(), int64_t{3}, int64_t{2}};
  Dispatcher::singleton().findSchemaOrThrow("aten::slice", "Tensor").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_THAT(valuesOf<float>(stack[0].toTensor()), ElementsAre(0, 2));
}

}  // namespace
}  // namespace sy
