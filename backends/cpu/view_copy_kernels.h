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
// Every signature is exactly the operator's C++ signature (arguments in schema order, out= last).
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

namespace sy::cpu {

// ---- View copies (view_copy_ops.cpp) -------------------------------------------------------------

Tensor& view_copy_out_cpu(const Tensor& self, IntArrayRef size, Tensor& out);
Tensor& permute_copy_out_cpu(const Tensor& self, IntArrayRef dims, Tensor& out);
Tensor& expand_copy_out_cpu(const Tensor& self, IntArrayRef size, bool implicit, Tensor& out);
Tensor& squeeze_copy_dims_out_cpu(const Tensor& self, IntArrayRef dim, Tensor& out);
Tensor& unsqueeze_copy_out_cpu(const Tensor& self, int64_t dim, Tensor& out);
Tensor& alias_copy_out_cpu(const Tensor& self, Tensor& out);
Tensor& select_copy_int_out_cpu(const Tensor& self, int64_t dim, int64_t index, Tensor& out);
Tensor& slice_copy_Tensor_out_cpu(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                                  std::optional<int64_t> end, int64_t step, Tensor& out);
Tensor& transpose_copy_int_out_cpu(const Tensor& self, int64_t dim0, int64_t dim1, Tensor& out);

// ---- Dim-order copies (dim_order_ops.cpp) --------------------------------------------------------

Tensor& to_dim_order_copy_out_cpu(const Tensor& self, bool non_blocking, std::optional<IntArrayRef> dim_order,
                                  Tensor& out);
Tensor& clone_dim_order_out_cpu(const Tensor& self, bool non_blocking, std::optional<IntArrayRef> dim_order,
                                Tensor& out);

}  // namespace sy::cpu
