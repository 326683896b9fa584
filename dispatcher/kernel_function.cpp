#include "switchyard/dispatcher/kernel_function.h"

#include "switchyard/dispatcher/dispatcher.h"

namespace sy {
namespace {

// Only reached when a call races with the registration that made this key a fallthrough (see
// Note [Fallthrough is free]), or through a redispatch on another operator's key set.
void fallthroughKernel(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  op.redispatchBoxed(ks.remove(ks.highestPriorityTypeId()), stack);
}

void reportMissingKernel(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks, Stack*) {
  throw NotImplementedError(Dispatcher::singleton().describeMissingKernel(op, ks));
}

}  // namespace

bool KernelFunction::isFallthrough() const { return boxed_ == &fallthroughKernel; }

KernelFunction KernelFunction::makeFallthrough() {
  KernelFunction k;
  k.boxed_ = &fallthroughKernel;
  k.shareable_ = true;
  return k;
}

namespace detail {

void GuardedKernelSlot::boxedEntry(OperatorKernel* self, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  auto& slot = *static_cast<GuardedKernelSlot*>(self);
  InUse in_use(slot);
  if (__builtin_expect(in_use.kernel() == nullptr, 0)) {
    // Deregistered after the caller read the table: run what the table holds now.
    op.redispatchBoxed(ks, stack);
    return;
  }
  (*slot.inner_boxed_)(in_use.kernel(), op, ks, stack);
}

const KernelFunction& GuardedKernelSlot::currentKernelFor(DispatchKeySet ks, DispatchKeySet* masked) const {
  const OperatorEntry& entry = op_->entry();
  *masked = entry.maskForRedispatch(ks);
  return entry.lookup(*masked);
}

void GuardedKernelSlot::drained() { Dispatcher::singleton().reclaimRetiredKernels(); }

}  // namespace detail

const KernelFunction& missingKernel() {
  static const KernelFunction* missing = new KernelFunction(KernelFunction::makeFromBoxedKernel(&reportMissingKernel, nullptr));
  return *missing;
}

}  // namespace sy
