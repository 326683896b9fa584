// repeat_interleave's index form (repeat_interleave.Tensor and .Tensor_out) through the dispatcher:
// dtypes, errors, an out that is repeats.
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
using sy::testing::valuesOf;

TEST(RepeatInterleave, RepeatsEachIndexAsOftenAsItsCountInRepeatsDtype) {
  const Tensor ints = ops::repeat_interleave(tensor<int32_t>({2, 0, 1}, {3}));
  EXPECT_EQ(ints.scalar_type(), ScalarType::Int);
  EXPECT_THAT(valuesOf<int32_t>(ints), ElementsAre(0, 0, 2));
  EXPECT_THAT(valuesOf<int64_t>(ops::repeat_interleave(tensor<int64_t>({1, 2}, {2}), 3)), ElementsAre(0, 1, 1));
  EXPECT_EQ(ops::repeat_interleave(sy::empty({0}, ScalarType::Long)).numel(), 0);
}

TEST(RepeatInterleave, RefusesNegativeCountsAWrongOutputSizeAndRepeatsThatAreNotAVector) {
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave(tensor<int64_t>({1, -1}, {2})); }),
              HasSubstr("aten::repeat_interleave.Tensor: repeats can not be negative (repeats[1] is -1)"));
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave(tensor<int64_t>({1, 2}, {2}), 4); }),
              HasSubstr("allocated size does not match required size (output_size is 4 but the repeats sum to 3)"));
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave(tensor<int64_t>({1, 2, 3, 4}, {2, 2})); }),
              HasSubstr("repeat_interleave only accept 1D vector as repeat (got a 2-D tensor)"));
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave(sy::zeros({2})); }),
              HasSubstr("argument 'repeats' has dtype Float"));
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave(tensor<int64_t>({huge, huge}, {2})); }),
              HasSubstr("the repeats sum to more than 64 bits hold"));
}

TEST(RepeatInterleave, AnOutThatIsRepeatsGetsTheIndicesOfItsOldCounts) {
  Tensor r = tensor<int64_t>({1, 2}, {2});
  ops::repeat_interleave_out(r, r);
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAre(0, 1, 1));
  Tensor ints = sy::empty({0}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::repeat_interleave_out(ints, tensor<int64_t>({1}, {1})); }),
              HasSubstr("aten::repeat_interleave.Tensor_out: expected 'out' to have repeats' dtype Long but got Int"));
}

}  // namespace
}  // namespace sy
