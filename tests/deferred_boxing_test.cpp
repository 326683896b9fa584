// Deferred boxing (Note [Deferred boxing], ivalue/stack.h): an unboxed call that reaches a boxed
// kernel hands it a Stack whose arguments are boxed only when something looks at them, and an
// unboxed kernel reached with untouched arguments takes the caller's own.
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
  CountedArguments() : DeferredArguments{&boxThem, &owner_tag} {}
  static void boxThem(const DeferredArguments& self, IValue* slots) {
    ++static_cast<const CountedArguments&>(self).boxed;
    for (int64_t v : {10, 20, 30}) new (slots++) IValue(v);
  }
  static inline int owner_tag = 0;
  mutable int boxed = 0;
};

TEST(DeferredStack, SizeCountsTheArgumentsWithoutBoxingThem) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
  EXPECT_EQ(stack.size(), 3u);
  EXPECT_FALSE(stack.empty());
  EXPECT_TRUE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST(DeferredStack, ReadingOneValueBoxesThemAllOnce) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
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

class EveryAccessBoxes : public ::testing::TestWithParam<Access> {};

TEST_P(EveryAccessBoxes, TheValuesAreTheArguments) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
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

TEST(DeferredStack, DroppingEveryArgumentBoxesNone) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
  sy::drop(stack, 3);
  EXPECT_TRUE(stack.empty());
  EXPECT_FALSE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST(DeferredStack, ClearingBoxesNone) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
  stack.clear();
  EXPECT_TRUE(stack.empty());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST(DeferredStack, DestroyingItBoxesNone) {
  CountedArguments arguments;
  {
    Stack stack;
    stack.deferArguments(&arguments, 3);
  }
  EXPECT_EQ(arguments.boxed, 0);
}

TEST(DeferredStack, OnlyTheOwnerTakesTheArguments) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
  int someone_else = 0;
  EXPECT_EQ(stack.takeDeferredArguments(&someone_else), nullptr);
  EXPECT_EQ(stack.size(), 3u);
  EXPECT_TRUE(stack.hasDeferredArguments());
  EXPECT_EQ(stack.takeDeferredArguments(&CountedArguments::owner_tag), &arguments);
  EXPECT_TRUE(stack.empty());
  EXPECT_FALSE(stack.hasDeferredArguments());
  EXPECT_EQ(arguments.boxed, 0);
}

TEST(DeferredStack, BoxedArgumentsCannotBeTakenUnboxed) {
  CountedArguments arguments;
  Stack stack;
  stack.deferArguments(&arguments, 3);
  (void)stack.back();
  EXPECT_EQ(stack.takeDeferredArguments(&CountedArguments::owner_tag), nullptr);
  EXPECT_EQ(stack.size(), 3u);
}

// ---- Through a backend fallback ------------------------------------------------------------------

