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
  throw Error(Dispatcher::singleton().describeMissingKernel(op, ks));
}

}  // namespace

bool KernelFunction::isFallthrough() const { return boxed_ == &fallthroughKernel; }

KernelFunction KernelFunction::makeFallthrough() {
  KernelFunction k;
  k.boxed_ = &fallthroughKernel;
  return k;
}

const KernelFunction& missingKernel() {
  static const KernelFunction* missing = new KernelFunction(KernelFunction::makeFromBoxedKernel(&reportMissingKernel, nullptr));
  return *missing;
}

}  // namespace sy
