// Which kernel a call reaches: per-op kernels, backend fallbacks, fallthroughs, modes, wrappers
// and alias keys (see Note [Precomputed dispatch tables]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using sy::testing::filled;
using sy::testing::tensorWithKeys;

// Each kernel reports who ran by returning a distinct number in a 1-element tensor (filled).
double valueOf(const Tensor& t) { return t.item<double>(); }

SY_LIBRARY(table_test, m) {
  m.def("unary(Tensor self) -> Tensor");
  m.def("other(Tensor self) -> Tensor");
  m.def("composite(Tensor self) -> Tensor");
  m.def("nullary() -> Tensor");
}

Tensor cpuKernel(const Tensor&) { return filled(1); }
Tensor privateUse1Kernel(const Tensor&) { return filled(2); }

SY_LIBRARY_IMPL(table_test, CPU, m) {
  m.impl("unary", &cpuKernel);
  m.impl("other", &cpuKernel);
}

auto unaryOp() {
  return sy::Dispatcher::singleton().findSchemaOrThrow("table_test::unary", "").typed<Tensor(const Tensor&)>();
}
auto otherOp() {
  return sy::Dispatcher::singleton().findSchemaOrThrow("table_test::other", "").typed<Tensor(const Tensor&)>();
}

// A boxed fallback that answers 100 for every operator.
void answer100(const OperatorHandle&, Stack* stack) {
  sy::drop(*stack, 1);
  stack->emplace_back(filled(100));
}

TEST(DispatchTable, PerOperatorKernelBeatsBackendFallbackOnTheSameKey) {
  Library fallbacks(Library::Impl, "_", DispatchKey::PrivateUse1);
  fallbacks.fallback(sy::CppFunction::makeFromBoxedFunction<&answer100>());
  Library kernels(Library::Impl, "table_test", DispatchKey::PrivateUse1);
  kernels.impl("unary", &privateUse1Kernel);

  Tensor x = tensorWithKeys({DispatchKey::PrivateUse1});
  EXPECT_EQ(valueOf(unaryOp().call(x)), 2);   // the op's own kernel
  EXPECT_EQ(valueOf(otherOp().call(x)), 100);  // no kernel: the fallback
}

TEST(DispatchTable, FallbackOnAnotherKeyIsNotUsed) {
  Library fallbacks(Library::Impl, "_", DispatchKey::PrivateUse2);
  fallbacks.fallback(sy::CppFunction::makeFromBoxedFunction<&answer100>());
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU}))), 1);
}

TEST(DispatchTable, KernelOnAnotherBackendStillWorksBesideAFallback) {
  Library fallbacks(Library::Impl, "_", DispatchKey::PrivateUse1);
  fallbacks.fallback(sy::CppFunction::makeFromBoxedFunction<&answer100>());
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU}))), 1);
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::PrivateUse1}))), 100);
}

TEST(DispatchTable, HigherPriorityKeyOfTheTensorWins) {
  Library kernels(Library::Impl, "table_test", DispatchKey::PrivateUse1);
  kernels.impl("unary", &privateUse1Kernel);
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU, DispatchKey::PrivateUse1}))), 2);
}

TEST(DispatchTable, FallthroughFallbackSkipsOperatorsWithoutAKernelOnThatKey) {
  Library fallthrough(Library::Impl, "_", DispatchKey::Tracer);
  fallthrough.fallback(sy::CppFunction::makeFallthrough());
  Tensor x = tensorWithKeys({DispatchKey::CPU, DispatchKey::Tracer});
  EXPECT_EQ(valueOf(unaryOp().call(x)), 1);
  EXPECT_FALSE(unaryOp().entry().nonFallthroughKeys().has(DispatchKey::Tracer));
}

TEST(DispatchTable, FallthroughFallbackStillRunsAKernelRegisteredOnThatKey) {
  Library fallthrough(Library::Impl, "_", DispatchKey::Tracer);
  fallthrough.fallback(sy::CppFunction::makeFallthrough());
  Library kernels(Library::Impl, "table_test", DispatchKey::Tracer);
  kernels.impl("unary", [](const Tensor&) { return filled(7); });
  Tensor x = tensorWithKeys({DispatchKey::CPU, DispatchKey::Tracer});
  EXPECT_EQ(valueOf(unaryOp().call(x)), 7);
  EXPECT_EQ(valueOf(otherOp().call(x)), 1);
}

