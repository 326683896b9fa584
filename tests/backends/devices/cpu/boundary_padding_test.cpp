// reflection_pad1d/2d/3d and replication_pad1d/2d/3d through the dispatcher: the behaviour the PyTorch
// oracle does not check (errors and their messages, an out that is self, overflowing paddings).
// References are written out by hand.
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

TEST(ReflectionPad, MirrorsAboutTheBorderWithoutRepeatingIt) {
  const Tensor padded = ops::reflection_pad1d(iota({1, 4}), {2, 1});
  EXPECT_THAT(padded.sizes(), ElementsAre(1, 7));
  EXPECT_THAT(valuesOf<float>(padded), ElementsAre(2, 1, 0, 1, 2, 3, 2));
  // [[0 1 2] [3 4 5]] with one row on top and one column each side.
  EXPECT_THAT(valuesOf<int64_t>(ops::reflection_pad2d(iota<int64_t>({1, 2, 3}), {1, 1, 1, 0})),
              ElementsAre(4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4));
  // Negative padding crops.
  EXPECT_THAT(valuesOf<float>(ops::reflection_pad1d(iota({1, 4}), {-1, 1})), ElementsAre(1, 2, 3, 2));
}

TEST(ReplicationPad, RepeatsTheBorderElementAndCropsWithNegativePadding) {
  EXPECT_THAT(valuesOf<float>(ops::replication_pad1d(iota({1, 4}), {2, -1})), ElementsAre(0, 0, 0, 1, 2));
  // A replication padding may exceed the dimension's size.
  EXPECT_THAT(valuesOf<int32_t>(ops::replication_pad1d(iota<int32_t>({1, 2}), {3, 0})), ElementsAre(0, 0, 0, 0, 1));
  const Tensor deeper = ops::replication_pad3d(iota({1, 1, 2, 2}), {0, 0, 0, 0, 1, 0});
  EXPECT_THAT(deeper.sizes(), ElementsAre(1, 2, 2, 2));
  EXPECT_THAT(valuesOf<float>(deeper), ElementsAre(0, 1, 2, 3, 0, 1, 2, 3));
}

TEST(ReflectionPad, RefusesAPaddingAsLargeAsItsDimension) {
  EXPECT_THAT(errorMessageOf([&] { ops::reflection_pad1d(iota({2, 4}), {4, 0}); }),
              HasSubstr("aten::reflection_pad1d: Padding size should be less than the corresponding input dimension, "
                        "but got: padding (4, 0) at dimension 1 of input"));
  EXPECT_THAT(errorMessageOf([&] { ops::reflection_pad2d(iota({1, 2, 3}), {0, 0, 0, 2}); }),
              HasSubstr("padding (0, 2) at dimension 1 of input"));
}

TEST(ReplicationPad, RefusesInputsOfTheWrongRankOrWithAnEmptyNonBatchDimension) {
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad2d(iota({4}), {1, 1, 1, 1}); }),
              HasSubstr("aten::replication_pad2d: Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                        "and other non-zero dimensions for input, but got: (4,)"));
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad1d(iota({2, 0}), {1, 1}); }),
              HasSubstr("other non-zero dimensions for input, but got: (2, 0)"));
  // An empty batch is fine.
  EXPECT_THAT(ops::replication_pad1d(iota({0, 2, 3}), {1, 1}).sizes(), ElementsAre(0, 2, 5));
}

TEST(ReplicationPad, RefusesAPaddingListOfTheWrongLengthAndAnOutputTooSmall) {
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad1d(iota({1, 3}), {1, 1, 1}); }),
              HasSubstr("aten::replication_pad1d: padding size is expected to be 2, but got: 3"));
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad1d(iota({1, 2}), {-1, -1}); }),
              HasSubstr("aten::replication_pad1d: input (W: 2) is too small. Calculated output W: 0"));
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad2d(iota({1, 2, 2}), {-3, 0, 0, 0}); }),
              HasSubstr("input (H: 2, W: 2) is too small. Calculated output H: 2 W: -1"));
  // As in PyTorch, a 2d padding may empty one dimension while the other keeps elements.
  EXPECT_THAT(ops::replication_pad2d(iota({1, 2, 2}), {0, 0, -2, 0}).sizes(), ElementsAre(1, 0, 2));
}

TEST(ReplicationPad, RefusesAPaddingWhoseSizeOverflows) {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(errorMessageOf([&] { ops::replication_pad1d(iota({1, 2}), {huge, 1}); }),
              HasSubstr("aten::replication_pad1d: padding dimension 1 by 9223372036854775807 and 1 gives a size "
                        "larger than 64 bits hold"));
}

TEST(ReflectionPad, AnOutThatIsSelfGetsThePaddingOfSelfsOldValues) {
  Tensor x = iota({1, 3});
  ops::reflection_pad1d_out(x, x, {1, 1});
  EXPECT_THAT(x.sizes(), ElementsAre(1, 5));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 0, 1, 2, 1));
  Tensor longs = sy::empty({0}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::reflection_pad1d_out(longs, iota({1, 3}), {1, 1}); }),
              HasSubstr("aten::reflection_pad1d.out: expected 'out' to have self's dtype Float but got Long"));
}

TEST(ReplicationPad, TakesBoolAndWritesAStridedOut) {
  const Tensor flags = ops::ne(iota<int32_t>({1, 2}), sy::zeros({1}, ScalarType::Int));  // false true
  EXPECT_THAT(valuesOf<bool>(ops::replication_pad1d(flags, {1, 1})), ElementsAre(false, false, true, true));
  Tensor out = ops::transpose(sy::zeros({4, 1}), 0, 1);  // [1, 4], strides (1, 1)
  ops::replication_pad1d_out(out, iota({1, 2}), {1, 1});
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 0, 1, 1));
}

}  // namespace
}  // namespace sy
