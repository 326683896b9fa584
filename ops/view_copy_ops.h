// sy::ops:: helpers for the copying twins of the view operators (ExecuTorch's edge dialect) and for
// ExecuTorch's dim_order_ops copies. PyTorch's at:: naming: the out= tensor comes first.
//
//   sy::Tensor out = sy::empty({0});
//   sy::ops::permute_copy_out(out, x, {1, 0});          // x transposed, in out's own memory
//   sy::ops::view_copy_out(out, x, {-1});               // x flattened
//   sy::ops::to_dim_order_copy_out(nhwc, x, false, std::vector<int64_t>{0, 2, 3, 1});  // channels-last
//
// Each result has the values of the matching view (ops/shape_ops.h), but never shares memory with
// `self`. `out` must have self's dtype (except for to_dim_order_copy_out, which converts) and is
// resized when its shape differs. Every function is one call through the dispatcher.
//
// The declarations are generated from backends/devices/cpu/view_copy_ops.yaml into the build tree
// (switchyard/ops/view_copy/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt. `switchyard ops` lists the operators; each name_copy_out
// is the view `name` (ops/shape_ops.h), copied.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/view_copy/Functions.h"

namespace sy::ops {

// dim_order_ops::_to_dim_order_copy.out: self converted to out's dtype and laid out in `dim_order`
// (outermost dimension first; none: self's own order). An `out` already of self's shape must
// already be laid out that way. The generated helper is dim_order_ops::ops::_to_dim_order_copy_out;
// this is its name in sy::ops.
inline Tensor& to_dim_order_copy_out(Tensor& out, const Tensor& self, bool non_blocking = false,
                                     std::optional<IntArrayRef> dim_order = std::nullopt) {
  return ::dim_order_ops::ops::_to_dim_order_copy_out(out, self, non_blocking, dim_order);
}
// dim_order_ops::_clone_dim_order.out: the same without a dtype change (out must have self's dtype).
inline Tensor& clone_dim_order_out(Tensor& out, const Tensor& self, bool non_blocking = false,
                                   std::optional<IntArrayRef> dim_order = std::nullopt) {
  return ::dim_order_ops::ops::_clone_dim_order_out(out, self, non_blocking, dim_order);
}

}  // namespace sy::ops
