// The *_copy operators on the CPU: view_copy.out, permute_copy.out, expand_copy.out,
// squeeze_copy.dims_out, squeeze_copy.dim_out, unsqueeze_copy.out, alias_copy.out, detach_copy.out,
// lift_fresh_copy.out,
// select_copy.int_out, slice_copy.Tensor_out, narrow_copy.out, transpose_copy.int_out and t_copy.out (the splitting
// copies, which write a list of outs, are in split_ops.cpp).
//
// ExecuTorch's edge dialect replaces every view with its copying twin, so that no two tensors of a
// program share memory. Each kernel here is the matching view kernel of view_ops.cpp (called
// directly, no dispatch: the shape rules live in one place) followed by one strided copy into
// `out`. Semantics, as ExecuTorch's portable kernels:
//   - `out` must have self's dtype (these copy, they never convert);
//   - `out` is resized to the view's shape when its shape differs (PyTorch's out= rule), and must
//     not have a stride-0 dimension;
//   - an `out` sharing memory with self is written through a temporary (see copyIntoCPU), so the
//     result is the view's values as they were before the call.
// A view's own error (a bad dim, an impossible shape) is reported with this operator's name in
// front: "aten::view_copy.out: aten::view: shape '[5]' is invalid for input of size 6".
#include <cstring>
#include <utility>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/backends/devices/cpu/view_copy_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"

namespace sy::cpu {
namespace {

// Checks the arguments, builds the view with `make_view` (its errors prefixed with `op`) and copies
// it into `out`.
template <class MakeView>
Tensor& copyOfView(const KernelContext& ctx, const Tensor& self, Tensor& out, MakeView&& make_view) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
           " but got ", out.scalar_type(), " (this operator copies; it does not convert)");
  Tensor view;
  try {
    view = std::forward<MakeView>(make_view)();
  } catch (const Error& e) {
    // The view's own error, kind kept (an out-of-range dim stays an IndexError).
    ::sy::detail::throwError(e.kind(), str(op, ": ", e.what()));
  }
  resizeOutput(out, view.sizes());
  checkNoInternalOverlap(op, out);
  copyIntoCPU(op, out, view, "out", "self");
  return out;
}

// Note [A dense permute copies without making the view]
// A training program's permute_copy calls (a weight's transpose before each product) were its most
// expensive kernel: the view's TensorImpl, then the general strided copy, about 2,500 instructions
// for a [2, 4] weight. When self and out are contiguous, of one dtype, in different memory, out
// already has the permuted shape and dims are a permutation of self's dimensions (up to 8), the
// kernel walks out's elements in order and reads self's at the permuted strides, one loop per
// element width. Any other call takes the general path, with the same results and errors.
bool densePermute(const Tensor& self, IntArrayRef dims, const Tensor& out) {
  constexpr size_t kMaxDims = 8;
  const int64_t ndim = self.dim();
  if (!self.defined() || !out.defined() || !self.is_cpu() || !out.is_cpu() || ndim == 0 ||
      static_cast<size_t>(ndim) > kMaxDims || dims.size() != static_cast<size_t>(ndim) ||
      out.scalar_type() != self.scalar_type() || out.dim() != ndim || !self.is_contiguous() || !out.is_contiguous() ||
      sameMemory(out, self)) {
    return false;
  }
  // The sizes and strides as plain arrays: the row loop below reads them once per row.
  const int64_t* self_size = self.sizes().data();
  const int64_t* self_stride = self.strides().data();
  const int64_t* out_size = out.sizes().data();
  int64_t source_stride[kMaxDims];
  bool seen[kMaxDims] = {};
  for (int64_t k = 0; k < ndim; ++k) {
    int64_t d = dims[static_cast<size_t>(k)];
    if (d < 0) d += ndim;
    if (d < 0 || d >= ndim || seen[d] || out_size[k] != self_size[d]) return false;
    seen[d] = true;
    source_stride[k] = self_stride[d];
  }
  const int64_t n = out.numel();
  if (n == 0) return true;
  visitElementWidth(self.element_size(), [&](auto width) {
    using W = decltype(width);
    const W* from = static_cast<const W*>(self.unsafeGetTensorImpl()->data());
    W* to = static_cast<W*>(out.unsafeGetTensorImpl()->data());
    int64_t index[kMaxDims] = {};
    int64_t offset = 0;
    const int64_t last = ndim - 1;
    const int64_t row = out_size[last], step = source_stride[last];
    for (int64_t written = 0; written < n; written += row) {
      for (int64_t i = 0; i < row; ++i) *to++ = from[offset + i * step];
      for (int64_t k = last - 1; k >= 0; --k) {
        offset += source_stride[k];
        if (++index[k] < out_size[k]) break;
        offset -= index[k] * source_stride[k];
        index[k] = 0;
      }
    }
  });
  return true;
}

