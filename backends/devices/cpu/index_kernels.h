// The CPU kernels of the indexing operators gather, scatter (value form) and index_select, as plain C++
// functions: one per operator, the out variant's, which also serves the functional form. Callers
// go through sy::ops:: (ops/index_ops.h). Each takes the operator's arguments in schema order, then
// its context (dispatcher/kernel_context.h). They are declared from
// backends/devices/cpu/index_ops.yaml (switchyard/ops/index/NativeFunctions.h, in sy::cpu::native)
// and defined in gather_scatter.cpp and index_select.cpp.
#pragma once

#include <cstdint>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/index/NativeFunctions.h"

namespace sy::cpu {

using namespace native;

}  // namespace sy::cpu
