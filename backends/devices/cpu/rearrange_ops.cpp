// The rearranging operators on the CPU: flip.out, roll.out, repeat.out and tril.out (each serving
// its functional form, tril its in-place tril_ too), and the helpers of rearrange.h.
//
// Semantics (PyTorch's):
//   - flip reverses self along each dimension in `dims` (wrapped; a dimension listed twice is an
//     error); roll shifts self's elements along each of `dims` by the matching shift, those pushed
//     past the end coming back at the start; with no dims it rolls the flattened tensor by the one
//     shift and keeps the shape (shifts and dims must otherwise have one entry each);
//   - repeat tiles self `repeats[d]` times along each dimension; `repeats` may have more entries
//     than self has dimensions (self is then treated as having leading size-1 dimensions), never
//     fewer, and no negative one;
//   - tril keeps the elements of each matrix (the last two dimensions) on and below the
//     `diagonal`-th diagonal (0 the main one, positive above it, negative below) and zeroes the rest;
//   - the result has self's dtype; an out= tensor must have it too (these move elements, they
//     never convert) and is resized when its shape differs; an out sharing memory with self gets
//     the result computed from self's values before the call.
#include <algorithm>
#include <cstdlib>

#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {

namespace detail {
void throwUnsupportedElementWidth(size_t element_size) {
  SY_CHECK(false, "no element type is ", element_size, " bytes wide");
  std::abort();  // unreachable: SY_CHECK(false) raises
}
}  // namespace detail

Tensor readableInputOf(const char* op, const Tensor& self, const Tensor& out) {
  if (!out.defined() || !sameMemory(self, out) || self.numel() == 0) return self;
  const Tensor copy = sy::empty(self.sizes(), self.scalar_type());
  copyIntoCPU(op, copy, self, "copy", "self");
  return copy;
}

Tensor& rearrangedOutput(const KernelContext& ctx, const Tensor& self, IntArrayRef sizes, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(sizes, TensorOptions(self.scalar_type()).device(kCPU));
    return out;
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
           " but got ", out.scalar_type(), " (this operator moves elements; it does not convert)");
  if (ctx.form == OutputForm::InPlace) {
    SY_CHECK(sameSizes(out.sizes(), sizes), op, ": the result has shape ", formatSizes(sizes),
             " but 'self', written in place, has shape ", formatSizes(out.sizes()));
  } else {
    resizeOutput(out, sizes);
  }
  checkNoInternalOverlap(op, out, "out");
  return out;
}

namespace {

// The element of self at `index` (self's own rank), in elements from its data pointer.
int64_t rearrangeOffsetOf(const Tensor& self, const int64_t* index) {
  int64_t offset = 0;
  for (int64_t d = 0; d < self.dim(); ++d) offset += index[d] * self.stride(d);
  return offset;
}

}  // namespace

namespace native {

Tensor& flip_out_cpu(const Tensor& self, IntArrayRef dims, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  absl::InlinedVector<bool, 8> flipped(static_cast<size_t>(std::max<int64_t>(ndim, 1)), false);
  for (int64_t d : dims) {
    const int64_t w = wrapDim(d, ndim, op, "dims");
    SY_CHECK(!flipped[w], op, ": dim ", w, " appears multiple times in the list of dims ", formatSizes(dims));
    flipped[w] = true;
  }
  const Tensor source = readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, self.sizes(), out);
  writeElementsFrom(out, source, nullptr, [&](const int64_t* index, int64_t* offset) {
    int64_t o = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      o += (flipped[d] ? source.size(d) - 1 - index[d] : index[d]) * source.stride(d);
    }
    *offset = o;
    return true;
  });
  return out;
}

