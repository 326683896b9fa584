// Handing a call on from a partial kernel that finds, at run time, that it cannot take it: the
// call continues with the keys below DispatchKey::PartialKernels (the portable CPU kernel, or the
// backend of another argument), exactly as the selector's miss would have continued it.
//
//   sy::Tensor& exp_out(const sy::Tensor& self, sy::Tensor& out) {
//     if (!self.is_contiguous()) return sy::optimized::continueAfterPartialKernels(exp_out_handle(), self, out);
//     ...
//   }
//
// A kernel key names dtypes and dim orders; it does not say that a tensor is dense. A strided view
// whose strides still decrease from the outermost dimension (every other column of a matrix) has
// the dim order 0, 1, ... of a contiguous tensor and matches its key, so a kernel that reads its
// tensors as flat arrays must check is_contiguous() itself and hand the rest on with this.
#pragma once

#include <utility>

#include "switchyard/dispatcher/dispatch_key_extractor.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::optimized {

// The dispatch keys recomputed from the arguments and the thread's included/excluded keys, as the
// original call computed them, less PartialKernels and everything above it (which the call has
// already passed through, being here).
template <class Ret, class... Args, class... Passed>
Ret continueAfterPartialKernels(const TypedOperatorHandle<Ret(Args...)>& op, Passed&&... args) {
  const LocalDispatchKeySet& tls = localDispatchKeySet();
  const uint64_t keys = (sy::detail::keySetFromArguments(args...).raw_repr() | tls.included) & tls.not_excluded;
  const DispatchKeySet below(DispatchKeySet::FULL_AFTER, DispatchKey::PartialKernels);
  return op.redispatch(DispatchKeySet(DispatchKeySet::Raw{}, keys) & below, std::forward<Passed>(args)...);
}

}  // namespace sy::optimized