TEST(DispatchTable, FallthroughKernelForOneOperatorSkipsOnlyThatOperator) {
  Library fallbacks(Library::Impl, "_", DispatchKey::PrivateUse1);
  fallbacks.fallback(sy::CppFunction::makeFromBoxedFunction<&answer100>());
  Library kernels(Library::Impl, "table_test", DispatchKey::PrivateUse1);
  kernels.impl("unary", sy::CppFunction::makeFallthrough());
  Tensor x = tensorWithKeys({DispatchKey::CPU, DispatchKey::PrivateUse1});
  EXPECT_EQ(valueOf(unaryOp().call(x)), 1);
  EXPECT_EQ(valueOf(otherOp().call(x)), 100);
}

TEST(DispatchTable, FallthroughIsAlsoSkippedOnTheBoxedPath) {
  Library fallthrough(Library::Impl, "_", DispatchKey::Tracer);
  fallthrough.fallback(sy::CppFunction::makeFallthrough());
  Stack stack{tensorWithKeys({DispatchKey::CPU, DispatchKey::Tracer})};
  unaryOp().callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(valueOf(stack[0].toTensor()), 1);
}

// A mode: counts every operator it sees, then redispatches below itself.
struct ModeCounter {
  std::map<std::string, int> calls;
};
ModeCounter* active_counter = nullptr;

void countingMode(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  active_counter->calls[op.operator_name().toString()]++;
  op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
}

TEST(DispatchTable, ModeKeyInTheIncludedSetInterceptsEveryOperator) {
  ModeCounter counter;
  active_counter = &counter;
  Library mode(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericMode);
  mode.fallback(sy::CppFunction::makeFromBoxedFunction<&countingMode>());
  Tensor x = tensorWithKeys({DispatchKey::CPU});
  {
    sy::IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
    EXPECT_EQ(valueOf(unaryOp().call(x)), 1);
    EXPECT_EQ(valueOf(otherOp().call(x)), 1);
  }
  unaryOp().call(x);  // guard gone: not intercepted
  EXPECT_EQ(counter.calls, (std::map<std::string, int>{{"table_test::unary", 1}, {"table_test::other", 1}}));
}

TEST(DispatchTable, ModeCanCallBackInAfterExcludingItself) {
  int intercepted = 0;
  Library mode(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericMode);
  mode.fallback(sy::CppFunction::makeFromBoxedLambda([&](const OperatorHandle& op, Stack* stack) {
    ++intercepted;
    sy::ExcludeDispatchKeyGuard off(DispatchKey::TESTING_ONLY_GenericMode);
    op.callBoxed(stack);  // a fresh call, which no longer sees the mode
  }));
  sy::IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU}))), 1);
  EXPECT_EQ(intercepted, 1);
}

TEST(DispatchTable, ExcludedKeyIsSkippedEvenWhenTheTensorCarriesIt) {
  Library kernels(Library::Impl, "table_test", DispatchKey::PrivateUse1);
  kernels.impl("unary", &privateUse1Kernel);
  sy::ExcludeDispatchKeyGuard off(DispatchKey::PrivateUse1);
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU, DispatchKey::PrivateUse1}))), 1);
}

// A wrapper tensor: carries only the GenericWrapper key and holds a CPU tensor inside.
class WrapperTensorImpl : public sy::TensorImpl {
 public:
  explicit WrapperTensorImpl(Tensor inner)
      : TensorImpl(sy::Storage(), inner.dtype(), inner.device()), inner_(std::move(inner)) {
    set_key_set(DispatchKeySet(DispatchKey::TESTING_ONLY_GenericWrapper));
    set_sizes_and_strides(inner_.sizes(), inner_.strides(), 0);
  }
  const Tensor& inner() const { return inner_; }

 private:
  Tensor inner_;
};

Tensor wrap(Tensor inner) { return Tensor(sy::make_intrusive<WrapperTensorImpl>(std::move(inner))); }

void unwrapCallRewrap(const OperatorHandle& op, Stack* stack) {
  const size_t num_args = op.schema().arguments().size();
  for (sy::IValue& arg : sy::last(*stack, num_args)) {
    if (arg.isTensor()) {
      auto* wrapper = dynamic_cast<WrapperTensorImpl*>(arg.toTensor().unsafeGetTensorImpl());
      if (wrapper != nullptr) arg = wrapper->inner();
    }
  }
  op.callBoxed(stack);
  const size_t num_returns = op.schema().returns().size();
  for (sy::IValue& result : sy::last(*stack, num_returns)) {
    if (result.isTensor()) result = wrap(result.toTensor());
  }
}