// As view_copy's (See Note [view_copy of a contiguous tensor copies its bytes]): a view that keeps
// the element order (alias, unsqueeze) of a contiguous self, into a contiguous out of another
// allocation that already has the view's `shape` and self's dtype, is self's bytes. Returns whether
// it copied them; otherwise the general path runs.
bool copiedBytesOf(const Tensor& self, IntArrayRef shape, const Tensor& out) {
  if (!self.defined() || !out.defined() || !self.is_cpu() || !out.is_cpu() || self.scalar_type() != out.scalar_type() ||
      !self.is_contiguous() || !out.is_contiguous() || !sameSizes(out.sizes(), shape) || sameMemory(out, self)) {
    return false;
  }
  if (self.numel() != 0) {
    std::memcpy(out.unsafeGetTensorImpl()->data(), self.unsafeGetTensorImpl()->data(),
                static_cast<size_t>(self.numel()) * self.element_size());
  }
  return true;
}

// self's sizes without the dims of `dims` that have size 1: squeeze's shape, which keeps the
// element order, so a contiguous self's squeeze copy is its bytes (copiedBytesOf). A dim out of
// range or named twice gives the shape [-1], which no out has: the general path raises its error.
SizesVector squeezedShape(const Tensor& self, IntArrayRef dims) {
  const int64_t ndim = self.dim();
  SizesVector shape;
  uint64_t named = 0, dropped = 0;  // bit d: dim d is named; dim d goes
  for (int64_t d : dims) {
    const int64_t wrapped = d < 0 ? d + std::max<int64_t>(ndim, 1) : d;
    // Out of range, or named twice: the general path's error.
    if (wrapped < 0 || wrapped >= std::max<int64_t>(ndim, 1) || wrapped >= 64 || ((named >> wrapped) & 1u) != 0) {
      return SizesVector{-1};
    }
    named |= uint64_t{1} << wrapped;
    if (ndim > 0 && self.sizes()[static_cast<size_t>(wrapped)] == 1) dropped |= uint64_t{1} << wrapped;
  }
  for (int64_t d = 0; d < ndim; ++d) {
    if (((dropped >> d) & 1u) == 0) shape.push_back(self.sizes()[static_cast<size_t>(d)]);
  }
  return shape;
}

}  // namespace

namespace native {

// Note [view_copy of a contiguous tensor copies its bytes]
// A program's reshapes and flattens are view_copy.out of a contiguous tensor, whose view is the
// same bytes under other sizes. For those the kernel checks the sizes by view's rule and copies the
// bytes, without making the view: a TensorImpl, which a method must not allocate while it executes
// (tests/program/program_allocation_test.cpp). Any other self or out takes the general path, with the
// same results and errors.
Tensor& view_copy_out_cpu(const Tensor& self, IntArrayRef size, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  if (self.defined() && out.defined() && self.device().is_cpu() && out.device().is_cpu() &&
      self.scalar_type() == out.scalar_type() && !sameMemory(out, self)) {
    SizesVector shape;
    try {
      shape = inferSize(views::kView.op, size, self.numel());
    } catch (const Error& e) {
      ::sy::detail::throwError(e.kind(), str(op, ": ", e.what()));
    }
    resizeOutput(out, shape);
    if (self.is_contiguous() && copiedBytesOf(self, shape, out)) return out;
    // A self no view can give the shape (a transposed one) is read in row-major order, which is
    // the order of a contiguous out's elements: out read with self's sizes takes it directly.
    if (out.is_contiguous()) {
      const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
      copyIntoCPU(op, viewOf(out, self.sizes(), contiguousStrides(self.sizes()), out.storage_offset()), self, "out",
                  "self");
      return out;
    }
  }
  // A self no view can give the shape (a transposed one) is copied in row-major order all the same,
  // as PyTorch's view_copy does (it falls back to reshape); size errors are still view's.
  return copyOfView(ctx, self, out, [&] {
    inferSize(views::kView.op, size, self.numel());
    return reshape(self, size, views::kReshape);
  });
}

Tensor& permute_copy_out_cpu(const Tensor& self, IntArrayRef dims, Tensor& out, const KernelContext& ctx) {
  // See Note [A dense permute copies without making the view].
  if (SY_LIKELY(densePermute(self, dims, out))) return out;
  return copyOfView(ctx, self, out, [&] { return permute(self, dims, views::kPermute); });
}

Tensor& expand_copy_out_cpu(const Tensor& self, IntArrayRef size, bool implicit, Tensor& out,
                            const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return expand(self, size, implicit, views::kExpand); });
}

