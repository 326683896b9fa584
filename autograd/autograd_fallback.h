// The recording kernel: the boxed fallback on every autograd key, also registered per operator
// for the operators that have a backward formula (autograd/formula.h).
// See Note [Only tensors that require grad carry an autograd key] (autograd/autograd.h).
#pragma once

#include "switchyard/dispatcher/operator_handle.h"

namespace sy::autograd {

void autogradFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);

}  // namespace sy::autograd
