// diagonal_copy.out, as_strided_copy.out and unfold_copy.out (+ their functional forms) on the CPU:
// copies of the views PyTorch's diagonal, as_strided and unfold return, each a new size/stride/offset
// over self's storage, written into a tensor of their own.
//
// Semantics (PyTorch's):
// - diagonal_copy: the diagonal `offset` above (below, when negative) the main one of the plane of
//   dim1 and dim2, which are dropped, the diagonal becoming the last dimension (empty when the
//   offset is past the plane).
// - as_strided_copy: any sizes and non-negative strides (as many as sizes) from `storage_offset`
//   (self's own when None), in elements of self's storage; every element they reach must lie
//   within that storage, so hostile values are a clean error rather than a read past it.
// - unfold_copy: the windows of `size` elements every `step` along `dimension`, as a new last
//   dimension (a 0-dim self is a dimension of one element).
// The result has self's dtype, and an out= tensor must have it too; every dtype is taken. See
// rearrange.h for the out's rules.
#include <algorithm>
#include <cstdint>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/view_copy/NativeFunctions.h"

namespace sy::cpu {
namespace {

// Writes self's elements seen with the geometry (sizes, strides, offset) into out in the form ctx
// names. An out that shares memory with self gets the values from before the call: they are staged
// first, since resizing out may move the storage the view reads.
Tensor& copyOfStridedView(const KernelContext& ctx, const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                          int64_t storage_offset, Tensor& out) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  const char* op = ctx.op;
  Tensor view = viewOf(self, sizes, strides, storage_offset);
  if (out.defined() && sameMemory(out, self) && view.numel() != 0) {
    Tensor staged = scratchTensor(op, sizes, self.scalar_type());
    copyIntoCPU(op, staged, view, "copy", "self");
    view = staged;
  }
  rearrangedOutput(ctx, self, sizes, out);
  if (out.numel() != 0) copyIntoCPU(op, out, view, "out", "self");
  return out;
}

}  // namespace

namespace native {

Tensor& diagonal_copy_out_cpu(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2, Tensor& out,
                              const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  const int64_t d1 = wrapDim(dim1, ndim, op, "dim1", /*wrap_scalar=*/false);
  const int64_t d2 = wrapDim(dim2, ndim, op, "dim2", /*wrap_scalar=*/false);
  SY_CHECK(d1 != d2, op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  // offset >= 0 starts at column `offset` of row 0; offset < 0 at row -offset of column 0.
  int64_t length = offset >= 0 ? std::min(self.size(d1), self.size(d2) - offset)
                               : std::min(self.size(d1) + offset, self.size(d2));
  if (length < 0) length = 0;
  int64_t start = self.storage_offset();
  if (length > 0) start += offset >= 0 ? offset * self.stride(d2) : -offset * self.stride(d1);
  SizesVector sizes, strides;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d == d1 || d == d2) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  sizes.push_back(length);
  strides.push_back(self.stride(d1) + self.stride(d2));
  return copyOfStridedView(ctx, self, sizes, strides, start, out);
}

Tensor& as_strided_copy_out_cpu(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                                std::optional<int64_t> storage_offset, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(size.size() == stride.size(), op, ": mismatch in length of strides and shape (", size.size(), " sizes, ",
           stride.size(), " strides)");
  const int64_t start = storage_offset.value_or(self.storage_offset());
  SY_CHECK_VALUE(start >= 0, op, ": invalid storage offset ", start);
  // The last element the geometry reaches, in elements from the storage's start.
  int64_t last = start;
  bool empty = false;
  for (size_t d = 0; d < size.size(); ++d) {
    SY_CHECK_VALUE(size[d] >= 0, op, ": Trying to create tensor with negative dimension ", size[d], ": ",
                   formatSizes(size));
    SY_CHECK_VALUE(stride[d] >= 0, op, ": Negative strides are not supported at the moment, got strides: ",
                   formatSizes(stride));
    empty = empty || size[d] == 0;
    int64_t reach = 0;
    SY_CHECK_VALUE(size[d] == 0 || (checkedMul(size[d] - 1, stride[d], &reach) && checkedAdd(last, reach, &last)), op,
                   ": sizes ", formatSizes(size), " and strides ", formatSizes(stride),
                   " reach past what 64 bits hold");
  }
  checkedNumel(op, size);
  const int64_t capacity = self.storage() ? static_cast<int64_t>(self.storage()->nbytes() / self.element_size()) : 0;
  SY_CHECK_INDEX(empty || last < capacity, op, ": sizes ", formatSizes(size), ", strides ", formatSizes(stride),
                 " and storage offset ", start, " reach element ", last, ", out of bounds for storage of ", capacity,
                 " elements");
  return copyOfStridedView(ctx, self, size, stride, empty ? self.storage_offset() : start, out);
}

Tensor& unfold_copy_out_cpu(const Tensor& self, int64_t dimension, int64_t size, int64_t step, Tensor& out,
                            const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  const int64_t d = wrapDim(dimension, ndim, op, "dimension");
  const int64_t extent = ndim == 0 ? 1 : self.size(d);
  const int64_t dim_stride = ndim == 0 ? 1 : self.stride(d);
  SY_CHECK(size >= 0, op, ": size is ", size, " but must be >= 0");
  SY_CHECK(size <= extent, op, ": maximum size for tensor at dimension ", d, " is ", extent, " but size is ", size);
  SY_CHECK(step > 0, op, ": step is ", step, " but must be > 0");
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  if (ndim > 0) {
    sizes[d] = (extent - size) / step + 1;
    int64_t window_stride = 0;
    SY_CHECK_VALUE(checkedMul(step, dim_stride, &window_stride), op, ": step ", step,
                   " times the dimension's stride overflows 64 bits");
    strides[d] = window_stride;
  }
  sizes.push_back(size);
  strides.push_back(dim_stride);
  checkedNumel(op, sizes);
  return copyOfStridedView(ctx, self, sizes, strides, self.storage_offset(), out);
}

}  // namespace native
}  // namespace sy::cpu
