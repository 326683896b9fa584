// The copying twins of the view operators (ExecuTorch's edge dialect: view_copy, permute_copy,
// expand_copy, squeeze_copy.dims, unsqueeze_copy, alias_copy, select_copy, slice_copy,
// transpose_copy), through the dispatcher.
//
// References are written out by hand or computed from index formulas here (out[k][i][j] =
// x[i][j][k] for a permutation), never by calling the view operators the kernels are built on.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::sharesStorage;
using sy::testing::valuesOf;
using sy::testing::viewOf;

Tensor emptyOut(ScalarType dtype = ScalarType::Float) { return sy::empty({0}, dtype); }

// ---- view_copy ------------------------------------------------------------------------------------

TEST(ViewCopy, CopiesTheElementsInRowMajorOrderIntoTheNewShape) {
  const Tensor x = iota({2, 3});
  Tensor out = emptyOut();
  Tensor& result = ops::view_copy_out(out, x, {3, 2});
  EXPECT_TRUE(result.is_same(out));
  EXPECT_THAT(out.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_FALSE(sharesStorage(out, x));
}

TEST(ViewCopy, InfersTheMinusOneDimension) {
  Tensor out = emptyOut(ScalarType::Long);
  ops::view_copy_out(out, iota<int64_t>({2, 2, 2}), {-1, 4});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 4));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
}

TEST(ViewCopy, WritingTheCopyLeavesTheInputAlone) {
  const Tensor x = iota({4});
  Tensor out = emptyOut();
  ops::view_copy_out(out, x, {2, 2});
  out.data_ptr<float>()[0] = 42;
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0, 1, 2, 3));
}

// PyTorch's view_copy copies whatever self's strides (found by the PyTorch oracle); before, a self
// that no view could reshape was refused with view's "view size is not compatible" error.
TEST(ViewCopy, CopiesASelfThatNoViewCouldReshapeInRowMajorOrder) {
  const Tensor x = ops::transpose(iota({3, 2}), 0, 1);  // [2, 3]: 0 2 4 / 1 3 5, strides (1, 2)
  Tensor out = emptyOut();
  ops::view_copy_out(out, x, {6});
  EXPECT_THAT(out.sizes(), ElementsAre(6));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 2, 4, 1, 3, 5));
  EXPECT_THAT(errorMessageOf([&] { ops::view_copy_out(out, x, {4}); }),
              HasSubstr("aten::view_copy.out: aten::view: shape '[4]' is invalid for input of size 6"));
}

TEST(ViewCopy, RejectsAShapeWithAnotherElementCountNamingBothOperators) {
  Tensor out = emptyOut();
  const std::string message = errorMessageOf([&] { ops::view_copy_out(out, iota({2, 3}), {4}); });
  EXPECT_THAT(message, HasSubstr("aten::view_copy.out: aten::view: shape '[4]' is invalid for input of size 6"));
}

TEST(ViewCopy, RejectsAnOutOfAnotherDtype) {
  Tensor out = emptyOut(ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::view_copy_out(out, iota({2, 3}), {6}); }),
              HasSubstr("aten::view_copy.out: expected 'out' to have self's dtype Float but got Long"));
}

// ---- permute_copy / transpose_copy ------------------------------------------------------------------

TEST(PermuteCopy, MovesEachDimensionWhereDimsSaysIntoAContiguousResult) {
  const Tensor x = iota({2, 3, 4});  // x[i][j][k] = 12i + 4j + k
  Tensor out = emptyOut();
  ops::permute_copy_out(out, x, {2, 0, 1});
  EXPECT_THAT(out.sizes(), ElementsAre(4, 2, 3));
  EXPECT_TRUE(out.is_contiguous());
  std::vector<float> expected;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) expected.push_back(static_cast<float>(12 * i + 4 * j + k));
  EXPECT_THAT(valuesOf<float>(out), ElementsAreArray(expected));
}

// See Note [A dense permute copies without making the view] in backends/devices/cpu/view_copy_ops.cpp.
TEST(PermuteCopy, AnOutOfThePermutedShapeGetsTheSameValuesAsAFreshOne) {
  const Tensor x = iota({2, 3, 4});
  Tensor fresh = emptyOut();
  ops::permute_copy_out(fresh, x, {2, 0, 1});
  Tensor sized = empty({4, 2, 3});  // the dense loop's call
  ops::permute_copy_out(sized, x, {-1, 0, -2});
  EXPECT_THAT(valuesOf<float>(sized), ElementsAreArray(valuesOf<float>(fresh)));
  // A 2-D transpose of a weight, ints, and a permute that keeps the order.
  Tensor w = empty({3, 2}, ScalarType::Int);
  ops::permute_copy_out(w, iota<int32_t>({2, 3}), {1, 0});
  EXPECT_THAT(valuesOf<int32_t>(w), ElementsAre(0, 3, 1, 4, 2, 5));
  Tensor same = empty({2, 3, 4});
  ops::permute_copy_out(same, x, {0, 1, 2});
  EXPECT_THAT(valuesOf<float>(same), ElementsAreArray(valuesOf<float>(x)));
  // A transposed out and an out that is self take the general path, with the same values.
  Tensor base = empty({3, 2});
  Tensor transposed = viewOf(base, {2, 3}, {1, 2});
  ops::permute_copy_out(transposed, iota({3, 2}), {1, 0});
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(0, 1, 2, 3, 4, 5));
  Tensor square = iota({2, 2});
  ops::permute_copy_out(square, square, {1, 0});
  EXPECT_THAT(valuesOf<float>(square), ElementsAre(0, 2, 1, 3));
}

