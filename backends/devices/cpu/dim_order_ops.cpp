// ExecuTorch's dim-order copies on the CPU: dim_order_ops::_to_dim_order_copy.out (the edge
// dialect's aten::_to_copy.out: a copy that may change dtype and layout) and
// dim_order_ops::_clone_dim_order.out (its aten::clone.out); and dim_order_ops::_empty_dim_order.out
// (its aten::empty.out), which lays out its out the same way and writes nothing.
//
// ExecuTorch names a layout by its dim order, the dimensions from outermost to innermost in
// memory: [0, 1, 2, 3] is contiguous NCHW, [0, 2, 3, 1] is channels-last. Switchyard's tensors
// carry strides, and Tensor::dim_order() reads the order back from them. See Note [The dim order
// an out= copy writes].
//
// dtype: _to_dim_order_copy converts to out's dtype (it is the copy behind Tensor.to(dtype));
// _clone_dim_order requires out to have self's dtype. `non_blocking` is a hint for transfers
// between devices; a copy on the CPU is always complete when the kernel returns.
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/view_copy_kernels.h"
#include "switchyard/ivalue/checked_size.h"

namespace sy::cpu {
namespace {

// Note [The dim order an out= copy writes]
// The target dim order is `dim_order` when given (any permutation of the dimensions; exported
// programs use contiguous and channels-last ones), else self's own dim order. An `out` whose shape
// differs from self's is resized to self's shape with dense strides in that order. An `out` that
// already has self's shape keeps its memory, so it must already be laid out in that order (as a
// memory-planned ExecuTorch tensor is); one laid out otherwise is an error, never silently
// restrided. Size-1 dimensions may have any stride: their stride addresses nothing.

// Raises unless `dim_order` lists each of self's dimensions exactly once.
void checkDimOrder(const char* op, IntArrayRef dim_order, int64_t ndim) {
  SY_CHECK(static_cast<int64_t>(dim_order.size()) == ndim, op, ": 'dim_order' ", formatSizes(dim_order), " has ",
           dim_order.size(), " entries but 'self' has ", ndim, " dimensions");
  absl::InlinedVector<bool, 8> seen(static_cast<size_t>(ndim), false);
  for (int64_t d : dim_order) {
    SY_CHECK_INDEX(d >= 0 && d < ndim, op, ": 'dim_order' ", formatSizes(dim_order), " names dimension ", d,
                   ", which is out of range for a ", ndim, "-D tensor (expected 0 to ", ndim - 1, ")");
    SY_CHECK(!seen[d], op, ": 'dim_order' ", formatSizes(dim_order), " names dimension ", d,
             " twice; it must list every dimension once");
    seen[d] = true;
  }
}


bool hasStrides(const Tensor& t, IntArrayRef strides) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1 && t.stride(d) != strides[d]) return false;
  }
  return true;
}

// Shapes `out` as `sizes` laid out in `order` (See Note [The dim order an out= copy writes]);
// `own_order` says the order is self's own, for the error.
void layOutInDimOrder(const char* op, IntArrayRef sizes, IntArrayRef order, bool own_order, const Tensor& out) {
  const auto dense_strides = checkedStridesInDimOrder(op, sizes, order);
  const SizesVector strides(dense_strides.begin(), dense_strides.end());
  if (!sameSizes(out.sizes(), sizes)) {
    resizeOutput(out, sizes);
    // The resized storage holds numel elements, exactly what any dense order addresses.
    out.unsafeGetTensorImpl()->set_sizes_and_strides(sizes, strides, out.storage_offset());
  }
  SY_CHECK(hasStrides(out, strides), op, ": 'out' has strides ", formatSizes(out.strides()), " (dim order ",
           formatSizes(out.dim_order()), ") but it must be laid out in dim order ", formatSizes(order),
           " (strides ", formatSizes(strides), ")", own_order ? ", self's own" : "");
}

// Shapes and lays out `out` (see Note [The dim order an out= copy writes]), then copies self into it.
Tensor& copyInDimOrder(const char* op, const Tensor& self, std::optional<IntArrayRef> dim_order, Tensor& out) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  const SizesVector self_order = dim_order ? SizesVector() : self.dim_order();
  const IntArrayRef order = dim_order ? *dim_order : IntArrayRef(self_order);
  if (dim_order) checkDimOrder(op, *dim_order, self.dim());
  layOutInDimOrder(op, self.sizes(), order, !dim_order, out);
  copyIntoCPU(op, out, self, "out", "self");
  return out;
}

}  // namespace

namespace native {

Tensor& to_dim_order_copy_out_cpu(const Tensor& self, bool non_blocking, std::optional<IntArrayRef> dim_order,
                                  Tensor& out, const KernelContext& ctx) {
  return copyInDimOrder(ctx.op, self, dim_order, out);
}

Tensor& clone_dim_order_out_cpu(const Tensor& self, bool non_blocking, std::optional<IntArrayRef> dim_order,
                                Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(!self.defined() || !out.defined() || out.scalar_type() == self.scalar_type(), op,
           ": expected 'out' to have self's dtype ", self.scalar_type(), " but got ", out.scalar_type(),
           " (a clone copies; use _to_dim_order_copy to convert)");
  return copyInDimOrder(op, self, dim_order, out);
}

// The out of an empty tensor in a dim order (contiguous when none is given): laid out as the
// copies' outs are, its values left as they are.
Tensor& empty_dim_order_out_cpu(IntArrayRef size, std::optional<IntArrayRef> dim_order, Tensor& out,
                                const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "out", out);
  checkedNumel(op, size);
  SizesVector contiguous_order(size.size());
  for (size_t d = 0; d < size.size(); ++d) contiguous_order[d] = static_cast<int64_t>(d);
  if (dim_order) checkDimOrder(op, *dim_order, static_cast<int64_t>(size.size()));
  layOutInDimOrder(op, size, dim_order ? *dim_order : IntArrayRef(contiguous_order), false, out);
  return out;
}

}  // namespace native
}  // namespace sy::cpu
