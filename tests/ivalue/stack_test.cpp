// Stack (ivalue/stack.h): the vector-like container of boxed calls, with inline slots.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "switchyard/switchyard.h"

namespace {

using sy::IValue;
using sy::Stack;

std::vector<int64_t> intsOf(const Stack& stack) {
  std::vector<int64_t> values;
  for (const IValue& v : stack) values.push_back(v.toInt());
  return values;
}

Stack countingStack(int64_t n) {
  Stack stack;
  for (int64_t i = 0; i < n; ++i) stack.emplace_back(i);
  return stack;
}

TEST(Stack, ErasingTheFirstOfSeveralValuesShiftsTheRestDown) {
  Stack stack = countingStack(5);
  stack.erase(stack.begin());
  EXPECT_EQ(intsOf(stack), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(Stack, ErasingARangeInTheMiddleKeepsBothEnds) {
  Stack stack = countingStack(6);
  stack.erase(stack.begin() + 1, stack.begin() + 3);
  EXPECT_EQ(intsOf(stack), (std::vector<int64_t>{0, 3, 4, 5}));
}

TEST(Stack, InsertingAtTheFrontShiftsTheRestUp) {
  Stack stack = countingStack(3);
  stack.insert(stack.begin(), IValue(int64_t{-1}));
  EXPECT_EQ(intsOf(stack), (std::vector<int64_t>{-1, 0, 1, 2}));
}

TEST(Stack, GrowingPastTheInlineSlotsKeepsEveryValue) {
  Stack stack = countingStack(static_cast<int64_t>(sy::kInlineStackSize) * 3);
  EXPECT_EQ(stack.size(), sy::kInlineStackSize * 3);
  EXPECT_EQ(stack.back().toInt(), static_cast<int64_t>(sy::kInlineStackSize) * 3 - 1);
  EXPECT_EQ(stack[0].toInt(), 0);
}

TEST(Stack, CopyAssigningBetweenStacksOnTheHeapReleasesTheOldValues) {
  Stack target = countingStack(static_cast<int64_t>(sy::kInlineStackSize) * 2);
  const Stack source = countingStack(static_cast<int64_t>(sy::kInlineStackSize) * 3);
  target = source;  // the target's old buffer is freed (LeakSanitizer)
  EXPECT_EQ(intsOf(target), intsOf(source));
}

// Issue 11 item 7: a boxed kernel that takes more than it was given gets an error, not corruption.
TEST(StackUnderflow, PoppingAnEmptyStackRaisesAndLeavesItEmpty) {
  Stack stack;
  try {
    sy::pop(stack);
    FAIL() << "pop on an empty stack did not raise";
  } catch (const sy::Error& e) {
    EXPECT_EQ(e.kind(), sy::ErrorKind::Index);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("Stack::pop needs 1 value(s) but the stack holds 0"));
  }
  EXPECT_TRUE(stack.empty());
}

TEST(StackUnderflow, DroppingMoreThanTheStackHoldsRaisesAndKeepsEveryValue) {
  Stack stack = countingStack(2);
  try {
    sy::drop(stack, 3);
    FAIL() << "drop(stack, 3) on two values did not raise";
  } catch (const sy::Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("Stack::drop needs 3 value(s) but the stack holds 2"));
  }
  EXPECT_EQ(intsOf(stack), (std::vector<int64_t>{0, 1}));
}

TEST(StackUnderflow, PoppingSeveralPeekingAndLastCheckTheCountToo) {
  Stack stack = countingStack(2);
  EXPECT_THROW(sy::pop(stack, 3), sy::Error);
  EXPECT_THROW(sy::peek(stack, 0, 3), sy::Error);
  EXPECT_THROW(sy::peek(stack, 2, 2), sy::Error);
  EXPECT_THROW(sy::last(stack, 3), sy::Error);
  EXPECT_THROW(stack.at(2), sy::Error);
  EXPECT_EQ(intsOf(stack), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(sy::pop(stack, 2).size(), 2u);
  EXPECT_THROW(stack.back(), sy::Error);
  EXPECT_THROW(stack.pop_back(), sy::Error);
}

}  // namespace
