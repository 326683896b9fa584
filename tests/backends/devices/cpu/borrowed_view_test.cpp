// Borrowed views (borrowed_view.h): a kernel's own views, made without allocating inside a
// BorrowedViews scope, holding no memory once it closes. See Note [A kernel's own views are borrowed].
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "switchyard/backends/devices/cpu/borrowed_view.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {
namespace {

TEST(BorrowedViews, AViewInsideTheScopeAllocatesNothingOnceWarm) {
  const Tensor base = tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  const auto transposedSum = [&] {
    const BorrowedViews borrow;
    const Tensor t = viewOf(base, {3, 2}, {1, 3}, 0);
    return static_cast<const float*>(t.data_ptr())[t.stride(1)];  // element (0, 1) of the transpose: base (1, 0)
  };
  EXPECT_EQ(transposedSum(), 4.0f);
  float value = 0;
  EXPECT_EQ(sy::testing::allocationsDuring([&] { value = transposedSum(); }), 0);
  EXPECT_EQ(value, 4.0f);
}

TEST(BorrowedViews, OutsideAScopeAViewIsAnOrdinaryOne) {
  const Tensor base = sy::zeros({4});
  EXPECT_FALSE(borrowedView(base, {2}, {1}, 0, base.key_set()).has_value());
  EXPECT_EQ(sy::testing::allocationsDuring([&] { Tensor v = viewOf(base, {2}, {1}, 2); }), 1);
}

TEST(BorrowedViews, ClosingTheScopeLetsGoOfTheBasesStorage) {
  Tensor base = sy::zeros({4});
  {
    const BorrowedViews borrow;
    const Tensor v = viewOf(base, {2}, {1}, 0);
    EXPECT_EQ(base.storage().use_count(), 2);
  }
  EXPECT_EQ(base.storage().use_count(), 1);  // the pool keeps no user memory alive
}

TEST(BorrowedViews, AViewThatEscapesKeepsItsStorageAndLeavesThePool) {
  Tensor escaped;
  const Tensor base = tensor(std::vector<float>{7, 8}, {2});
  {
    const BorrowedViews borrow;
    escaped = viewOf(base, {1}, {1}, 1);
  }
  {
    const BorrowedViews borrow;
    const Tensor other = viewOf(sy::zeros({3}), {3}, {1}, 0);
    EXPECT_FALSE(other.is_same(escaped));
  }
  EXPECT_EQ(static_cast<const float*>(escaped.data_ptr())[0], 8.0f);
  EXPECT_EQ(escaped.sizes(), IntArrayRef({1}));
}

TEST(BorrowedViews, NestedScopesReleaseAtTheOutermost) {
  const Tensor base = sy::zeros({4});
  {
    const BorrowedViews outer;
    const Tensor a = viewOf(base, {2}, {1}, 0);
    {
      const BorrowedViews inner;
      const Tensor b = viewOf(base, {2}, {1}, 2);
      EXPECT_FALSE(a.is_same(b));
    }
    EXPECT_EQ(a.storage().get(), base.storage().get());  // the inner scope did not take a's storage
  }
  EXPECT_EQ(base.storage().use_count(), 1);
}

TEST(BorrowedViews, ABadGeometryIsRefusedAndLeavesNothingHeld) {
  const Tensor base = sy::zeros({4});
  {
    const BorrowedViews borrow;
    EXPECT_THROW(viewOf(base, {2, 2}, {1}, 0), Error);
  }
  EXPECT_EQ(base.storage().use_count(), 1);
}

}  // namespace
}  // namespace sy::cpu
