// The shape, view and copy helpers of ops/shape_ops.h: each calls through a namespace-scope typed
// handle (one dispatch, no per-call lookup). The handle signatures must match the kernels' C++
// signatures exactly (backends/cpu/shape_kernels.h); a mismatch is rejected at registration.
#include "switchyard/ops/shape_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

const auto view_op = handle<Tensor(const Tensor&, IntArrayRef)>("aten::view", "");
const auto reshape_op = handle<Tensor(const Tensor&, IntArrayRef)>("aten::reshape", "");
const auto permute_op = handle<Tensor(const Tensor&, IntArrayRef)>("aten::permute", "");
const auto transpose_op = handle<Tensor(const Tensor&, int64_t, int64_t)>("aten::transpose", "int");
const auto unsqueeze_op = handle<Tensor(const Tensor&, int64_t)>("aten::unsqueeze", "");
const auto squeeze_op = handle<Tensor(const Tensor&)>("aten::squeeze", "");
const auto squeeze_dim_op = handle<Tensor(const Tensor&, int64_t)>("aten::squeeze", "dim");
const auto squeeze_dims_op = handle<Tensor(const Tensor&, IntArrayRef)>("aten::squeeze", "dims");
const auto expand_op = handle<Tensor(const Tensor&, IntArrayRef, bool)>("aten::expand", "");
const auto slice_op =
    handle<Tensor(const Tensor&, int64_t, std::optional<int64_t>, std::optional<int64_t>, int64_t)>("aten::slice",
                                                                                                   "Tensor");
const auto select_op = handle<Tensor(const Tensor&, int64_t, int64_t)>("aten::select", "int");
const auto contiguous_op = handle<Tensor(const Tensor&, MemoryFormat)>("aten::contiguous", "");
const auto clone_op = handle<Tensor(const Tensor&, std::optional<MemoryFormat>)>("aten::clone", "");
const auto clone_out_op = handle<Tensor&(const Tensor&, std::optional<MemoryFormat>, Tensor&)>("aten::clone", "out");
const auto cat_op = handle<Tensor(TensorList, int64_t)>("aten::cat", "");
const auto cat_out_op = handle<Tensor&(TensorList, int64_t, Tensor&)>("aten::cat", "out");

}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) { return view_op.call(self, size); }
Tensor reshape(const Tensor& self, IntArrayRef shape) { return reshape_op.call(self, shape); }
Tensor permute(const Tensor& self, IntArrayRef dims) { return permute_op.call(self, dims); }
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) { return transpose_op.call(self, dim0, dim1); }
Tensor unsqueeze(const Tensor& self, int64_t dim) { return unsqueeze_op.call(self, dim); }
Tensor squeeze(const Tensor& self) { return squeeze_op.call(self); }
Tensor squeeze(const Tensor& self, int64_t dim) { return squeeze_dim_op.call(self, dim); }
Tensor squeeze(const Tensor& self, IntArrayRef dim) { return squeeze_dims_op.call(self, dim); }
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit) { return expand_op.call(self, size, implicit); }
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  return slice_op.call(self, dim, start, end, step);
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) { return select_op.call(self, dim, index); }

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) { return contiguous_op.call(self, memory_format); }
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return clone_op.call(self, memory_format);
}
Tensor& clone_out(Tensor& out, const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return clone_out_op.call(self, memory_format, out);
}

Tensor cat(TensorList tensors, int64_t dim) { return cat_op.call(tensors, dim); }
Tensor& cat_out(Tensor& out, TensorList tensors, int64_t dim) { return cat_out_op.call(tensors, dim, out); }

}  // namespace sy::ops