SY_LIBRARY(deferred_boxing_test, m) {
  m.def("scale(Tensor self, int[] sizes, float factor, ScalarType? dtype=None) -> Tensor");
  m.def("scale_too(Tensor self, int[] sizes, float factor, ScalarType? dtype=None) -> Tensor");
  m.def("write(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("consume(Tensor self) -> ()");
  m.def("split(Tensor self) -> (Tensor, Tensor)");
  m.def("by_value(Tensor self) -> Tensor");
  m.def("many(int a, int b, int c, int d, int e, int f, int g, int h, int i, Tensor self) -> Tensor");
  m.def("fails(Tensor self) -> Tensor");
}

// What the CPU kernels saw.
struct Seen {
  const Tensor* self = nullptr;
  const int64_t* sizes = nullptr;
  double factor = 0;
  std::optional<sy::ScalarType> dtype;
  int consumed = 0;
};
Seen seen;

Tensor scaleKernel(const Tensor& self, sy::IntArrayRef sizes, double factor, std::optional<sy::ScalarType> dtype) {
  seen.self = &self;
  seen.sizes = sizes.data();
  seen.factor = factor;
  seen.dtype = dtype;
  return sy::full({static_cast<int64_t>(sizes.size())}, self.item<double>() * factor);
}
Tensor scaleTooKernel(const Tensor& self, sy::IntArrayRef sizes, double factor, std::optional<sy::ScalarType> dtype) {
  return sy::full({1}, -1.0);  // tells which operator's kernel ran
}
Tensor& writeKernel(const Tensor& self, Tensor& out) {
  out.resize_({1});
  out.data_ptr<float>()[0] = self.item<float>() + 1;
  return out;
}
void consumeKernel(const Tensor& self) { seen.consumed += static_cast<int>(self.item<double>()); }
std::tuple<Tensor, Tensor> splitKernel(const Tensor& self) {
  return {sy::full({1}, self.item<double>() - 1), sy::full({1}, self.item<double>() + 1)};
}
Tensor byValueKernel(Tensor self) { return self; }
Tensor manyKernel(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g, int64_t h, int64_t i,
                  const Tensor& self) {
  return sy::full({1}, static_cast<double>(a + b + c + d + e + f + g + h + i) + self.item<double>());
}
Tensor failsKernel(const Tensor& self) { SY_ERROR("fails: the kernel refuses ", self.item<double>()); }

SY_LIBRARY_IMPL(deferred_boxing_test, CPU, m) {
  m.impl("scale", SY_FN(scaleKernel));
  m.impl("scale_too", SY_FN(scaleTooKernel));
  m.impl("write", SY_FN(writeKernel));
  m.impl("consume", SY_FN(consumeKernel));
  m.impl("split", SY_FN(splitKernel));
  m.impl("by_value", SY_FN(byValueKernel));
  m.impl("many", SY_FN(manyKernel));
  m.impl("fails", SY_FN(failsKernel));
}

template <class Signature>
sy::TypedOperatorHandle<Signature> typed(const char* name) {
  return sy::Dispatcher::singleton()
      .findSchemaOrThrow(std::string("deferred_boxing_test::") + name, "")
      .typed<Signature>();
}

// ---- Boxing that fails ---------------------------------------------------------------------------

// An argument that cannot be boxed (an int list longer than a borrowed one can say) fails the read
// that boxes it, and every later read; the arguments boxed before it are released each time
// (LeakSanitizer checks the string), and dropping the arguments still works.
TEST(DeferredBoxingErrors, AnArgumentThatCannotBeBoxedReleasesTheOnesBefore) {
  const OperatorHandle op = sy::Dispatcher::singleton().findSchemaOrThrow("deferred_boxing_test::scale", "");
  std::string_view text = "boxed into a string object of its own";
  absl::Span<const int64_t> too_long(nullptr, size_t{1} << 32);
  const sy::detail::UnboxedCall<std::string_view, absl::Span<const int64_t>> call(op, DispatchKeySet(), text, too_long);
  Stack stack;
  stack.deferArguments(&call, 2);
  const std::string expected = "an int list of 4294967296 elements is too long to box (at most 4294967295)";
  EXPECT_EQ(errorMessageOf([&] { (void)stack.back(); }), expected);
  EXPECT_EQ(errorMessageOf([&] { (void)stack.front(); }), expected);  // every read fails alike
  EXPECT_EQ(stack.size(), 2u);
  sy::drop(stack, 2);
  EXPECT_TRUE(stack.empty());
}

using ScaleSignature = Tensor(const Tensor&, sy::IntArrayRef, double, std::optional<sy::ScalarType>);

// What the fallback does before it redispatches below PrivateUse2.
enum class Before { Nothing, Read, ChangeFactor, RedirectToScaleToo };
Before before = Before::Nothing;
bool deferred_on_entry = false;
bool deferred_at_redispatch = false;

void fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  deferred_on_entry = stack->hasDeferredArguments();
  const DispatchKeySet below = ks.remove(DispatchKey::PrivateUse2);
  switch (before) {
    case Before::Nothing:
      break;
    case Before::Read:
      for (const IValue& argument : std::as_const(*stack)) (void)argument.typeName();
      break;
    case Before::ChangeFactor:
      (*stack)[2] = IValue(10.0);
      break;
    case Before::RedirectToScaleToo:
      deferred_at_redispatch = stack->hasDeferredArguments();
      sy::Dispatcher::singleton().findSchemaOrThrow("deferred_boxing_test::scale_too", "").redispatchBoxed(below, stack);
      return;
  }
  deferred_at_redispatch = stack->hasDeferredArguments();
  op.redispatchBoxed(below, stack);
}

class DeferredThroughAFallback : public ::testing::Test {
 protected:
  void SetUp() override {
    before = Before::Nothing;
    seen = Seen();
    fallback_.fallback(sy::CppFunction::makeFromBoxedFunction<&fallback>());
  }
  static Tensor onPrivateUse2(double value) {
    Tensor t = sy::full({1}, value);
    t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
    return t;
  }
  Library fallback_{Library::IMPL, "_", DispatchKey::PrivateUse2};
};

TEST_F(DeferredThroughAFallback, TheFallbackGetsTheArgumentsDeferred) {
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{4, 5, 6};
  typed<ScaleSignature>("scale").call(self, sizes, 1.5, sy::ScalarType::Double);
  EXPECT_TRUE(deferred_on_entry);
}

TEST_F(DeferredThroughAFallback, AForwardingFallbackHandsTheKernelTheCallersOwnArguments) {
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{4, 5, 6};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 1.5, sy::ScalarType::Double);
  EXPECT_TRUE(deferred_at_redispatch);
  EXPECT_EQ(seen.self, &self);
  EXPECT_EQ(seen.sizes, sizes.data());
  EXPECT_EQ(seen.factor, 1.5);
  EXPECT_EQ(seen.dtype, sy::ScalarType::Double);
  EXPECT_EQ(sy::testing::valuesOf<float>(result), (std::vector<float>{3, 3, 3}));
  EXPECT_EQ(self.use_count(), 1u);
}

