// The Accel backend's CPU fallback: one boxed function that runs every operator without a native
// Accel kernel on the CPU, so the subset backend still supports the whole operator library.
//
// Registered at load time with SY_LIBRARY_IMPL(_, Accel, m); nothing to call. For each call it
//   1. refuses view operators: a schema whose return aliases an argument without writing it
//      (`Tensor(a)`, e.g. aten::view, aten::transpose.int) would hand back a view of a temporary
//      CPU copy, not of the caller's Accel tensor, so it raises
//        "aten::view is a view operator and cannot run through the Accel CPU fallback; ..."
//      (register a native Accel kernel for such operators instead). aten's own view operators
//      (view, transpose.int, select.int, ...) are CompositeExplicit kernels that only restride, so
//      on Accel they already make Accel views of the same buffer and never reach this fallback;
//   2. raises PyTorch's error when CPU and Accel tensors are mixed ("Expected all tensors to be on
//      the same device, but found at least two devices, accel and cpu!"); 0-dim CPU tensors are
//      allowed next to Accel tensors, as PyTorch allows CPU scalars next to CUDA tensors;
//   3. copies every Accel tensor argument (plain, optional, and inside tensor lists) to the CPU,
//      once per TensorImpl so an argument passed twice stays one tensor; a `Device` argument equal
//      to Accel becomes CPU (factory operators); other arguments are left alone;
//   4. redispatches to the CPU kernel; an error there propagates unchanged and, because nothing
//      has been copied back yet, leaves the caller's tensors untouched;
//   5. copies every argument the schema marks as written (`Tensor(a!)`: out= and in-place) back
//      into the caller's own Accel tensor, resizing it as the CPU kernel resized its copy;
//   6. returns the caller's own Tensor for results that alias a written argument, and moves every
//      fresh result to Accel (unless an explicit `device=` argument asked for another device).
//
// Observability (accel_stats.h, included here): fallback_counts(), native_counts(),
// reset_fallback_counts(), set_warn_on_fallback(bool), report().
#pragma once

#include "switchyard/backends/devices/accel/accel_stats.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::accel {

// The fallback itself, for code that wants to call it directly (e.g. from a wrapper kernel).
void accelCpuFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);

}  // namespace sy::accel
