// The helpers of ops/view_copy_ops.h: each calls through a namespace-scope typed handle (one
// dispatch, no per-call lookup), whose signature must match the kernels' C++ signatures
// (backends/cpu/view_copy_kernels.h) exactly.
#include "switchyard/ops/view_copy_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using DimOrderCopy = Tensor&(const Tensor&, bool, std::optional<IntArrayRef>, Tensor&);

const auto view_copy_op = handle<Tensor&(const Tensor&, IntArrayRef, Tensor&)>("aten::view_copy", "out");
const auto permute_copy_op = handle<Tensor&(const Tensor&, IntArrayRef, Tensor&)>("aten::permute_copy", "out");
const auto expand_copy_op = handle<Tensor&(const Tensor&, IntArrayRef, bool, Tensor&)>("aten::expand_copy", "out");
const auto squeeze_copy_op = handle<Tensor&(const Tensor&, IntArrayRef, Tensor&)>("aten::squeeze_copy", "dims_out");
const auto unsqueeze_copy_op = handle<Tensor&(const Tensor&, int64_t, Tensor&)>("aten::unsqueeze_copy", "out");
const auto alias_copy_op = handle<Tensor&(const Tensor&, Tensor&)>("aten::alias_copy", "out");
const auto select_copy_op = handle<Tensor&(const Tensor&, int64_t, int64_t, Tensor&)>("aten::select_copy", "int_out");
const auto slice_copy_op =
    handle<Tensor&(const Tensor&, int64_t, std::optional<int64_t>, std::optional<int64_t>, int64_t, Tensor&)>(
        "aten::slice_copy", "Tensor_out");
const auto transpose_copy_op =
    handle<Tensor&(const Tensor&, int64_t, int64_t, Tensor&)>("aten::transpose_copy", "int_out");
const auto to_dim_order_copy_op = handle<DimOrderCopy>("dim_order_ops::_to_dim_order_copy", "out");
const auto clone_dim_order_op = handle<DimOrderCopy>("dim_order_ops::_clone_dim_order", "out");

}  // namespace

Tensor& view_copy_out(Tensor& out, const Tensor& self, IntArrayRef size) { return view_copy_op.call(self, size, out); }
Tensor& permute_copy_out(Tensor& out, const Tensor& self, IntArrayRef dims) {
  return permute_copy_op.call(self, dims, out);
}
Tensor& expand_copy_out(Tensor& out, const Tensor& self, IntArrayRef size, bool implicit) {
  return expand_copy_op.call(self, size, implicit, out);
}
Tensor& squeeze_copy_out(Tensor& out, const Tensor& self, IntArrayRef dim) {
  return squeeze_copy_op.call(self, dim, out);
}
Tensor& unsqueeze_copy_out(Tensor& out, const Tensor& self, int64_t dim) {
  return unsqueeze_copy_op.call(self, dim, out);
}
Tensor& alias_copy_out(Tensor& out, const Tensor& self) { return alias_copy_op.call(self, out); }
Tensor& select_copy_out(Tensor& out, const Tensor& self, int64_t dim, int64_t index) {
  return select_copy_op.call(self, dim, index, out);
}
Tensor& slice_copy_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<int64_t> start,
                       std::optional<int64_t> end, int64_t step) {
  return slice_copy_op.call(self, dim, start, end, step, out);
}
Tensor& transpose_copy_out(Tensor& out, const Tensor& self, int64_t dim0, int64_t dim1) {
  return transpose_copy_op.call(self, dim0, dim1, out);
}
Tensor& to_dim_order_copy_out(Tensor& out, const Tensor& self, bool non_blocking,
                              std::optional<IntArrayRef> dim_order) {
  return to_dim_order_copy_op.call(self, non_blocking, dim_order, out);
}
Tensor& clone_dim_order_out(Tensor& out, const Tensor& self, bool non_blocking,
                            std::optional<IntArrayRef> dim_order) {
  return clone_dim_order_op.call(self, non_blocking, dim_order, out);
}

}  // namespace sy::ops
