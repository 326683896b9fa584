// The rearranging operators (flip, roll, repeat, tril, constant_pad_nd), fill, copy and narrow_copy,
// through the dispatcher: the behaviour the PyTorch oracle does not check (errors, outs that are
// self, strided outs, in-place forms on strided selfs). References are written out by hand.
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
using sy::testing::valuesOf;

TEST(Flip, ReversesTheListedDimensionsIntoATransposedOut) {
  Tensor out = ops::transpose(sy::zeros({3, 2}), 0, 1);  // [2, 3], strides (1, 2)
  ops::flip_out(out, iota({2, 3}), {1});
  EXPECT_THAT(out.strides(), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(2, 1, 0, 5, 4, 3));
  EXPECT_THAT(valuesOf<float>(ops::flip(iota({2, 2}), {0, -1})), ElementsAre(3, 2, 1, 0));
}

TEST(Flip, AnOutThatIsSelfGetsTheFlipOfSelfsOldValues) {
  Tensor x = iota<int64_t>({4});
  ops::flip_out(x, x, {0});
  EXPECT_THAT(valuesOf<int64_t>(x), ElementsAre(3, 2, 1, 0));
}

TEST(Flip, RefusesADimListedTwiceAndAnOutOfAnotherDtype) {
  Tensor out = sy::empty({0});
  EXPECT_THAT(errorMessageOf([&] { ops::flip_out(out, iota({2, 3}), {1, -1}); }),
              HasSubstr("aten::flip.out: dim 1 appears multiple times in the list of dims (1, -1)"));
  Tensor longs = sy::empty({0}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::flip_out(longs, iota({2}), {0}); }),
              HasSubstr("aten::flip.out: expected 'out' to have self's dtype Float but got Long"));
}

TEST(Roll, ShiftsAlongEachDimAndWrapsAround) {
  EXPECT_THAT(valuesOf<float>(ops::roll(iota({4}), {1}, {})), ElementsAre(3, 0, 1, 2));
  EXPECT_THAT(valuesOf<float>(ops::roll(iota({2, 3}), {1}, {})), ElementsAre(5, 0, 1, 2, 3, 4));
  EXPECT_THAT(valuesOf<float>(ops::roll(iota({2, 3}), {-1, 1}, {1, 0})), ElementsAre(4, 5, 3, 1, 2, 0));
  // A dimension listed twice is rolled twice.
  EXPECT_THAT(valuesOf<float>(ops::roll(iota({3}), {1, 1}, {0, 0})), ElementsAre(1, 2, 0));
}

TEST(Roll, RefusesShiftsThatDoNotMatchTheDims) {
  EXPECT_THAT(errorMessageOf([&] { ops::roll(iota({2, 3}), {1, 2}, {}); }),
              HasSubstr("aten::roll: with no 'dims', 'shifts' must hold one shift"));
  EXPECT_THAT(errorMessageOf([&] { ops::roll(iota({2, 3}), {1}, {0, 1}); }),
              HasSubstr("aten::roll: shifts and dimensions must align. shifts: 1, dims: 2"));
}

TEST(Repeat, TilesSelfWithLeadingDimensionsForExtraRepeats) {
  Tensor out = sy::empty({0}, ScalarType::Long);
  ops::repeat_out(out, iota<int64_t>({2}), {2, 2});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 4));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(0, 1, 0, 1, 0, 1, 0, 1));
  EXPECT_THAT(errorMessageOf([&] { ops::repeat(iota({2, 3}), {2}); }),
              HasSubstr("aten::repeat: Number of dimensions of repeat dims can not be smaller than number of "
                        "dimensions of tensor"));
  EXPECT_THAT(errorMessageOf([&] { ops::repeat(iota({2}), {-1}); }),
              HasSubstr("aten::repeat: expected 'repeats' to be non-negative, but got (-1,)"));
}

