// Deferred boxing (see Note [Deferred boxing], ivalue/stack.h) through a backend fallback: an unboxed
// call hands the fallback a Stack whose arguments are boxed only when it looks at them, and the
// unboxed kernel it passes them on to takes the caller's own.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::IValue;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;

SY_LIBRARY(deferred_boxing_test, m) {
  m.def("scale(Tensor self, int[] sizes, float factor, ScalarType? dtype=None) -> Tensor");
  m.def("scale_too(Tensor self, int[] sizes, float factor, ScalarType? dtype=None) -> Tensor");
  m.def("write(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("consume(Tensor self) -> ()");
  m.def("split(Tensor self) -> (Tensor, Tensor)");
  m.def("by_value(Tensor self) -> Tensor");
  m.def("many(int a, int b, int c, int d, int e, int f, int g, int h, int i, Tensor self) -> Tensor");
  m.def("fails(Tensor self) -> Tensor");
  m.def("fails_once(Tensor self) -> Tensor");
  m.def("takes_int(Tensor self, int n) -> Tensor");
  m.def("takes_float(Tensor self, float x) -> Tensor");
  m.def("keyed(Tensor self) -> Tensor");
  m.def("two_outs(Tensor self, *, Tensor(a!) a, Tensor(b!) b) -> (Tensor(a!), Tensor(b!))");
  m.def("answer() -> Tensor");
}

// What the CPU kernels saw.
struct Seen {
  const Tensor* self = nullptr;
  const int64_t* sizes = nullptr;
  double factor = 0;
  std::optional<sy::ScalarType> dtype;
  int consumed = 0;
};
Seen seen_by_fallback;

Tensor scaleKernel(const Tensor& self, sy::IntArrayRef sizes, double factor, std::optional<sy::ScalarType> dtype) {
  seen_by_fallback.self = &self;
  seen_by_fallback.sizes = sizes.data();
  seen_by_fallback.factor = factor;
  seen_by_fallback.dtype = dtype;
  return sy::full({static_cast<int64_t>(sizes.size())}, self.item<double>() * factor);
}
Tensor scaleTooKernel(const Tensor& self, sy::IntArrayRef sizes, double factor, std::optional<sy::ScalarType> dtype) {
  return sy::full({1}, -1.0);  // tells which operator's kernel ran
}
Tensor& deferredWriteKernel(const Tensor& self, Tensor& out) {
  out.resize_({1});
  out.data_ptr<float>()[0] = self.item<float>() + 1;
  return out;
}
void consumeKernel(const Tensor& self) { seen_by_fallback.consumed += static_cast<int>(self.item<double>()); }
std::tuple<Tensor, Tensor> splitKernel(const Tensor& self) {
  return {sy::full({1}, self.item<double>() - 1), sy::full({1}, self.item<double>() + 1)};
}
Tensor byValueKernel(Tensor self) { return self; }
Tensor manyKernel(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g, int64_t h, int64_t i,
                  const Tensor& self) {
  return sy::full({1}, static_cast<double>(a + b + c + d + e + f + g + h + i) + self.item<double>());
}
Tensor failsKernel(const Tensor& self) { SY_ERROR("fails: the kernel refuses ", self.item<double>()); }
int failures_left = 0;
Tensor failsOnceKernel(const Tensor& self) {
  if (failures_left-- > 0) SY_ERROR("fails_once: not this time");
  return sy::full({1}, self.item<double>() + 1);
}
Tensor takesIntKernel(const Tensor&, int64_t n) { return sy::full({1}, static_cast<double>(n)); }
Tensor takesFloatKernel(const Tensor&, double x) { return sy::full({1}, x); }
Tensor keyedKernel(DispatchKeySet ks, const Tensor& self) {
  return sy::full({1}, ks.has(DispatchKey::PrivateUse2) ? -1.0 : self.item<double>());
}
std::tuple<Tensor&, Tensor&> deferredTwoOutsKernel(const Tensor& self, Tensor& a, Tensor& b) {
  a.data_ptr<float>()[0] = self.item<float>();
  b.data_ptr<float>()[0] = self.item<float>() * 2;
  return {a, b};
}
Tensor answerKernel() { return sy::full({1}, 42.0); }

SY_LIBRARY_IMPL(deferred_boxing_test, CPU, m) {
  m.impl("scale", SY_FN(scaleKernel));
  m.impl("scale_too", SY_FN(scaleTooKernel));
  m.impl("write", SY_FN(deferredWriteKernel));
  m.impl("consume", SY_FN(consumeKernel));
  m.impl("split", SY_FN(splitKernel));
  m.impl("by_value", SY_FN(byValueKernel));
  m.impl("many", SY_FN(manyKernel));
  m.impl("fails", SY_FN(failsKernel));
  m.impl("fails_once", SY_FN(failsOnceKernel));
  m.impl("takes_int", SY_FN(takesIntKernel));
  m.impl("takes_float", SY_FN(takesFloatKernel));
  m.impl("keyed", SY_FN(keyedKernel));
  m.impl("two_outs", SY_FN(deferredTwoOutsKernel));
}
// No tensor to take a key from: reached through the thread-local included set.
SY_LIBRARY_IMPL(deferred_boxing_test, PrivateUse1, m) { m.impl("answer", SY_FN(answerKernel)); }

template <class Signature>
sy::TypedOperatorHandle<Signature> typed(const char* name) {
  return sy::Dispatcher::singleton()
      .findSchemaOrThrow(std::string("deferred_boxing_test::") + name, "")
      .typed<Signature>();
}

using ScaleSignature = Tensor(const Tensor&, sy::IntArrayRef, double, std::optional<sy::ScalarType>);

// What the fallback does before it redispatches below PrivateUse2.
enum class Before { Nothing, Read, ChangeFactor, RedirectToScaleToo, RetryOnError, RunTakesFloatKernel };
Before before = Before::Nothing;
bool deferred_on_entry = false;
bool deferred_at_redispatch = false;
size_t size_after_error = 0;
bool deferred_after_error = false;

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
    case Before::RetryOnError:
      try {
        op.redispatchBoxed(below, stack);
      } catch (const sy::Error&) {
        size_after_error = stack->size();
        deferred_after_error = stack->hasDeferredArguments();
        op.redispatchBoxed(below, stack);
      }
      return;
    case Before::RunTakesFloatKernel: {
      // Another operator's kernel, handed this operator's handle and stack: its parameter types
      // differ, so it must read the arguments boxed and convert them.
      const sy::OperatorEntry& other =
          sy::Dispatcher::singleton().findSchemaOrThrow("deferred_boxing_test::takes_float", "").entry();
      other.lookup(other.maskForRedispatch(below)).callBoxed(op, below, stack);
      return;
    }
  }
  deferred_at_redispatch = stack->hasDeferredArguments();
  op.redispatchBoxed(below, stack);
}

