// topk through the dispatcher: the order of ties and NaNs (See Note [topk orders ties by index,
// sorted or not]), errors, outs that are self, rows longer than the kernel's stack buffer.
#include <cmath>
#include <cstdint>
#include <tuple>

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
using sy::testing::kNaN;
using sy::testing::valuesOf;

TEST(Topk, OrdersEqualValuesByTheirIndexSortedOrNot) {
  const Tensor x = tensor<float>({1, 3, 3, 2, 1}, {5});
  for (bool sorted : {true, false}) {
    auto [values, indices] = ops::topk(x, 3, -1, /*largest=*/true, sorted);
    EXPECT_THAT(valuesOf<float>(values), ElementsAre(3, 3, 2));
    EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1, 2, 3));
    auto [small, small_indices] = ops::topk(x, 2, 0, /*largest=*/false, sorted);
    EXPECT_THAT(valuesOf<float>(small), ElementsAre(1, 1));
    EXPECT_THAT(valuesOf<int64_t>(small_indices), ElementsAre(0, 4));
  }
}

TEST(Topk, CountsNaNAsLargerThanEveryNumber) {
  const Tensor x = tensor<float>({1, kNaN, 2}, {3});
  auto [largest, largest_indices] = ops::topk(x, 1);
  EXPECT_TRUE(std::isnan(valuesOf<float>(largest)[0]));
  EXPECT_THAT(valuesOf<int64_t>(largest_indices), ElementsAre(1));
  auto [smallest, smallest_indices] = ops::topk(x, 3, 0, /*largest=*/false);
  EXPECT_THAT(valuesOf<int64_t>(smallest_indices), ElementsAre(0, 2, 1));
}

TEST(Topk, SelectsAlongAnInnerDimAndPastTheStackBuffer) {
  auto [values, indices] = ops::topk(iota<int64_t>({2, 3}), 2, 0);
  EXPECT_THAT(values.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<int64_t>(values), ElementsAre(3, 4, 5, 0, 1, 2));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(1, 1, 1, 0, 0, 0));
  auto [top, top_indices] = ops::topk(iota({100}), 3);
  EXPECT_THAT(valuesOf<float>(top), ElementsAre(99, 98, 97));
  EXPECT_THAT(valuesOf<int64_t>(top_indices), ElementsAre(99, 98, 97));
}

TEST(Topk, TakesA0DimSelfAndAnEmptySelection) {
  auto [values, indices] = ops::topk(sy::full({}, 5.0), 1);
  EXPECT_EQ(values.dim(), 0);
  EXPECT_THAT(valuesOf<float>(values), ElementsAre(5));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(0));
  auto [none, none_indices] = ops::topk(iota({2, 3}), 0);
  EXPECT_THAT(none.sizes(), ElementsAre(2, 0));
  EXPECT_THAT(none_indices.sizes(), ElementsAre(2, 0));
}

TEST(Topk, RefusesKOutOfRangeBoolAndOutsOfTheWrongDtype) {
  EXPECT_THAT(errorMessageOf([&] { ops::topk(iota({2, 3}), 4); }),
              HasSubstr("aten::topk: selected index k out of range (k is 4, and dimension 1 has size 3)"));
  EXPECT_THAT(errorMessageOf([&] { ops::topk(iota({2, 3}), -1); }), HasSubstr("selected index k out of range"));
  EXPECT_THAT(errorMessageOf([&] { ops::topk(iota({2, 3}), 1, 2); }), HasSubstr("dimension out of range"));
  const Tensor flags = ops::ne(iota({3}), sy::zeros({1}));
  EXPECT_THAT(errorMessageOf([&] { ops::topk(flags, 1); }), HasSubstr("aten::topk: argument 'self' has dtype Bool"));
  Tensor values = sy::empty({0});
  Tensor ints = sy::empty({0}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::topk_out(values, ints, iota({3}), 1); }),
              HasSubstr("aten::topk.values: expected 'indices' to have dtype Long but got Int"));
  EXPECT_THAT(errorMessageOf([&] { ops::topk_out(values, values, iota({3}), 1); }),
              HasSubstr("aten::topk.values: 'values' and 'indices' must not share memory"));
}

TEST(Topk, AValuesOutThatIsSelfGetsTheTopOfSelfsOldValues) {
  Tensor x = tensor<float>({3, 1, 2}, {3});
  Tensor indices = sy::empty({0}, ScalarType::Long);
  auto result = ops::topk_out(x, indices, x, 2);
  EXPECT_TRUE(std::get<0>(result).is_same(x));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(3, 2));
  EXPECT_THAT(valuesOf<int64_t>(indices), ElementsAre(0, 2));
}

}  // namespace
}  // namespace sy
