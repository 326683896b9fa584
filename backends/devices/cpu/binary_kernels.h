// The CPU kernels of the binary elementwise operators (add, sub, mul, div, maximum, minimum), the
// comparisons (eq, ne, lt, gt) and where, as plain C++ functions.
//
// Callers normally go through sy::ops::* (ops/binary_ops.h); these are for code that must reach a
// CPU kernel without dispatching (a backend fallback's last resort, a conformance test):
//
//   sy::Tensor out = sy::empty({2, 3});
//   sy::cpu::div_out_mode_cpu(x, y, "floor", out);
//
// Each signature is exactly the operator's C++ signature (the dispatcher requires every kernel and
// typed handle of an operator to agree): arguments in schema order, out= last, in-place forms take
// `Tensor& self` and return it. The declarations are generated from backends/devices/cpu/binary_ops.yaml into
// switchyard/ops/binary/NativeFunctions.h, in sy::cpu::native (kernel_name sy::cpu::div_cpu binds
// sy::cpu::native::div_cpu, as in ExecuTorch); the definitions are in binary_ops.cpp (add, sub,
// mul, maximum, minimum), division_ops.cpp, comparison_ops.cpp (eq, ne, lt, gt) and where_op.cpp.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/binary/NativeFunctions.h"

namespace sy::cpu {

using namespace native;

}  // namespace sy::cpu
