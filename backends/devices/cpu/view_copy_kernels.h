// The CPU kernels of the *_copy operators (ExecuTorch's edge dialect: a view operator followed by a
// copy, so a program's tensors never alias one another) and of the dim_order_ops copies, as plain
// C++ functions.
//
// Callers go through sy::ops:: (ops/view_copy_ops.h). Each kernel takes the operator's arguments in
// schema order (out= last), then its context (dispatcher/kernel_context.h); the generator declares
// them from backends/devices/cpu/view_copy_ops.yaml. The *_copy kernels are in view_copy_ops.cpp,
// the dim_order_ops ones in dim_order_ops.cpp.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/view_copy/NativeFunctions.h"

namespace sy::cpu {

// The kernels' declarations are generated from backends/devices/cpu/view_copy_ops.yaml, in sy::cpu::native (a
// kernel_name sy::cpu::view_copy_out_cpu binds sy::cpu::native::view_copy_out_cpu, as in
// ExecuTorch); sy::cpu::view_copy_out_cpu names them too.
using namespace native;

}  // namespace sy::cpu