TEST(Tril, ZeroesAboveTheDiagonalInPlaceOnATransposedSelf) {
  Tensor x = ops::transpose(iota({3, 3}, 1), 0, 1);  // 1 4 7 / 2 5 8 / 3 6 9
  Tensor& result = ops::tril_(x, 0);
  EXPECT_TRUE(result.is_same(x));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 0, 0, 2, 5, 0, 3, 6, 9));
  EXPECT_THAT(valuesOf<float>(ops::tril(iota({2, 3}, 1), 1)), ElementsAre(1, 2, 0, 4, 5, 6));
  EXPECT_THAT(errorMessageOf([&] { ops::tril(iota({3}), 0); }),
              HasSubstr("aten::tril: tril: input tensor must have at least 2 dimensions, but 'self' has 1"));
}

TEST(ConstantPadNd, PadsTheLastDimensionsFirstAndCropsWithNegativePads) {
  const Tensor padded = ops::constant_pad_nd(iota<int32_t>({2, 2}), {1, 0, 0, 1}, 9);
  EXPECT_THAT(padded.sizes(), ElementsAre(3, 3));
  EXPECT_THAT(valuesOf<int32_t>(padded), ElementsAre(9, 0, 1, 9, 2, 3, 9, 9, 9));
  EXPECT_THAT(valuesOf<float>(ops::constant_pad_nd(iota({4}), {-1, -2}, 0)), ElementsAre(1));
}

TEST(ConstantPadNd, RefusesAnOddPadTooManyPadsANegativeSizeAndAValueTheDtypeCannotHold) {
  EXPECT_THAT(errorMessageOf([&] { ops::constant_pad_nd(iota({2}), {1}, 0); }),
              HasSubstr("aten::constant_pad_nd: Length of pad must be even but instead it equals 1"));
  EXPECT_THAT(errorMessageOf([&] { ops::constant_pad_nd(iota({2}), {1, 1, 1, 1}, 0); }),
              HasSubstr("Pad length is 4 while the input has 1 dimensions."));
  EXPECT_THAT(errorMessageOf([&] { ops::constant_pad_nd(iota({2}), {-2, -1}, 0); }),
              HasSubstr("The input size 2, plus negative padding -2 and -1 resulted in a negative output size"));
  EXPECT_THAT(errorMessageOf([&] { ops::constant_pad_nd(iota<int32_t>({2}), {1, 1}, int64_t{3000000000}); }),
              HasSubstr("value 3000000000 cannot be converted to type Int without overflow"));
}

TEST(Fill, FillsInPlaceAndRefusesAValueTensorWithDimensions) {
  Tensor x = ops::transpose(iota({2, 3}), 0, 1);
  ops::fill_(x, sy::full({}, 7.0));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(7, 7, 7, 7, 7, 7));
  Tensor out = sy::empty({0}, ScalarType::Int);
  ops::fill_out(out, iota<int32_t>({2}), 2.9);
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(2, 2));
  EXPECT_THAT(errorMessageOf([&] { ops::fill_(x, iota({1})); }),
              HasSubstr("aten::fill_.Tensor: fill_ only supports 0-dimension value tensor but got tensor with 1 "
                        "dimensions."));
}

TEST(Copy, BroadcastsSrcIntoSelfsShapeAndDtypeBeforeConvertingToOut) {
  Tensor out = sy::empty({0});
  // src 2.5 becomes 2 in self's Int, then 2.0 in out's Float.
  ops::copy_out(out, sy::zeros({2, 2}, ScalarType::Int), sy::full({2}, 2.5), false);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(2, 2, 2, 2));
  EXPECT_THAT(errorMessageOf([&] { ops::copy(iota({2}), iota({2, 2}), false); }),
              HasSubstr("aten::copy: src of shape (2, 2) cannot be broadcast to self's shape (2,)"));
}

TEST(NarrowCopy, CopiesLengthElementsFromStartAndRefusesARangePastTheEnd) {
  Tensor out = sy::empty({0});
  ops::narrow_copy_out(out, iota({2, 4}), 1, -3, 2);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(1, 2, 5, 6));
  EXPECT_THAT(errorMessageOf([&] { ops::narrow_copy_out(out, iota({3}), 0, 1, 3); }),
              HasSubstr("aten::narrow_copy.out: start (1) + length (3) exceeds dimension size (3)."));
  EXPECT_THAT(errorMessageOf([&] { ops::narrow_copy_out(out, iota({3}), 0, 4, 0); }),
              HasSubstr("start out of range (expected to be in range of [-3, 3], but got 4)"));
}

}  // namespace
}  // namespace sy
