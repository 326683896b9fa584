// The splitting copies (split_copy.Tensor_out, split_with_sizes_copy.out, unbind_copy.int_out, which
// write a list of outs, and their functional forms, which return one), stack, t_copy and squeeze_copy.dim, through the dispatcher: the behaviour
// the PyTorch oracle does not check (errors, outs that share memory with self, strided outs,
// dtypes). References are written out by hand.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::sharesStorage;
using sy::testing::valuesOf;
using sy::testing::viewOf;

std::vector<Tensor> emptyPieces(size_t n, ScalarType dtype = ScalarType::Float) {
  std::vector<Tensor> outs;
  for (size_t i = 0; i < n; ++i) outs.push_back(sy::empty({0}, dtype));
  return outs;
}

// ---- split_copy / split_with_sizes_copy / unbind_copy -------------------------------------------

TEST(SplitCopy, CutsSelfIntoPiecesOfSplitSizeWithAShorterLastOne) {
  const Tensor x = iota({5, 2});
  std::vector<Tensor> outs = emptyPieces(3);
  ops::split_copy_out(outs, x, 2, 0);
  EXPECT_THAT(outs[0].sizes(), ElementsAre(2, 2));
  EXPECT_THAT(outs[2].sizes(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(outs[0]), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(valuesOf<float>(outs[1]), ElementsAre(4, 5, 6, 7));
  EXPECT_THAT(valuesOf<float>(outs[2]), ElementsAre(8, 9));
  for (const Tensor& o : outs) EXPECT_FALSE(sharesStorage(o, x));
}

TEST(SplitCopy, RefusesAnOutListOfTheWrongLength) {
  std::vector<Tensor> outs = emptyPieces(2);
  EXPECT_THAT(errorMessageOf([&] { ops::split_copy_out(outs, iota({5}), 2, 0); }),
              HasSubstr("aten::split_copy.Tensor_out: expected 'out' to hold 3 tensors (one per piece of 'self'), "
                        "but it holds 2"));
}

TEST(SplitCopy, RefusesANegativeOrZeroSplitSize) {
  std::vector<Tensor> outs = emptyPieces(1);
  EXPECT_THAT(errorMessageOf([&] { ops::split_copy_out(outs, iota({4}), -1, 0); }),
              HasSubstr("aten::split_copy.Tensor_out: expected 'split_size' to be non-negative, but got -1"));
  EXPECT_THAT(errorMessageOf([&] { ops::split_copy_out(outs, iota({4}), 0, 0); }),
              HasSubstr("'split_size' can only be 0 if dimension 0 is empty, but its size is 4"));
}

TEST(SplitCopy, RefusesAZeroDimSelfAndAnOutOfAnotherDtype) {
  std::vector<Tensor> outs = emptyPieces(1);
  EXPECT_THAT(errorMessageOf([&] { ops::split_copy_out(outs, sy::full({}, 1.0), 1, 0); }),
              HasSubstr("at least one dimension to split, but 'self' is 0-dim"));
  std::vector<Tensor> longs = emptyPieces(2, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::split_copy_out(longs, iota({4}), 2, 0); }),
              HasSubstr("expected 'out[0]' to have self's dtype Float but got Long"));
}

TEST(SplitWithSizesCopy, WritesEachPieceAlongTheInnerDimensionOfAStridedSelf) {
  const Tensor x = ops::transpose(iota({3, 2}), 0, 1);  // [2, 3]: 0 2 4 / 1 3 5
  std::vector<Tensor> outs = emptyPieces(2);
  ops::split_with_sizes_copy_out(outs, x, {1, 2}, -1);
  EXPECT_THAT(outs[0].sizes(), ElementsAre(2, 1));
  EXPECT_THAT(valuesOf<float>(outs[0]), ElementsAre(0, 1));
  EXPECT_THAT(valuesOf<float>(outs[1]), ElementsAre(2, 4, 3, 5));
}