Tensor& squeeze_copy_dims_out_cpu(const Tensor& self, IntArrayRef dim, Tensor& out, const KernelContext& ctx) {
  if (self.defined() && copiedBytesOf(self, squeezedShape(self, dim), out)) return out;
  return copyOfView(ctx, self, out, [&] { return squeeze_dims(self, dim, views::kSqueezeDims); });
}

Tensor& squeeze_copy_dim_out_cpu(const Tensor& self, int64_t dim, Tensor& out, const KernelContext& ctx) {
  if (self.defined() && copiedBytesOf(self, squeezedShape(self, IntArrayRef(&dim, 1)), out)) return out;
  return copyOfView(ctx, self, out, [&] { return squeeze_dim(self, dim, views::kSqueezeDim); });
}

Tensor& unsqueeze_copy_out_cpu(const Tensor& self, int64_t dim, Tensor& out, const KernelContext& ctx) {
  if (self.defined()) {
    const int64_t ndim = self.dim();
    const int64_t d = dim < 0 ? dim + ndim + 1 : dim;
    if (d >= 0 && d <= ndim && out.defined() && out.dim() == ndim + 1) {
      SizesVector shape(self.sizes().begin(), self.sizes().end());
      shape.insert(shape.begin() + d, 1);
      if (copiedBytesOf(self, shape, out)) return out;
    }
  }
  return copyOfView(ctx, self, out, [&] { return unsqueeze(self, dim, views::kUnsqueeze); });
}

Tensor& alias_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  if (self.defined() && copiedBytesOf(self, self.sizes(), out)) return out;
  return copyOfView(ctx, self, out, [&] { return self; });
}

// detach and lift_fresh are autograd's views of self itself: their copies are alias_copy's.
Tensor& detach_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return self; });
}

Tensor& lift_fresh_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return self; });
}

Tensor& select_copy_int_out_cpu(const Tensor& self, int64_t dim, int64_t index, Tensor& out, const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return select_int(self, dim, index, views::kSelectInt); });
}

Tensor& slice_copy_Tensor_out_cpu(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                                  std::optional<int64_t> end, int64_t step, Tensor& out, const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return slice_Tensor(self, dim, start, end, step, views::kSliceTensor); });
}

Tensor& transpose_copy_int_out_cpu(const Tensor& self, int64_t dim0, int64_t dim1, Tensor& out,
                                   const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] { return transpose_int(self, dim0, dim1, views::kTransposeInt); });
}

// narrow: `length` elements along dim from `start` (a negative start counts from the end).
Tensor& narrow_copy_out_cpu(const Tensor& self, int64_t dim, int64_t start, int64_t length, Tensor& out,
                            const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] {
    SY_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
    const int64_t d = wrapDim(dim, self.dim(), ctx.op, "dim");
    const int64_t size = self.size(d);
    SY_CHECK_INDEX(start >= -size && start <= size, "start out of range (expected to be in range of [", -size, ", ",
                   size, "], but got ", start, ")");
    const int64_t first = start < 0 ? start + size : start;
    SY_CHECK(length >= 0, "narrow(): length must be non-negative.");
    SY_CHECK(first <= size - length, "start (", first, ") + length (", length, ") exceeds dimension size (", size,
             ").");
    return slice_Tensor(self, d, first, first + length, 1, views::kSliceTensor);
  });
}

// t: a transpose of the two dimensions of a matrix; a vector or 0-dim tensor is itself.
Tensor& t_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return copyOfView(ctx, self, out, [&] {
    SY_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
    return self.dim() < 2 ? self : transpose_int(self, 0, 1, views::kTransposeInt);
  });
}

}  // namespace native
}  // namespace sy::cpu
