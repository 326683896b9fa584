// diagonal_copy, as_strided_copy and unfold_copy through the dispatcher: geometry a hostile caller
// controls (as_strided_copy's sizes, strides and offset are checked against self's storage), errors,
// outs that are self.
#include <cstdint>
#include <limits>

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

// A contiguous self's squeeze copy is its bytes; a dim out of range or named twice is still the
// view's error, whatever out is (an out of one element must not take three elements' bytes).
TEST(SqueezeCopy, AContiguousSelfIsCopiedAsBytesAndBadDimsStillRaise) {
  const Tensor self = iota({2, 1, 3});
  Tensor out = sy::empty({2, 3});
  ops::squeeze_copy_out(out, self, std::vector<int64_t>{1});
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  ops::squeeze_copy_out(out, self, int64_t{-2});
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  Tensor one = sy::empty({1, 1, 1, 1});
  EXPECT_THAT(errorMessageOf([&] { ops::squeeze_copy_out(one, iota({3}), std::vector<int64_t>{5}); }),
              HasSubstr("aten::squeeze_copy"));
  EXPECT_THAT(errorMessageOf([&] { ops::squeeze_copy_out(out, self, std::vector<int64_t>{1, 1}); }),
              HasSubstr("aten::squeeze_copy"));
}

TEST(DiagonalCopy, CopiesTheDiagonalAboveOrBelowTheMainOne) {
  EXPECT_THAT(valuesOf<float>(ops::diagonal_copy(iota({3, 4}))), ElementsAre(0, 5, 10));
  EXPECT_THAT(valuesOf<float>(ops::diagonal_copy(iota({3, 4}), 1)), ElementsAre(1, 6, 11));
  EXPECT_THAT(valuesOf<float>(ops::diagonal_copy(iota({3, 4}), -1)), ElementsAre(4, 9));
  EXPECT_THAT(ops::diagonal_copy(iota({3, 4}), 9).sizes(), ElementsAre(0));
  // The plane's dims are dropped and the diagonal is the last dimension.
  const Tensor batched = ops::diagonal_copy(iota({2, 2, 3}), 0, 1, 2);
  EXPECT_THAT(batched.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(batched), ElementsAre(0, 4, 6, 10));
  EXPECT_THAT(errorMessageOf([&] { ops::diagonal_copy(iota({3, 3}), 0, 1, -1); }),
              HasSubstr("aten::diagonal_copy: diagonal dimensions cannot be identical 1, -1"));
  EXPECT_THAT(errorMessageOf([&] { ops::diagonal_copy(iota({3})); }), HasSubstr("dimension out of range"));
}

TEST(AsStridedCopy, ReadsAnyGeometryWithinSelfsStorage) {
  EXPECT_THAT(valuesOf<float>(ops::as_strided_copy(iota({6}), {2, 2}, {1, 2})), ElementsAre(0, 2, 1, 3));
  EXPECT_THAT(valuesOf<float>(ops::as_strided_copy(iota({6}), {2}, {2}, 1)), ElementsAre(1, 3));
  // The default offset is self's own; an explicit one counts from the storage's start.
  const Tensor tail = testing::viewOf(iota({6}), {3}, {1}, 3);
  EXPECT_THAT(valuesOf<float>(ops::as_strided_copy(tail, {2}, {1})), ElementsAre(3, 4));
  EXPECT_THAT(valuesOf<float>(ops::as_strided_copy(tail, {2}, {1}, 0)), ElementsAre(0, 1));
  // Nothing is read for an empty size, whatever the offset.
  EXPECT_EQ(ops::as_strided_copy(iota({2}), {0, 3}, {1, 1}, 100).numel(), 0);
}

TEST(AsStridedCopy, RefusesGeometryThatReachesPastTheStorageOrOverflows) {
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {3}, {2}); }),
              HasSubstr("aten::as_strided_copy: sizes (3,), strides (2,) and storage offset 0 reach element 4, out of "
                        "bounds for storage of 4 elements"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {1}, {1}, 4); }), HasSubstr("out of bounds"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {2}, {-1}); }),
              HasSubstr("Negative strides are not supported at the moment, got strides: (-1,)"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {-2}, {1}); }),
              HasSubstr("Trying to create tensor with negative dimension -2"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {2}, {1}, -1); }),
              HasSubstr("invalid storage offset -1"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {2, 2}, {1}); }),
              HasSubstr("mismatch in length of strides and shape (2 sizes, 1 strides)"));
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {2}, {1}, huge); }),
              HasSubstr("reach past what 64 bits hold"));
  EXPECT_THAT(errorMessageOf([&] { ops::as_strided_copy(iota({4}), {huge, 3}, {huge, 1}); }),
              HasSubstr("reach past what 64 bits hold"));
}

TEST(AsStridedCopy, AnOutThatIsSelfGetsSelfsOldValues) {
  Tensor x = iota({4});
  ops::as_strided_copy_out(x, x, {2, 3}, {1, 1});
  EXPECT_THAT(x.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0, 1, 2, 1, 2, 3));
}

TEST(UnfoldCopy, CopiesTheWindowsOfADimensionAsANewLastDimension) {
  const Tensor windows = ops::unfold_copy(iota({5}), 0, 2, 2);
  EXPECT_THAT(windows.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(windows), ElementsAre(0, 1, 2, 3));
  const Tensor rows = ops::unfold_copy(iota({2, 3}), 1, 2, 1);
  EXPECT_THAT(rows.sizes(), ElementsAre(2, 2, 2));
  EXPECT_THAT(valuesOf<float>(rows), ElementsAre(0, 1, 1, 2, 3, 4, 4, 5));
  EXPECT_THAT(ops::unfold_copy(sy::full({}, 7.0), 0, 1, 1).sizes(), ElementsAre(1));
  EXPECT_THAT(errorMessageOf([&] { ops::unfold_copy(iota({5}), 0, 6, 1); }),
              HasSubstr("aten::unfold_copy: maximum size for tensor at dimension 0 is 5 but size is 6"));
  EXPECT_THAT(errorMessageOf([&] { ops::unfold_copy(iota({5}), 0, 2, 0); }), HasSubstr("step is 0 but must be > 0"));
  EXPECT_THAT(errorMessageOf([&] { ops::unfold_copy(iota({5}), 0, -1, 1); }), HasSubstr("size is -1 but must be >= 0"));
}

}  // namespace
}  // namespace sy
