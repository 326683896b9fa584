// Deregistered kernels are reclaimed once no call can still be running them (see Note [Reclaiming
// retired kernels]): captured objects are destroyed, and register/deregister cycles run in bounded
// memory.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;

// Counts the live copies of a captured object.
struct Captured {
  static inline std::atomic<int> live{0};
  Captured() { ++live; }
  Captured(const Captured&) { ++live; }
  ~Captured() { --live; }
};

auto& dispatcher() { return sy::Dispatcher::singleton(); }

Tensor identity(const Tensor& t) { return t; }

TEST(KernelReclamation, ADeregisteredLambdasCapturesAreDestroyed) {
  Library def(Library::FRAGMENT, "reclaim_capture");
  def.def("f(Tensor self) -> Tensor");
  {
    Library impl(Library::IMPL, "reclaim_capture", DispatchKey::CPU);
    Captured c;
    impl.impl("f", [c](const Tensor& t) { return t; });
    dispatcher().findSchemaOrThrow("reclaim_capture::f", "").typed<Tensor(const Tensor&)>().call(sy::zeros({1}));
    EXPECT_EQ(Captured::live.load(), 2);
  }
  EXPECT_EQ(Captured::live.load(), 0);
}

TEST(KernelReclamation, ADeregisteredBoxedFallbacksCapturesAreDestroyed) {
  {
    Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse3);
    Captured c;
    fallback.fallback(sy::CppFunction::makeFromBoxedLambda([c](const OperatorHandle&, Stack*) {}));
  }
  EXPECT_EQ(Captured::live.load(), 0);
}

TEST(KernelReclamation, AKernelThatDeregistersItselfKeepsItsCapturesUntilItReturns) {
  Library def(Library::FRAGMENT, "reclaim_self");
  def.def("f(Tensor self) -> Tensor");
  auto impl = std::make_unique<Library>(Library::IMPL, "reclaim_self", DispatchKey::CPU);
  int live_after_deregistering = -1;
  Captured c;
  impl->impl("f", [c, &impl, &live_after_deregistering](const Tensor& t) {
    impl.reset();
    live_after_deregistering = Captured::live.load();
    return t;
  });
  const auto op = dispatcher().findSchemaOrThrow("reclaim_self::f", "").typed<Tensor(const Tensor&)>();
  op.call(sy::zeros({1}));
  EXPECT_EQ(live_after_deregistering, 2);  // c here, and the running kernel's copy
  EXPECT_EQ(Captured::live.load(), 1);     // the kernel's copy went when the call returned
}

void operatorCycle() {
  Library def(Library::FRAGMENT, "reclaim_cycle");
  def.def("f(Tensor self, int n=1) -> Tensor");
  Library impl(Library::IMPL, "reclaim_cycle", DispatchKey::CPU);
  Captured c;
  impl.impl("f", [c](const Tensor& t, int64_t) { return t; });
  Library plain(Library::IMPL, "reclaim_cycle", DispatchKey::PrivateUse1);
  plain.impl("f", [](const Tensor& t, int64_t) { return t; });
}

// A fallback (de)registration recomputes every operator's table, so this loop is shorter.
void fallbackCycle() {
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse3);
  Captured c;
  fallback.fallback(sy::CppFunction::makeFromBoxedLambda([c](const OperatorHandle&, Stack*) {}));
}

// The dispatcher's own counts are compared, so one record kept per cycle shows after any number of
// cycles; 20000 are plenty to get past any batching of reclamation (100000 took 36 s of the ASan+UBSan
// stage of ./test.sh).
TEST(KernelReclamation, ManyRegistrationCyclesRunInBoundedMemory) {
  for (int i = 0; i < 100; ++i) operatorCycle(), fallbackCycle();
  const sy::Dispatcher::RetainedKernels before = dispatcher().retainedKernels();
  for (int i = 0; i < 20000; ++i) operatorCycle();
  for (int i = 0; i < 1000; ++i) fallbackCycle();
  const sy::Dispatcher::RetainedKernels after = dispatcher().retainedKernels();
  EXPECT_EQ(after.awaiting_reclamation, 0u);
  EXPECT_EQ(after.kernel_records, before.kernel_records);
  EXPECT_EQ(after.schemas, before.schemas);
  EXPECT_EQ(Captured::live.load(), 0);
}

TEST(KernelReclamation, AFunctionRegisteredAgainReusesItsRecord) {
  Library def(Library::FRAGMENT, "reclaim_fn");
  def.def("f(Tensor self) -> Tensor");
  { Library impl(Library::IMPL, "reclaim_fn", DispatchKey::CPU); impl.impl("f", &identity); }
  const size_t records = dispatcher().retainedKernels().kernel_records;
  for (int i = 0; i < 100; ++i) {
    Library impl(Library::IMPL, "reclaim_fn", DispatchKey::CPU);
    impl.impl("f", &identity);
  }
  EXPECT_EQ(dispatcher().retainedKernels().kernel_records, records);
}

}  // namespace