class DeferredThroughAFallback : public ::testing::Test {
 protected:
  void SetUp() override {
    before = Before::Nothing;
    seen_by_fallback = Seen();
    deferred_on_entry = deferred_at_redispatch = false;
    fallback_.fallback(sy::CppFunction::makeFromBoxedFunction<&fallback>());
  }
  static Tensor onPrivateUse2(double value) {
    Tensor t = sy::full({1}, value);
    t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
    return t;
  }
  Library fallback_{Library::Impl, "_", DispatchKey::PrivateUse2};
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
  EXPECT_EQ(seen_by_fallback.self, &self);
  EXPECT_EQ(seen_by_fallback.sizes, sizes.data());
  EXPECT_EQ(seen_by_fallback.factor, 1.5);
  EXPECT_EQ(seen_by_fallback.dtype, sy::ScalarType::Double);
  EXPECT_EQ(sy::testing::valuesOf<float>(result), (std::vector<float>{3, 3, 3}));
  EXPECT_EQ(self.use_count(), 1u);
}

TEST_F(DeferredThroughAFallback, AFallbackThatReadsItsArgumentsGetsThemBoxedAndTheKernelTheSameValues) {
  before = Before::Read;
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{4, 5};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 3.0, std::nullopt);
  EXPECT_FALSE(deferred_at_redispatch);
  EXPECT_EQ(seen_by_fallback.self, &self);  // borrowed: still the caller's object
  EXPECT_EQ(seen_by_fallback.sizes, sizes.data());
  EXPECT_EQ(seen_by_fallback.factor, 3.0);
  EXPECT_EQ(seen_by_fallback.dtype, std::nullopt);
  EXPECT_EQ(sy::testing::valuesOf<float>(result), (std::vector<float>{6, 6}));
}

