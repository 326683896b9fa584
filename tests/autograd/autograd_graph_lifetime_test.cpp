// How long the recorded graph lives and what building and freeing it costs: a graph of any depth
// and sharing is freed without recursion, and a chain of recorded views costs the same per view.
#include <pthread.h>

#include <cstddef>
#include <functional>
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

// Deep enough that freeing the graph by recursion, a few frames per node, overflows the stack of
// runOnASmallStack many times over, and small enough to record in a few milliseconds.
constexpr int kDeepGraph = 20000;

// Runs `fn` on a thread with a stack of `bytes`: a teardown recursing once per node crashes there
// instead of passing by luck on a large main stack.
void runOnASmallStack(const std::function<void()>& fn, size_t bytes = size_t{512} << 10) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, bytes), 0);
  pthread_t thread;
  auto body = [](void* f) -> void* {
    (*static_cast<const std::function<void()>*>(f))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, body, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

// Records kDeepGraph steps `y = step(y)` from a leaf, drops y on a small stack, and checks that the
// whole graph went with it (the leaf is held by nothing else).
void expectDeepGraphFreedWithoutRecursion(const std::function<Tensor(const Tensor&)>& step) {
  const Tensor x = leafOf({0.0}, {1});
  Tensor y = ops::exp(x);  // 1: the steps below keep the values finite
  for (int i = 0; i < kDeepGraph; ++i) y = step(y);
  EXPECT_GT(x.use_count(), 1u);
  runOnASmallStack([&y] { y = Tensor(); });
  EXPECT_EQ(x.use_count(), 1u);
}

TEST(AutogradGraphLifetime, AChainSavingEachTensorTwiceIsFreedWithoutRecursion) {
  // mul saves both arguments: the same tensor twice.
  expectDeepGraphFreedWithoutRecursion([](const Tensor& y) { return ops::mul(y, y); });
}

TEST(AutogradGraphLifetime, AChainWhoseNodesHaveSeveralParentsIsFreedWithoutRecursion) {
  // y's node feeds sin and mul, and both save y.
  expectDeepGraphFreedWithoutRecursion([](const Tensor& y) { return ops::mul(y, ops::sin(y)); });
}

TEST(AutogradGraphLifetime, AChainOfViewsOfSavedTensorsIsFreedWithoutRecursion) {
  expectDeepGraphFreedWithoutRecursion([](const Tensor& y) {
    const Tensor v = ops::view(y, {1, 1});
    return ops::select(ops::mul(v, v), 0, 0);
  });
}

TEST(AutogradGraphLifetime, AChainThroughInPlaceWritesIsFreedWithoutRecursion) {
  // y takes a new grad_fn after mul saved it, a node only the saved tensor reaches: the chain runs
  // through saved tensors' own histories as well as through the edges.
  expectDeepGraphFreedWithoutRecursion([](const Tensor& y) {
    const Tensor z = ops::mul(y, 1.0);
    Tensor written = ops::mul(z, ops::exp(z));
    Tensor saved = z;
    ops::mul_(saved, 1.0);
    return written;
  });
}

TEST(AutogradGraphLifetime, AGraphSharedWithALiveTensorKeepsWhatThatTensorReaches) {
  const Tensor x = leafOf({0.0}, {1});
  Tensor y = ops::exp(x);
  for (int i = 0; i < 100; ++i) y = ops::mul(y, y);
  const Tensor kept = y;
  for (int i = 0; i < kDeepGraph; ++i) y = ops::mul(y, y);
  runOnASmallStack([&y] { y = Tensor(); });
  ops::sum(kept).backward();  // the first 101 nodes are still there, saved tensors included
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{0x1p100}));
}

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
