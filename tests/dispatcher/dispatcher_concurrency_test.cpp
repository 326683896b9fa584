// Other threads keep calling operators while one thread registers and deregisters kernels and
// fallbacks (see Note [Reclaiming retired kernels]). ./test.sh also runs this
// suite under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;

SY_LIBRARY(concurrency_test, m) { m.def("op(Tensor self) -> Tensor"); }

// Every kernel returns its input plus a constant, so callers can check they got a real kernel.
Tensor plusOne(const Tensor& self) { return sy::full({1}, self.item<double>() + 1); }
Tensor plusTwo(const Tensor& self) { return sy::full({1}, self.item<double>() + 2); }

SY_LIBRARY_IMPL(concurrency_test, CPU, m) { m.impl("op", &plusOne); }

void redispatchBelowPrivateUse1(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse1), stack);
}

constexpr int kRegistrationRounds = 300;

TEST(DispatcherConcurrency, CallsStayCorrectWhileLibrariesComeAndGo) {
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("concurrency_test::op", "").typed<Tensor(const Tensor&)>();
  std::atomic<bool> done{false};
  std::atomic<int> bad_results{0};
  std::atomic<long> calls{0};

  auto caller = [&] {
    Tensor x = sy::zeros({1});
    x.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse1, DispatchKey::Tracer});
    while (!done.load(std::memory_order_relaxed)) {
      double unboxed = -1;
      try {
        unboxed = op.call(x).item<double>();
      } catch (const sy::Error&) {
        unboxed = 0;  // no kernel for PrivateUse1 or Tracer at this instant: a clean error
      }
      Stack stack{x};
      double boxed = -1;
      try {
        op.callBoxed(&stack);
        boxed = stack.back().toTensor().item<double>();
      } catch (const sy::Error&) {
        boxed = 0;
      }
      for (double v : {unboxed, boxed}) {
        if (v != 0 && v != 1 && v != 2) bad_results.fetch_add(1);
      }
      calls.fetch_add(1, std::memory_order_relaxed);
    }
  };

  std::vector<std::thread> callers;
  for (int i = 0; i < 2; ++i) callers.emplace_back(caller);

  for (int round = 0; round < kRegistrationRounds; ++round) {
    Library tracer(Library::Impl, "_", DispatchKey::Tracer);
    tracer.fallback(sy::CppFunction::makeFallthrough());
    Library fallback(Library::Impl, "_", DispatchKey::PrivateUse1);
    fallback.fallback(sy::CppFunction::makeFromBoxedFunction<&redispatchBelowPrivateUse1>());
    if (round % 2 == 0) {
      Library kernel(Library::Impl, "concurrency_test", DispatchKey::PrivateUse1);
      kernel.impl("op", &plusTwo);
      std::this_thread::yield();
    }
    Library extra(Library::Fragment, "concurrency_test");
    extra.def("scratch(Tensor self) -> Tensor");
  }
  done = true;
  for (auto& t : callers) t.join();

  EXPECT_EQ(bad_results.load(), 0);
  EXPECT_GT(calls.load(), 0);
}

TEST(DispatcherConcurrency, TableSettlesToTheStaticRegistrationsAfterTheChurn) {
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("concurrency_test::op", "").typed<Tensor(const Tensor&)>();
  for (int round = 0; round < 50; ++round) {
    Library kernel(Library::Impl, "concurrency_test", DispatchKey::CPU);
    kernel.impl("op", &plusTwo);
  }
  EXPECT_EQ(op.call(sy::zeros({1})).item<double>(), 1);
}

}  // namespace