TEST_F(DeferredThroughAFallback, AnArgumentTheFallbackChangesReachesTheKernel) {
  before = Before::ChangeFactor;
  Tensor self = onPrivateUse2(2.0);
  std::vector<int64_t> sizes{1};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 3.0, std::nullopt);
  EXPECT_EQ(seen_by_fallback.factor, 10.0);
  EXPECT_EQ(result.item<double>(), 20.0);
}

TEST_F(DeferredThroughAFallback, AnotherOperatorWithTheSameSignatureTakesTheSameArguments) {
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
  EXPECT_EQ(seen_by_fallback.consumed, 3);
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
  Library fallback(Library::Impl, "_", DispatchKey::PrivateUse2);
  fallback.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, Stack* stack) {
    EXPECT_TRUE(stack->hasDeferredArguments());
    sy::drop(stack, op.schema().arguments().size());
    stack->emplace_back(sy::full({1}, 42.0));
  }));
  Tensor self = sy::full({1}, 1.0);
  self.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
  EXPECT_EQ(typed<Tensor(const Tensor&)>("fails").call(self).item<double>(), 42.0);
}

TEST_F(DeferredThroughAFallback, AFallbackWhoseKernelFailsStillHasItsArgumentsAndCanRetry) {
  before = Before::RetryOnError;
  failures_left = 1;
  Tensor self = onPrivateUse2(4.0);
  Tensor result = typed<Tensor(const Tensor&)>("fails_once").call(self);
  EXPECT_EQ(size_after_error, 1u);
  EXPECT_TRUE(deferred_after_error);
  EXPECT_EQ(result.item<double>(), 5.0);
}

TEST_F(DeferredThroughAFallback, AKernelWithOtherParameterTypesReadsTheArgumentsBoxed) {
  before = Before::RunTakesFloatKernel;
  Tensor result = typed<Tensor(const Tensor&, int64_t)>("takes_int").call(onPrivateUse2(0.0), 3);
  EXPECT_EQ(result.item<double>(), 3.0);
}

TEST_F(DeferredThroughAFallback, AKernelTakingTheKeySetGetsTheRedispatchedOne) {
  Tensor result = typed<Tensor(const Tensor&)>("keyed").call(onPrivateUse2(6.0));
  EXPECT_TRUE(deferred_at_redispatch);
  EXPECT_EQ(result.item<double>(), 6.0);
}

TEST_F(DeferredThroughAFallback, SeveralOutArgumentsComeBackAsTheCallersObjects) {
  Tensor a = sy::zeros({1});
  Tensor b = sy::zeros({1});
  auto result = typed<std::tuple<Tensor&, Tensor&>(const Tensor&, Tensor&, Tensor&)>("two_outs")
                    .call(onPrivateUse2(3.0), a, b);
  EXPECT_EQ(&std::get<0>(result), &a);
  EXPECT_EQ(&std::get<1>(result), &b);
  EXPECT_EQ(a.item<double>(), 3.0);
  EXPECT_EQ(b.item<double>(), 6.0);
}

TEST_F(DeferredThroughAFallback, AnOperatorWithoutArgumentsPassesThroughToo) {
  sy::IncludeDispatchKeyGuard to_the_kernel(DispatchKey::PrivateUse1);
  sy::IncludeDispatchKeyGuard through_the_fallback(DispatchKey::PrivateUse2);
  EXPECT_EQ(typed<Tensor()>("answer").call().item<double>(), 42.0);
  EXPECT_TRUE(deferred_at_redispatch);
}

// Two fallbacks that pass the stack on, one after the other, still hand the kernel the caller's
// own arguments.
void forwardBelowPrivateUse3(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), stack);
}

TEST_F(DeferredThroughAFallback, TwoForwardingFallbacksInARow) {
  Library second(Library::Impl, "_", DispatchKey::PrivateUse3);
  second.fallback(sy::CppFunction::makeFromBoxedFunction<&forwardBelowPrivateUse3>());
  Tensor self = onPrivateUse2(2.0);
  self.unsafeGetTensorImpl()->set_key_set(self.key_set().add(DispatchKey::PrivateUse3));
  std::vector<int64_t> sizes{1, 2};
  Tensor result = typed<ScaleSignature>("scale").call(self, sizes, 2.0, std::nullopt);
  EXPECT_EQ(seen_by_fallback.self, &self);
  EXPECT_EQ(seen_by_fallback.sizes, sizes.data());
  EXPECT_EQ(sy::testing::valuesOf<float>(result), (std::vector<float>{4, 4}));
}

}  // namespace
