// How long the recorded graph lives and what building and freeing it costs: a chain of recorded
// views costs the same per view.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/autograd_meta.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::doublesOf;
using testing::errorMessageOf;
using testing::leafOf;

// ---- Views ----

TEST(AutogradGraphLifetime, EachViewInAChainCountsOnlyAgainstTheFirstBase) {
  const Tensor x = leafOf({1, 2, 3, 4}, {4});
  Tensor base = ops::mul(x, 2.0);  // not a leaf: it may be written in place once its views are gone
  Tensor v = base;
  // 100,000 views: quadratic work (every view copying the counters of all views before it) would
  // take minutes; a constant amount per view takes a fraction of a second.
  for (int i = 0; i < 100000; ++i) v = ops::view(v, i % 2 == 0 ? std::vector<int64_t>{2, 2} : std::vector<int64_t>{4});
  const autograd::AutogradMeta* view_meta = autograd::metaOf(v);
  const autograd::AutogradMeta* base_meta = autograd::metaOf(base);
  ASSERT_NE(view_meta, nullptr);
  ASSERT_NE(base_meta, nullptr);
  EXPECT_EQ(view_meta->view_of, base_meta->live_views);
  EXPECT_EQ(base_meta->live_views->load(), 1);  // the intermediate views are gone
  EXPECT_THAT(errorMessageOf([&] { ops::mul_(base, 3.0); }), HasSubstr("has views that are still alive"));
  EXPECT_THAT(errorMessageOf([&] { ops::mul_(v, 3.0); }), HasSubstr("is a view of another tensor that requires grad"));
  v = Tensor();
  EXPECT_EQ(base_meta->live_views->load(), 0);
  ops::mul_(base, 3.0);
  ops::sum(base).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{6, 6, 6, 6}));
}

TEST(AutogradGraphLifetime, AViewOfAViewSendsItsGradientToTheFirstBase) {
  const Tensor x = leafOf({1, 2, 3, 4, 5, 6}, {6});
  Tensor v = x;
  for (int i = 0; i < 1000; ++i) v = ops::view(v, i % 2 == 0 ? std::vector<int64_t>{2, 3} : std::vector<int64_t>{6});
  const Tensor row = ops::select(ops::view(v, {2, 3}), 0, 1);
  ops::sum(ops::mul(row, row)).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{0, 0, 0, 8, 10, 12}));
}

}  // namespace
}  // namespace sy
