// The CPU kernels of the *_copy operators (ExecuTorch's edge dialect: a view operator followed by a
// copy, so a program's tensors never alias one another) and of the dim_order_ops copies, as plain
// C++ functions.
//
// Callers normally go through sy::ops:: (ops/view_copy_ops.h). Code that must reach a kernel
// without dispatching can call these directly:
//
//   sy::Tensor out = sy::empty({0});
//   sy::cpu::permute_copy_out_cpu(x, {1, 0}, out);   // out: x transposed, in its own memory
//
// Every signature is exactly the operator's C++ signature (arguments in schema order, out= last);
// the generator writes them from backends/devices/cpu/view_copy_ops.yaml.
//
// Where each one lives:
//   view_copy_ops.cpp  view_copy.out, permute_copy.out, expand_copy.out, squeeze_copy.dims_out,
//                      unsqueeze_copy.out, alias_copy.out, select_copy.int_out,
//                      slice_copy.Tensor_out, transpose_copy.int_out
//   dim_order_ops.cpp  dim_order_ops::_to_dim_order_copy.out, dim_order_ops::_clone_dim_order.out
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