TEST(AliasAndUnsqueezeCopy, AContiguousSelfIntoAnOutOfTheViewsShapeIsItsBytes) {
  const Tensor x = iota({2, 3});
  Tensor alias = empty({2, 3});
  ops::alias_copy_out(alias, x);
  EXPECT_THAT(valuesOf<float>(alias), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_FALSE(sharesStorage(alias, x));
  Tensor unsqueezed = empty({2, 1, 3});
  ops::unsqueeze_copy_out(unsqueezed, x, -2);
  EXPECT_THAT(valuesOf<float>(unsqueezed), ElementsAre(0, 1, 2, 3, 4, 5));
  // An out of another shape is resized, a transposed self read in its own order: the general path.
  Tensor resized = empty({6});
  ops::unsqueeze_copy_out(resized, x, 0);
  EXPECT_THAT(resized.sizes(), ElementsAre(1, 2, 3));
  Tensor from_transposed = empty({3, 2});
  ops::alias_copy_out(from_transposed, viewOf(x, {3, 2}, {1, 3}));
  EXPECT_THAT(valuesOf<float>(from_transposed), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_THAT(errorMessageOf([&] { ops::unsqueeze_copy_out(unsqueezed, x, 3); }), HasSubstr("aten::unsqueeze_copy.out"));
}

TEST(PermuteCopy, RejectsRepeatedAndMissingDims) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::permute_copy_out(out, iota({2, 3}), {0, 0}); }),
              HasSubstr("aten::permute_copy.out: aten::permute: duplicate dims are not allowed"));
  EXPECT_THAT(errorMessageOf([&] { ops::permute_copy_out(out, iota({2, 3}), {0}); }),
              HasSubstr("input.dim() = 2 is not equal to len(dims) = 1"));
  EXPECT_THAT(errorMessageOf([&] { ops::permute_copy_out(out, iota({2, 3}), {0, 2}); }),
              HasSubstr("dimension out of range"));
}

TEST(TransposeCopy, SwapsTwoDimensions) {
  Tensor out = emptyOut();
  ops::transpose_copy_out(out, iota({2, 3}), 0, -1);
  EXPECT_THAT(out.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(TransposeCopy, IntoItsOwnInputReadsEveryElementBeforeOverwritingIt) {
  Tensor x = tensor<float>({0, 1, 2, 3}, {2, 2});
  ops::transpose_copy_out(x, x, 0, 1);
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0, 2, 1, 3));
}

TEST(TransposeCopy, RejectsADimOutOfRange) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::transpose_copy_out(out, iota({2, 3}), 0, 2); }),
              HasSubstr("aten::transpose_copy.int_out: aten::transpose.int: dimension out of range for argument "
                        "'dim1' (expected to be in range of [-2, 1], but got 2)"));
}

// ---- expand_copy ------------------------------------------------------------------------------------

TEST(ExpandCopy, WritesEveryBroadcastElement) {
  Tensor out = emptyOut();
  ops::expand_copy_out(out, tensor<float>({1, 2, 3}, {3, 1}), {2, 3, 2});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3));
  for (int64_t d = 0; d < out.dim(); ++d) EXPECT_NE(out.stride(d), 0);
}

TEST(ExpandCopy, RejectsExpandingANonSingletonDimension) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::expand_copy_out(out, iota({3}), {2, 4}); }),
              HasSubstr("aten::expand_copy.out: aten::expand: the expanded size of the tensor (4) must match the "
                        "existing size (3) at non-singleton dimension 1"));
}

// ---- squeeze_copy / unsqueeze_copy ------------------------------------------------------------------

TEST(SqueezeCopy, DropsTheListedSizeOneDimensionsOnly) {
  const Tensor x = iota({1, 3, 1});
  Tensor out = emptyOut();
  ops::squeeze_copy_out(out, x, {0, -1});
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2));
  ops::squeeze_copy_out(out, x, {0, 1});  // dimension 1 has size 3: kept
  EXPECT_THAT(out.sizes(), ElementsAre(3, 1));
  ops::squeeze_copy_out(out, x, IntArrayRef{});  // not {}, which picks squeeze_copy.dim_out's int dim
  EXPECT_THAT(out.sizes(), ElementsAre(1, 3, 1));
}