TEST(DispatchTable, WrapperFallbackUnwrapsCallsAndRewraps) {
  Library wrapper(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericWrapper);
  wrapper.fallback(sy::CppFunction::makeFromBoxedFunction<&unwrapCallRewrap>());
  Tensor result = unaryOp().call(wrap(sy::zeros({1})));
  auto* impl = dynamic_cast<WrapperTensorImpl*>(result.unsafeGetTensorImpl());
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl->key_set(), DispatchKeySet(DispatchKey::TESTING_ONLY_GenericWrapper));
  EXPECT_EQ(valueOf(impl->inner()), 1);
}

// ---- Alias keys --------------------------------------------------------------------------------

auto compositeOp() {
  return sy::Dispatcher::singleton().findSchemaOrThrow("table_test::composite", "").typed<Tensor(const Tensor&)>();
}

TEST(DispatchTable, CompositeImplicitServesEveryBackendWithoutAKernel) {
  Library composite(Library::Fragment, "table_test");
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeImplicit, [](const Tensor&) { return filled(10); }));
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::CPU}))), 10);
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::PrivateUse2}))), 10);
}

TEST(DispatchTable, CompositeExplicitBeatsCompositeImplicit) {
  Library composite(Library::Fragment, "table_test");
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeImplicit, [](const Tensor&) { return filled(10); }));
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeExplicit, [](const Tensor&) { return filled(20); }));
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::CPU}))), 20);
}

TEST(DispatchTable, BackendKernelBeatsBothAliasKernels) {
  Library composite(Library::Fragment, "table_test");
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeImplicit, [](const Tensor&) { return filled(10); }));
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeExplicit, [](const Tensor&) { return filled(20); }));
  Library cpu(Library::Impl, "table_test", DispatchKey::CPU);
  cpu.impl("composite", [](const Tensor&) { return filled(30); });
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::CPU}))), 30);
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::PrivateUse1}))), 20);
}

TEST(DispatchTable, AliasKernelBeatsBackendFallback) {
  Library fallbacks(Library::Impl, "_", DispatchKey::PrivateUse1);
  fallbacks.fallback(sy::CppFunction::makeFromBoxedFunction<&answer100>());
  Library composite(Library::Fragment, "table_test");
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeImplicit, [](const Tensor&) { return filled(10); }));
  EXPECT_EQ(valueOf(compositeOp().call(tensorWithKeys({DispatchKey::PrivateUse1}))), 10);
}

TEST(DispatchTable, AliasKernelDoesNotServeFunctionalityKeys) {
  Library composite(Library::Fragment, "table_test");
  composite.impl("composite", sy::dispatch(DispatchKey::CompositeImplicit, [](const Tensor&) { return filled(10); }));
  EXPECT_THROW(compositeOp().call(tensorWithKeys({DispatchKey::CPU, DispatchKey::Tracer})), sy::Error);
}

TEST(DispatchTable, CompositeKernelRunsOperatorsWithoutTensorArguments) {
  Library composite(Library::Fragment, "table_test");
  composite.impl("nullary", sy::dispatch(DispatchKey::CompositeImplicit, [] { return filled(5); }));
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("table_test::nullary", "").typed<Tensor()>();
  EXPECT_EQ(valueOf(op.call()), 5);
}

TEST(DispatchTable, KernelTakingDispatchKeySetCanRedispatchBelowItself) {
  Library kernels(Library::Impl, "table_test", DispatchKey::PrivateUse1);
  kernels.impl("unary", [](DispatchKeySet ks, const Tensor& self) {
    Tensor below = unaryOp().redispatch(ks.remove(DispatchKey::PrivateUse1), self);
    return filled(valueOf(below) + 40);
  });
  EXPECT_EQ(valueOf(unaryOp().call(tensorWithKeys({DispatchKey::CPU, DispatchKey::PrivateUse1}))), 41);
}

TEST(DispatchTable, DispatcherCallsAreTheHandleCalls) {
  auto& dispatcher = sy::Dispatcher::singleton();
  Tensor x = tensorWithKeys({DispatchKey::CPU});
  EXPECT_EQ(valueOf(dispatcher.call(unaryOp(), x)), 1);
  EXPECT_EQ(valueOf(dispatcher.redispatch(unaryOp(), DispatchKeySet(DispatchKey::CPU), x)), 1);
  Stack stack{x};
  dispatcher.callBoxed(unaryOp(), &stack);
  EXPECT_EQ(valueOf(stack[0].toTensor()), 1);
  Stack again{x};
  dispatcher.redispatchBoxed(unaryOp(), DispatchKeySet(DispatchKey::CPU), &again);
  EXPECT_EQ(valueOf(again[0].toTensor()), 1);
}

}  // namespace