TEST(SplitWithSizesCopy, WritesIntoStridedOutsOfThePiecesShape) {
  const Tensor x = iota<int64_t>({2, 4});
  const Tensor a_base = sy::zeros({2, 2}, ScalarType::Long);
  const Tensor a = ops::transpose(a_base, 0, 1);  // [2, 2], strides (1, 2)
  std::vector<Tensor> outs{a, sy::empty({0}, ScalarType::Long)};
  ops::split_with_sizes_copy_out(outs, x, {2, 2}, 1);
  EXPECT_THAT(a.strides(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<int64_t>(a), ElementsAre(0, 1, 4, 5));
  EXPECT_THAT(valuesOf<int64_t>(outs[1]), ElementsAre(2, 3, 6, 7));
}

TEST(SplitWithSizesCopy, RefusesSizesThatDoNotAddUpOrAreNegative) {
  std::vector<Tensor> outs = emptyPieces(2);
  EXPECT_THAT(errorMessageOf([&] { ops::split_with_sizes_copy_out(outs, iota({5}), {2, 2}, 0); }),
              HasSubstr("aten::split_with_sizes_copy.out: expected 'split_sizes' to add up to 5 (the size of 'self' "
                        "at dimension 0), but got (2, 2), which add up to 4"));
  EXPECT_THAT(errorMessageOf([&] { ops::split_with_sizes_copy_out(outs, iota({5}), {-1, 6}, 0); }),
              HasSubstr("expected 'split_sizes' to hold only non-negative sizes, but got (-1, 6)"));
}

// An out that is self itself receives its piece of self as it was before the call.
TEST(SplitWithSizesCopy, AnOutThatIsSelfGetsSelfsValuesFromBeforeTheCall) {
  Tensor x = iota({4});
  std::vector<Tensor> outs{sy::empty({0}), x};
  ops::split_with_sizes_copy_out(outs, x, {1, 3}, 0);
  EXPECT_THAT(valuesOf<float>(outs[0]), ElementsAre(0));
  EXPECT_THAT(x.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 2, 3));
}

TEST(UnbindCopy, WritesEachIndexAlongDimWithoutThatDimension) {
  const Tensor x = iota<int32_t>({2, 3});
  std::vector<Tensor> outs = emptyPieces(3, ScalarType::Int);
  ops::unbind_copy_out(outs, x, 1);
  EXPECT_THAT(outs[0].sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<int32_t>(outs[0]), ElementsAre(0, 3));
  EXPECT_THAT(valuesOf<int32_t>(outs[2]), ElementsAre(2, 5));
}

TEST(UnbindCopy, RefusesAnOutOfRangeDim) {
  std::vector<Tensor> outs = emptyPieces(2);
  EXPECT_THAT(errorMessageOf([&] { ops::unbind_copy_out(outs, iota({2, 3}), 2); }),
              HasSubstr("aten::unbind_copy.int_out: dimension out of range"));
}

// ---- stack --------------------------------------------------------------------------------------

TEST(SplitCopyFunctionalForms, ReturnAsManyFreshPiecesAsSelfGives) {
  const Tensor x = iota({5, 2}).to(ScalarType::Half);
  const std::vector<Tensor> split = ops::split_copy(x, 2, 0);
  ASSERT_EQ(split.size(), 3u);
  EXPECT_THAT(split[2].sizes(), ElementsAre(1, 2));
  EXPECT_EQ(split[2].scalar_type(), ScalarType::Half);
  EXPECT_THAT(valuesOf<float>(split[1].to(ScalarType::Float)), ElementsAre(4, 5, 6, 7));
  const std::vector<Tensor> sized = ops::split_with_sizes_copy(x, {1, 0, 4}, -2);
  ASSERT_EQ(sized.size(), 3u);
  EXPECT_THAT(sized[1].sizes(), ElementsAre(0, 2));
  const std::vector<Tensor> rows = ops::unbind_copy(x, 1);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_THAT(rows[1].sizes(), ElementsAre(5));
  for (const Tensor& o : rows) EXPECT_FALSE(sharesStorage(o, x));
}

TEST(SplitCopyFunctionalForms, RaiseNamingTheFormCalledBeforeCreatingAnyOut) {
  EXPECT_THAT(errorMessageOf([] { ops::split_copy(iota({4}), -1, 0); }),
              HasSubstr("aten::split_copy.Tensor: expected 'split_size' to be non-negative, but got -1"));
  EXPECT_THAT(errorMessageOf([] { ops::split_with_sizes_copy(iota({4}), {1, 2}, 0); }),
              HasSubstr("aten::split_with_sizes_copy: expected 'split_sizes' to add up to 4"));
  EXPECT_THAT(errorMessageOf([] { ops::unbind_copy(sy::full({}, 1.0), 0); }),
              HasSubstr("aten::unbind_copy.int: expected a tensor with at least one dimension to split"));
}

