// Deferred boxing (see Note [Deferred boxing], ivalue/stack.h), the Stack's side: a Stack can stand for
// arguments that are boxed only when something looks at them. Through a fallback:
// deferred_boxing_fallback_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DeferredArguments;
using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::IValue;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;

// ---- The Stack on its own ------------------------------------------------------------------------

// Deferred arguments 10, 20, 30 whose boxing is counted.
struct CountedArguments : DeferredArguments {
  CountedArguments() : DeferredArguments{&boxThem, &type_tag} {}
  static void boxThem(const DeferredArguments& self, IValue* slots) {
    ++static_cast<const CountedArguments&>(self).boxed;
    for (int64_t v : {10, 20, 30}) new (slots++) IValue(v);
  }
  static inline char type_tag = 0;
  mutable int boxed = 0;
};

// A Stack standing for those three arguments.
struct ThreeDeferredArguments {
  ThreeDeferredArguments() { stack.deferArguments(&arguments, 3); }
  CountedArguments arguments;
  Stack stack;  // after `arguments`, which it refers to
};

class DeferredStack : public ::testing::Test, protected ThreeDeferredArguments {};

TEST_F(DeferredStack, SizeCountsTheArgumentsWithoutBoxingThem) {
  EXPECT_EQ(stack.size(), 3u);
  EXPECT_FALSE(stack.empty());
  EXPECT_TRUE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, ReadingOneValueBoxesThemAllOnce) {
  EXPECT_EQ(std::as_const(stack)[1].toInt(), 20);
  EXPECT_EQ(stack[2].toInt(), 30);
  EXPECT_EQ(arguments.boxed, 1);
  EXPECT_FALSE(stack.hasDeferredArguments());
}

// Every way to look at or change the values boxes them first, and sees them boxed.
struct Access {
  const char* name;
  void (*use)(Stack& stack);
};

class EveryAccessBoxes : public ::testing::TestWithParam<Access>, protected ThreeDeferredArguments {};

TEST_P(EveryAccessBoxes, TheValuesAreTheArguments) {
  GetParam().use(stack);
  EXPECT_EQ(arguments.boxed, 1);
  EXPECT_FALSE(stack.hasDeferredArguments());
}