TEST_F(DeferredThroughAFallback, AFallbackThatReadsItsArgumentsGetsThemBoxedAndTheKernelTheSameValues) {
  before = Before::Read;
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{4, 5};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 3.0, std::nullopt);
  EXPECT_FALSE(deferred_at_redispatch);
  EXPECT_EQ(seen.self, &self);  // borrowed: still the caller's object
  EXPECT_EQ(seen.sizes, sizes.data());
  EXPECT_EQ(seen.factor, 3.0);
  EXPECT_EQ(seen.dtype, std::nullopt);
  EXPECT_EQ(sy::testing::valuesOf<float>(result), (std::vector<float>{6, 6}));
}

TEST_F(DeferredThroughAFallback, AnArgumentTheFallbackChangesReachesTheKernel) {
  before = Before::ChangeFactor;
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{1};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 3.0, std::nullopt);
  EXPECT_EQ(seen.factor, 10.0);
  EXPECT_EQ(result.item<double>(), 20.0);
}

TEST_F(DeferredThroughAFallback, AnotherOperatorWithTheSameSignatureReadsTheArgumentsBoxed) {
  before = Before::RedirectToScaleToo;
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{1};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 3.0, std::nullopt);
  EXPECT_TRUE(deferred_at_redispatch);
  EXPECT_EQ(result.item<double>(), -1.0);
}

TEST_F(DeferredThroughAFallback, AnOutCallReturnsTheCallersObject) {
  Tensor self = onPrivateUse2(1.0);
  Tensor out = sy::empty({0});
  Tensor& result = typed<Tensor&(const Tensor&, Tensor&)>("write").call(self, out);
  EXPECT_TRUE(deferred_at_redispatch);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.item<double>(), 2.0);
  EXPECT_EQ(self.use_count(), 1u);
  EXPECT_EQ(out.use_count(), 1u);
}

TEST_F(DeferredThroughAFallback, AnOperatorWithoutResultsRunsOnce) {
  typed<void(const Tensor&)>("consume").call(onPrivateUse2(3.0));
  EXPECT_TRUE(deferred_at_redispatch);
  EXPECT_EQ(seen.consumed, 3);
}

TEST_F(DeferredThroughAFallback, SeveralResultsComeBackInOrder) {
  auto [low, high] = typed<std::tuple<Tensor, Tensor>(const Tensor&)>("split").call(onPrivateUse2(5.0));
  EXPECT_EQ(low.item<double>(), 4.0);
  EXPECT_EQ(high.item<double>(), 6.0);
}

TEST_F(DeferredThroughAFallback, ATensorPassedByValueKeepsItsReferenceCount) {
  Tensor self = onPrivateUse2(7.0);
  {
    Tensor result = typed<Tensor(Tensor)>("by_value").call(self);
    EXPECT_TRUE(result.is_same(self));
    EXPECT_EQ(self.use_count(), 2u);
  }
  EXPECT_EQ(self.use_count(), 1u);
}

using ManySignature = Tensor(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                             const Tensor&);

TEST_F(DeferredThroughAFallback, MoreArgumentsThanTheStackHoldsInline) {
  Tensor result = typed<ManySignature>("many").call(1, 2, 3, 4, 5, 6, 7, 8, 9, onPrivateUse2(0.5));
  EXPECT_EQ(result.item<double>(), 45.5);
}

TEST_F(DeferredThroughAFallback, MoreArgumentsThanTheStackHoldsInlineBoxWhenRead) {
  before = Before::Read;
  Tensor result = typed<ManySignature>("many").call(1, 2, 3, 4, 5, 6, 7, 8, 9, onPrivateUse2(0.5));
  EXPECT_EQ(result.item<double>(), 45.5);
}

TEST_F(DeferredThroughAFallback, AKernelErrorReachesTheCallerAndLeavesNoReference) {
  Tensor self = onPrivateUse2(4.0);
  EXPECT_EQ(errorMessageOf([&] { typed<Tensor(const Tensor&)>("fails").call(self); }), "fails: the kernel refuses 4");
  EXPECT_EQ(self.use_count(), 1u);
}

// A fallback that drops the arguments unread and answers itself boxes nothing.
TEST(DeferredFallbackResult, AFallbackMayDropTheArgumentsAndPushItsOwnResult) {
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse2);
  fallback.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, Stack* stack) {
    EXPECT_TRUE(stack->hasDeferredArguments());
    sy::drop(stack, op.schema().arguments().size());
    stack->emplace_back(sy::full({1}, 42.0));
  }));
  Tensor self = sy::full({1}, 1.0);
  self.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
  EXPECT_EQ(typed<Tensor(const Tensor&)>("fails").call(self).item<double>(), 42.0);
}

}  // namespace