TEST(SqueezeCopy, RejectsARepeatedOrOutOfRangeDim) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::squeeze_copy_out(out, iota({1, 3}), {0, -2}); }),
              HasSubstr("aten::squeeze_copy.dims_out: aten::squeeze.dims: dim 0 appears multiple times"));
  EXPECT_THAT(errorMessageOf([&] { ops::squeeze_copy_out(out, iota({1, 3}), std::vector<int64_t>{2}); }),
              HasSubstr("aten::squeeze.dims: dimension out of range"));
}

TEST(SqueezeDims, IsAViewOfItsInput) {
  const Tensor x = iota({1, 2, 1});
  const Tensor v = ops::squeeze(x, IntArrayRef({0, 2}));
  EXPECT_THAT(v.sizes(), ElementsAre(2));
  EXPECT_TRUE(sharesStorage(v, x));
}

TEST(UnsqueezeCopy, InsertsASizeOneDimension) {
  Tensor out = emptyOut();
  ops::unsqueeze_copy_out(out, iota({3}), 0);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 3));
  ops::unsqueeze_copy_out(out, iota({3}), -1);
  EXPECT_THAT(out.sizes(), ElementsAre(3, 1));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2));
}

TEST(UnsqueezeCopy, RejectsADimPastTheEnd) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::unsqueeze_copy_out(out, iota({3}), 2); }),
              HasSubstr("aten::unsqueeze_copy.out: aten::unsqueeze: dimension out of range for argument 'dim' "
                        "(expected to be in range of [-2, 1], but got 2)"));
}

// ---- alias_copy -------------------------------------------------------------------------------------

TEST(AliasCopy, CopiesAStridedInputIntoNewMemory) {
  const Tensor base = iota({6});
  const Tensor every_other = viewOf(base, {3}, {2});
  Tensor out = emptyOut();
  ops::alias_copy_out(out, every_other);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 2, 4));
  EXPECT_FALSE(sharesStorage(out, base));
}

TEST(AliasCopy, WritesThroughAnOutOfTheRightShapeWithItsOwnStrides) {
  Tensor storage = sy::zeros({4});
  Tensor out = viewOf(storage, {2, 2}, {1, 2});  // column-major
  ops::alias_copy_out(out, tensor<float>({1, 2, 3, 4}, {2, 2}));
  EXPECT_THAT(out.strides(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(storage), ElementsAre(1, 3, 2, 4));
}

TEST(AliasCopy, RejectsAnOutWithAStrideZeroDimension) {
  Tensor storage = sy::zeros({2});
  Tensor out = viewOf(storage, {2, 2}, {0, 1});
  EXPECT_THAT(errorMessageOf([&] { ops::alias_copy_out(out, iota({2, 2})); }),
              HasSubstr("aten::alias_copy.out"));
}

// ---- select_copy / slice_copy -----------------------------------------------------------------------

TEST(SelectCopy, TakesOneIndexAndDropsTheDimension) {
  Tensor out = emptyOut();
  ops::select_copy_out(out, iota({3, 4}), 1, -1);
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(3, 7, 11));
  ops::select_copy_out(out, iota({3, 4}), 0, 1);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(4, 5, 6, 7));
}

TEST(SelectCopy, RejectsAnIndexOutOfRange) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::select_copy_out(out, iota({3, 4}), 1, 4); }),
              HasSubstr("aten::select_copy.int_out: aten::select.int: select(): index 4 out of range"));
}

TEST(SliceCopy, FollowsPythonSlicing) {
  Tensor out = emptyOut();
  ops::slice_copy_out(out, iota({10}), 0, 1, -1, 3);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1, 4, 7));
  ops::slice_copy_out(out, iota({2, 5}), 1, 1, 100, 2);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1, 3, 6, 8));
  ops::slice_copy_out(out, iota({4}), 0, 3, 1);
  EXPECT_THAT(out.sizes(), ElementsAre(0));
}

TEST(SliceCopy, RejectsANonPositiveStep) {
  Tensor out = emptyOut();
  EXPECT_THAT(errorMessageOf([&] { ops::slice_copy_out(out, iota({4}), 0, 0, 4, 0); }),
              HasSubstr("aten::slice_copy.Tensor_out: aten::slice.Tensor: slice step must be positive, but got "
                        "step=0"));
}

TEST(ViewCopies, CallThroughTheBoxedPathWithTheSchemasDefaults) {
  // slice_copy.Tensor_out with only self and out given: dim=0, start=None, end=None, step=1.
  const auto& op = Dispatcher::singleton().findSchemaOrThrow("aten::slice_copy", "Tensor_out");
  Tensor out = emptyOut();
  Stack stack;
  stack.push_back(iota({3}));
  stack.push_back(int64_t{0});
  stack.push_back(IValue());
  stack.push_back(IValue());
  stack.push_back(int64_t{1});
  stack.push_back(out);
  op.callBoxed(stack);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2));
}

}  // namespace
}  // namespace sy
