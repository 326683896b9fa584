// Calls race the deregistration of kernels with captured state: a thread may still be running a
// kernel when it is deregistered, and its captures must stay alive until it returns (Note
// [Reclaiming retired kernels]). ./test.sh runs this suite under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
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

// Captured state that knows whether it is still alive; a kernel reading it after its destruction
// is a use after free that ASan and TSan report, and a poisoned value the test sees.
struct Payload {
  static inline std::atomic<int> live{0};
  explicit Payload(double v) : value(std::make_shared<double>(v)) { ++live; }
  Payload(const Payload& other) : value(std::make_shared<double>(*other.value)) { ++live; }  // its own value
  ~Payload() {
    --live;
    *value = -1000;  // poison: a kernel still reading this would return garbage
  }
  std::shared_ptr<double> value;
};

SY_LIBRARY(reclaim_race, m) { m.def("op(Tensor self) -> Tensor"); }
Tensor plusZero(const Tensor& self) { return sy::full({1}, self.item<double>()); }
SY_LIBRARY_IMPL(reclaim_race, CPU, m) { m.impl("op", &plusZero); }

TEST(KernelReclamationConcurrency, CallsRacingDeregistrationNeverSeeAFreedKernel) {
  const auto op = sy::Dispatcher::singleton().findSchemaOrThrow("reclaim_race::op", "").typed<Tensor(const Tensor&)>();
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  auto caller = [&] {
    Tensor x = sy::zeros({1});
    x.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse1, DispatchKey::PrivateUse2});
    while (!done.load(std::memory_order_relaxed)) {
      // Between rounds PrivateUse2 has no fallback: a clean missing-kernel error, counted as 0.
      double unboxed = 0;
      double boxed = 0;
      try {
        unboxed = op.call(x).item<double>();
      } catch (const sy::Error&) {
      }
      try {
        Stack stack{x};
        op.callBoxed(&stack);
        boxed = stack.back().toTensor().item<double>();
      } catch (const sy::Error&) {
      }
      for (double v : {unboxed, boxed}) {
        if (v != 0 && v != 1 && v != 2) bad.fetch_add(1);
      }
    }
  };
  std::vector<std::thread> callers;
  for (int i = 0; i < 3; ++i) callers.emplace_back(caller);
  for (int round = 0; round < 2000; ++round) {
    Payload one(1);
    Library impl(Library::IMPL, "reclaim_race", DispatchKey::PrivateUse1);
    impl.impl("op", [one](const Tensor&) {
      std::this_thread::yield();  // widen the window in which deregistration can overtake the call
      return sy::full({1}, *one.value);
    });
    Payload two(2);
    Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse2);
    fallback.fallback(sy::CppFunction::makeFromBoxedLambda(
        [two](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
          std::this_thread::yield();
          sy::drop(stack, 1);
          stack->emplace_back(sy::full({1}, *two.value));
          (void)op;
          (void)ks;
        }));
  }
  done.store(true);
  for (auto& t : callers) t.join();
  EXPECT_EQ(bad.load(), 0);
  {  // a registration event reclaims what was still running at the last one
    Library last(Library::IMPL, "reclaim_race", DispatchKey::PrivateUse1);
    last.impl("op", &plusZero);
  }
  EXPECT_EQ(Payload::live.load(), 0);
  EXPECT_EQ(sy::Dispatcher::singleton().retainedKernels().awaiting_reclamation, 0u);
}

}  // namespace
