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
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/tensor.h"

namespace sy::ops {

// aten::view_copy.out: view(self, size), copied.
Tensor& view_copy_out(Tensor& out, const Tensor& self, IntArrayRef size);
// aten::permute_copy.out: permute(self, dims), copied.
Tensor& permute_copy_out(Tensor& out, const Tensor& self, IntArrayRef dims);
// aten::expand_copy.out: expand(self, size), copied (every broadcast element written out).
Tensor& expand_copy_out(Tensor& out, const Tensor& self, IntArrayRef size, bool implicit = false);
// aten::squeeze_copy.dims_out: squeeze(self, dim), copied.
Tensor& squeeze_copy_out(Tensor& out, const Tensor& self, IntArrayRef dim);
// aten::unsqueeze_copy.out: unsqueeze(self, dim), copied.
Tensor& unsqueeze_copy_out(Tensor& out, const Tensor& self, int64_t dim);
// aten::alias_copy.out: self, copied.
Tensor& alias_copy_out(Tensor& out, const Tensor& self);
// aten::select_copy.int_out: select(self, dim, index), copied.
Tensor& select_copy_out(Tensor& out, const Tensor& self, int64_t dim, int64_t index);
// aten::slice_copy.Tensor_out: slice(self, dim, start, end, step), copied.
Tensor& slice_copy_out(Tensor& out, const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
                       std::optional<int64_t> end = std::nullopt, int64_t step = 1);
// aten::transpose_copy.int_out: transpose(self, dim0, dim1), copied.
Tensor& transpose_copy_out(Tensor& out, const Tensor& self, int64_t dim0, int64_t dim1);

// dim_order_ops::_to_dim_order_copy.out: self converted to out's dtype and laid out in `dim_order`
// (outermost dimension first; none: self's own order). An `out` already of self's shape must
// already be laid out that way.
Tensor& to_dim_order_copy_out(Tensor& out, const Tensor& self, bool non_blocking = false,
                              std::optional<IntArrayRef> dim_order = std::nullopt);
// dim_order_ops::_clone_dim_order.out: the same without a dtype change (out must have self's dtype).
Tensor& clone_dim_order_out(Tensor& out, const Tensor& self, bool non_blocking = false,
                            std::optional<IntArrayRef> dim_order = std::nullopt);

}  // namespace sy::ops
