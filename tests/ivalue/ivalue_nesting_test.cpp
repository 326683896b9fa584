// Nested generic lists and tuples: nesting is bounded where they are built, so comparing, printing
// and destroying one never recurses deeper than the bound.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "switchyard/ivalue/ivalue.h"
#include "test_support.h"

namespace {

using sy::IValue;
using sy::testing::errorMessageOf;
using ::testing::HasSubstr;

// Nests `levels` lists until the bound refuses one; returns how many were built.
int nestLists(int levels, IValue* out, bool tuples = false) {
  IValue v(int64_t{1});
  int built = 0;
  try {
    for (; built < levels; ++built) {
      std::vector<IValue> one{v};  // a copy: `v` stays when the bound refuses the new level
      v = tuples ? IValue::tuple(std::move(one)) : IValue(std::move(one));
    }
  } catch (const sy::Error&) {
  }
  *out = std::move(v);
  return built;
}

TEST(IValueNesting, ListsNestedBeyondTheBoundAreRefusedAndDeepOnesStillWork) {
  IValue a, b;
  EXPECT_EQ(nestLists(100000, &a), 1000);
  EXPECT_EQ(nestLists(100000, &b), 1000);
  EXPECT_TRUE(a == b);
  std::ostringstream printed;
  printed << a;
  EXPECT_EQ(printed.str().size(), 2001u);  // 1000 brackets on each side of the 1
}

TEST(IValueNesting, TheErrorNamesTheDepthAndTheBound) {
  IValue v(int64_t{1});
  for (int i = 0; i < 1000; ++i) v = IValue(std::vector<IValue>{v});
  EXPECT_THAT(errorMessageOf([&] { IValue(std::vector<IValue>{v}); }),
              HasSubstr("a list or tuple nested 1001 levels deep is too deep (at most 1000)"));
}

TEST(IValueNesting, TuplesAndListsCountTogether) {
  IValue v;
  EXPECT_EQ(nestLists(100000, &v, /*tuples=*/true), 1000);
  EXPECT_THAT(errorMessageOf([&] { IValue(std::vector<IValue>{v}); }), HasSubstr("too deep"));
}

TEST(IValueNesting, ARefusedListLeavesItsElementsIntact) {
  IValue v;
  nestLists(1000, &v);
  std::vector<IValue> one{v};
  EXPECT_THROW(IValue(std::move(one)), sy::Error);
  EXPECT_TRUE(v.isList());
  EXPECT_EQ(v.toList().size(), 1u);
}

}  // namespace
