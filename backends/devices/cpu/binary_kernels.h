// The CPU kernels of the binary elementwise operators, the comparisons and where, as plain C++
// functions: one per overload, the out variant's, which also serves the functional and in-place
// forms (where.ScalarSelf, .ScalarOther and .Scalar have only a functional form, and a kernel each).
//
// Callers go through sy::ops::* (ops/binary_ops.h). Each kernel takes the operator's arguments in
// schema order (out= last), then its context (dispatcher/kernel_context.h). The declarations are
// generated from backends/devices/cpu/binary_ops.yaml into switchyard/ops/binary/NativeFunctions.h,
// in sy::cpu::native (kernel_name sy::cpu::div_out_cpu binds sy::cpu::native::div_out_cpu, as in
// ExecuTorch); the definitions are in binary_ops.cpp (add, sub, mul, maximum, minimum),
// division_ops.cpp, pow_ops.cpp, comparison_ops.cpp and where_op.cpp.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/binary/NativeFunctions.h"

namespace sy::cpu {

using namespace native;

}  // namespace sy::cpu
