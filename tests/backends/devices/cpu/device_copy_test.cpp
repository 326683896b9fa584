// et_copy::_h2d_copy.out and _d2h_copy.out on the CPU: a program whose device buffers were planned
// in host memory copies host to host, with out shaped like self.
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

TEST(DeviceCopy, BothDirectionsCopySelfIntoAnOutOfItsShape) {
  for (auto copy : {&::et_copy::ops::_h2d_copy_out, &::et_copy::ops::_d2h_copy_out}) {
    Tensor out = sy::empty({0});
    copy(out, iota({2, 3}));
    EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
    EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  }
}

TEST(DeviceCopy, ReadsAStridedSelfInLogicalOrder) {
  Tensor out = sy::empty({3, 2});
  ::et_copy::ops::_h2d_copy_out(out, iota({2, 3}).transpose(0, 1));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(DeviceCopy, RefusesAnOutOfAnotherDtype) {
  Tensor out = sy::empty({2, 3}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ::et_copy::ops::_d2h_copy_out(out, iota({2, 3})); }),
              HasSubstr("et_copy::_d2h_copy.out: expected 'out' to have the dtype of 'self' (Float) but got Long"));
}

}  // namespace
}  // namespace sy