INSTANTIATE_TEST_SUITE_P(
    Accessors, EveryAccessBoxes,
    ::testing::Values(
        Access{"Data", [](Stack& s) { EXPECT_EQ(s.data()[0].toInt(), 10); }},
        Access{"ConstData", [](Stack& s) { EXPECT_EQ(std::as_const(s).data()[2].toInt(), 30); }},
        Access{"Iteration", [](Stack& s) {
                 std::vector<int64_t> seen;
                 for (const IValue& v : std::as_const(s)) seen.push_back(v.toInt());
                 EXPECT_EQ(seen, (std::vector<int64_t>{10, 20, 30}));
               }},
        Access{"End", [](Stack& s) { EXPECT_EQ((s.end() - 1)->toInt(), 30); }},
        Access{"Front", [](Stack& s) { EXPECT_EQ(s.front().toInt(), 10); }},
        Access{"Back", [](Stack& s) { EXPECT_EQ(s.back().toInt(), 30); }},
        Access{"Pop", [](Stack& s) {
                 EXPECT_EQ(sy::pop(s).toInt(), 30);
                 EXPECT_EQ(s.size(), 2u);
               }},
        Access{"Peek", [](Stack& s) { EXPECT_EQ(sy::peek(s, 0, 3).toInt(), 10); }},
        Access{"Last", [](Stack& s) { EXPECT_EQ(sy::last(s, 2)[0].toInt(), 20); }},
        Access{"Push", [](Stack& s) {
                 s.emplace_back(int64_t{40});
                 EXPECT_EQ(s.size(), 4u);
                 EXPECT_EQ(s[0].toInt(), 10);
               }},
        Access{"DropSome", [](Stack& s) {
                 sy::drop(s, 1);
                 ASSERT_EQ(s.size(), 2u);
                 EXPECT_EQ(s[1].toInt(), 20);
               }},
        Access{"Erase", [](Stack& s) {
                 s.erase(s.begin());
                 EXPECT_EQ(s[0].toInt(), 20);
               }},
        Access{"Insert", [](Stack& s) {
                 s.insert(s.begin(), IValue(int64_t{5}));
                 EXPECT_EQ(s[1].toInt(), 10);
               }},
        Access{"Resize", [](Stack& s) {
                 s.resize(4);
                 EXPECT_EQ(s[2].toInt(), 30);
                 EXPECT_TRUE(s[3].isNone());
               }},
        Access{"Reserve", [](Stack& s) {
                 s.reserve(100);
                 EXPECT_EQ(s[2].toInt(), 30);
               }},
        Access{"Copy", [](Stack& s) {
                 Stack copy(s);
                 EXPECT_EQ(copy[1].toInt(), 20);
               }},
        Access{"Move", [](Stack& s) {
                 Stack moved(std::move(s));
                 EXPECT_EQ(moved[1].toInt(), 20);
               }}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(DeferredStack, DroppingEveryArgumentBoxesNone) {
  sy::drop(stack, 3);
  EXPECT_TRUE(stack.empty());
  EXPECT_FALSE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, ClearingBoxesNone) {
  stack.clear();
  EXPECT_TRUE(stack.empty());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, DestroyingItBoxesNone) {
  {
    Stack another;
    another.deferArguments(&arguments, 3);
  }
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, OnlyAKernelOfTheSameTypesGetsTheArguments) {
  char other_types = 0;
  EXPECT_EQ(stack.deferredArgumentsOfType(&other_types), nullptr);
  EXPECT_EQ(stack.deferredArgumentsOfType(&CountedArguments::type_tag), &arguments);
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, TheStackStandsForTheArgumentsUntilTheKernelForgetsThem) {
  ASSERT_NE(stack.deferredArgumentsOfType(&CountedArguments::type_tag), nullptr);
  EXPECT_EQ(stack.size(), 3u);
  EXPECT_TRUE(stack.hasDeferredArguments());
  stack.forgetAll();
  EXPECT_TRUE(stack.empty());
  EXPECT_FALSE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST_F(DeferredStack, BoxedArgumentsCannotBeTakenUnboxed) {
  (void)stack.back();
  EXPECT_EQ(stack.deferredArgumentsOfType(&CountedArguments::type_tag), nullptr);
  EXPECT_EQ(stack.size(), 3u);
}

TEST_F(DeferredStack, ValuesPushedBehindTheBridgesBackAreBoxedAfterTheArguments) {
  stack.emplaceBackWithinCapacity(int64_t{40});
  EXPECT_EQ(stack.deferredArgumentsOfType(&CountedArguments::type_tag), nullptr);
  ASSERT_EQ(stack.size(), 4u);
  EXPECT_EQ(stack[0].toInt(), 10);
  EXPECT_EQ(stack[3].toInt(), 40);
}

TEST(DeferredStackErrors, DeferringOntoAStackThatHoldsValuesIsAnError) {
  CountedArguments arguments;
  Stack stack{IValue(int64_t{1})};
  EXPECT_EQ(errorMessageOf([&] { stack.deferArguments(&arguments, 3); }),
            "Stack::deferArguments: the Stack already holds 1 value(s)");
  EXPECT_EQ(stack.size(), 1u);
  EXPECT_EQ(arguments.boxed, 0);
}

// ---- Boxing that fails ---------------------------------------------------------------------------

// An argument that cannot be boxed (an int list longer than a borrowed one can say) fails the read
// that boxes it, and every later read; the arguments boxed before it are released each time
// (LeakSanitizer checks the string), and dropping the arguments still works.
class UnboxableArguments : public ::testing::Test {
 protected:
  UnboxableArguments() { stack.deferArguments(&call, 2); }
  const OperatorHandle op = sy::Dispatcher::singleton().findSchemaOrThrow("aten::acos", "");
  std::string_view text = "boxed into a string object of its own";
  absl::Span<const int64_t> too_long{nullptr, size_t{1} << 32};
  const sy::detail::UnboxedCall<std::string_view, absl::Span<const int64_t>> call{op, DispatchKeySet(), text,
                                                                                  too_long};
  Stack stack;
  const std::string expected = "an int list of 4294967296 elements is too long to box (at most 4294967295)";
};

TEST_F(UnboxableArguments, EveryReadRaisesTheBoxingError) {
  EXPECT_EQ(errorMessageOf([&] { (void)stack.back(); }), expected);
  EXPECT_EQ(errorMessageOf([&] { (void)stack.front(); }), expected);
  EXPECT_EQ(stack.size(), 2u);
  sy::drop(stack, 2);
  EXPECT_TRUE(stack.empty());
}

TEST_F(UnboxableArguments, MovingTheStackRaisesTheBoxingError) {
  EXPECT_EQ(errorMessageOf([&] { Stack moved(std::move(stack)); }), expected);
  EXPECT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack.hasDeferredArguments());
}

}  // namespace