Tensor& roll_out_cpu(const Tensor& self, IntArrayRef shifts, IntArrayRef dims, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(!shifts.empty(), op, ": 'shifts' must not be empty");
  const int64_t ndim = self.dim();
  if (dims.empty()) {
    SY_CHECK(shifts.size() == 1, op, ": with no 'dims', 'shifts' must hold one shift (of the flattened tensor), but "
             "it holds ", shifts.size());
  } else {
    SY_CHECK(shifts.size() == dims.size(), op, ": shifts and dimensions must align. shifts: ", shifts.size(),
             ", dims: ", dims.size());
  }
  // Each dimension's total shift, in [0, size): a dimension listed twice is rolled twice.
  SizesVector shift_of(static_cast<size_t>(std::max<int64_t>(ndim, 1)), 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrapDim(dims[i], ndim, op, "dims", /*wrap_scalar=*/false);  // a 0-dim self has no dims
    const int64_t size = self.size(d);
    if (size != 0) shift_of[d] = ((shift_of[d] + shifts[i] % size) % size + size) % size;
  }
  const Tensor source = readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, self.sizes(), out);
  const int64_t numel = self.numel();
  if (numel == 0) return out;
  if (dims.empty()) {
    const int64_t shift = ((shifts[0] % numel) + numel) % numel;
    writeElementsFrom(out, source, nullptr, [&](const int64_t* index, int64_t* offset) {
      int64_t flat = 0;  // out's row-major position, then the source's
      for (int64_t d = 0; d < ndim; ++d) flat = flat * source.size(d) + index[d];
      flat = (flat - shift + numel) % numel;
      int64_t o = 0;
      for (int64_t d = ndim - 1; d >= 0; --d) {
        o += (flat % source.size(d)) * source.stride(d);
        flat /= source.size(d);
      }
      *offset = o;
      return true;
    });
    return out;
  }
  writeElementsFrom(out, source, nullptr, [&](const int64_t* index, int64_t* offset) {
    int64_t o = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      int64_t i = index[d] - shift_of[d];
      if (i < 0) i += source.size(d);
      o += i * source.stride(d);
    }
    *offset = o;
    return true;
  });
  return out;
}

Tensor& repeat_out_cpu(const Tensor& self, IntArrayRef repeats, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  const int64_t rank = static_cast<int64_t>(repeats.size());
  SY_CHECK(rank >= ndim, op, ": Number of dimensions of repeat dims can not be smaller than number of dimensions of "
           "tensor (repeats ", formatSizes(repeats), " for a ", ndim, "-D tensor)");
  const int64_t lead = rank - ndim;  // self's dimension e is the result's dimension lead + e
  SizesVector sizes(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) {
    SY_CHECK_VALUE(repeats[d] >= 0, op, ": expected 'repeats' to be non-negative, but got ", formatSizes(repeats));
    const int64_t size = d < lead ? 1 : self.size(d - lead);
    SY_CHECK_VALUE(checkedMul(size, repeats[d], &sizes[d]), op, ": repeating ", formatSizes(self.sizes()), " by ",
                   formatSizes(repeats), " gives a dimension larger than 64 bits hold");
  }
  checkedNumel(op, sizes);
  const Tensor source = readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, sizes, out);
  writeElementsFrom(out, source, nullptr, [&](const int64_t* index, int64_t* offset) {
    int64_t o = 0;
    for (int64_t e = 0; e < ndim; ++e) o += (index[lead + e] % source.size(e)) * source.stride(e);
    *offset = o;
    return true;
  });
  return out;
}

Tensor& tril_out_cpu(const Tensor& self, int64_t diagonal, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  SY_CHECK(ndim >= 2, op, ": tril: input tensor must have at least 2 dimensions, but 'self' has ", ndim);
  // In place, each element is read and written at the same place: nothing to copy aside.
  const Tensor source = ctx.form == OutputForm::InPlace ? self : readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, self.sizes(), out);
  const uint64_t zero = 0;  // zero bytes are 0, 0.0 and false in every dtype
  writeElementsFrom(out, source, &zero, [&](const int64_t* index, int64_t* offset) {
    if (index[ndim - 1] - index[ndim - 2] > diagonal) return false;
    *offset = rearrangeOffsetOf(source, index);
    return true;
  });
  return out;
}

}  // namespace native
}  // namespace sy::cpu