TEST(SplitCopyFunctionalForms, RunBoxedByNameAndReturnATensorList) {
  const auto handle = Dispatcher::singleton().findSchemaOrThrow("aten::unbind_copy", "int");
  Stack stack{iota({3, 2}), int64_t{0}};
  handle.callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  ASSERT_TRUE(stack[0].isTensorList());
  EXPECT_EQ(stack[0].toTensorList().size(), 3u);
  EXPECT_THAT(valuesOf<float>(stack[0].toTensorList()[2]), ElementsAre(4, 5));
}

TEST(Stack, JoinsEqualShapesAlongANewDimension) {
  const Tensor a = iota({2, 2});
  const Tensor b = iota({2, 2}, 10);
  Tensor out = sy::empty({0});
  ops::stack_out(out, {a, b}, 1);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 10, 11, 2, 3, 12, 13));
  const Tensor last = ops::stack({a, b}, -1);
  EXPECT_THAT(last.sizes(), ElementsAre(2, 2, 2));
  EXPECT_THAT(valuesOf<float>(last), ElementsAre(0, 10, 1, 11, 2, 12, 3, 13));
}

TEST(Stack, PromotesTheInputsDtypesAndWritesATransposedOut) {
  const Tensor a = iota<int32_t>({3});
  const Tensor b = iota({3}, 10);
  Tensor out = ops::transpose(sy::zeros({3, 2}, ScalarType::Double), 0, 1);  // [2, 3], strides (1, 2)
  ops::stack_out(out, {a, b}, 0);
  EXPECT_EQ(ops::stack({a, b}, 0).scalar_type(), ScalarType::Float);
  EXPECT_THAT(out.strides(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(0, 1, 2, 10, 11, 12));
}

TEST(Stack, ReadsAnInputThatIsAlsoTheOutBeforeWritingIt) {
  Tensor a = iota({2});
  ops::stack_out(a, {a, iota({2}, 5)}, 0);
  EXPECT_THAT(a.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(a), ElementsAre(0, 1, 5, 6));
}

TEST(Stack, RefusesAnEmptyListTensorsOfOtherShapesAndAnOutItCannotCastTo) {
  Tensor out = sy::empty({0});
  EXPECT_THAT(errorMessageOf([&] { ops::stack_out(out, std::vector<Tensor>{}, 0); }),
              HasSubstr("aten::stack.out: expected a non-empty list of Tensors"));
  EXPECT_THAT(errorMessageOf([&] { ops::stack_out(out, {iota({2, 3}), iota({3, 2})}, 0); }),
              HasSubstr("stack expects each tensor to be equal size, but got (2, 3) at entry 0 and (3, 2) at entry 1"));
  EXPECT_THAT(errorMessageOf([&] { ops::stack_out(out, {iota({2}), iota({2})}, 2); }),
              HasSubstr("aten::stack.out: dimension out of range"));
  Tensor longs = sy::empty({0}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::stack_out(longs, {iota({2}), iota({2})}, 0); }),
              HasSubstr("result type Float can't be cast to the desired output type Long"));
}

// ---- t_copy / squeeze_copy.dim ------------------------------------------------------------------

TEST(TCopy, TransposesAMatrixAndCopiesAVectorAsItIs) {
  Tensor out = sy::empty({0});
  ops::t_copy_out(out, iota({2, 3}));
  EXPECT_THAT(out.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 3, 1, 4, 2, 5));
  ops::t_copy_out(out, iota({3}));
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  EXPECT_THAT(errorMessageOf([&] { ops::t_copy_out(out, iota({2, 3, 4})); }),
              HasSubstr("aten::t_copy.out: t() expects a tensor with <= 2 dimensions, but self is 3D"));
}

TEST(SqueezeCopyDim, DropsTheDimensionOnlyWhenItsSizeIsOne) {
  Tensor out = sy::empty({0});
  ops::squeeze_copy_out(out, iota({2, 1, 3}), int64_t{1});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  ops::squeeze_copy_out(out, iota({2, 1, 3}), int64_t{-1});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 1, 3));
  EXPECT_THAT(errorMessageOf([&] { ops::squeeze_copy_out(out, iota({2}), int64_t{3}); }),
              HasSubstr("aten::squeeze_copy.dim_out: aten::squeeze.dim: dimension out of range"));
}

}  // namespace
}  // namespace sy
