// sy::ops:: helpers for the shape and view operators, and the copies that go with them
// (contiguous, clone, cat). PyTorch's at:: names, argument order and defaults.
//
//   sy::Tensor x = sy::ops::view(sy::ops::arange(6), {2, 3});   // arange: creation_ops.h
//   sy::Tensor t = sy::ops::transpose(x, 0, 1);        // a view: shares x's memory
//   sy::Tensor row = sy::ops::select(x, 0, -1);        // the last row, also a view
//   sy::Tensor every_other = sy::ops::slice(x, 1, 0, std::nullopt, 2);
//   sy::Tensor dense = sy::ops::contiguous(t);         // a copy, because t is not contiguous
//   sy::Tensor both = sy::ops::cat({x, x}, /*dim=*/1); // [2, 6]
//
// Views (view, reshape when it can, permute, transpose, unsqueeze, squeeze, expand, slice,
// select) share storage with their input: writing through one is visible through the other.
// Every function is one call through the dispatcher.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// aten::copy_: writes `src` (broadcast to self's shape, converted to self's dtype and device)
// into `self` and returns `self`.
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking = false);

// aten::view: the same elements in `size` (one entry may be -1, inferred); an error when the
// strides do not allow it without copying (use reshape).
Tensor view(const Tensor& self, IntArrayRef size);
// aten::reshape: a view when the strides allow one, else a contiguous copy.
Tensor reshape(const Tensor& self, IntArrayRef shape);
// aten::permute: dimension i of the result is dimension dims[i] of self.
Tensor permute(const Tensor& self, IntArrayRef dims);
// aten::transpose.int: swaps two dimensions.
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
// aten::unsqueeze: inserts a size-1 dimension at `dim` (in [-dim()-1, dim()]).
Tensor unsqueeze(const Tensor& self, int64_t dim);
// aten::squeeze: drops every size-1 dimension.
Tensor squeeze(const Tensor& self);
// aten::squeeze.dim: drops dimension `dim` if its size is 1 (else returns a plain alias).
Tensor squeeze(const Tensor& self, int64_t dim);
// aten::squeeze.dims: drops each listed dimension whose size is 1 (others are kept).
Tensor squeeze(const Tensor& self, IntArrayRef dim);
// aten::expand: broadcasts size-1 dimensions to `size` (stride 0, no copy); -1 keeps a size.
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit = false);
// aten::slice.Tensor: elements start, start+step, ... before end along `dim`; Python slicing
// rules (negative bounds count from the end, out-of-range bounds are clamped), step > 0.
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
// aten::select.int: the slice at `index` along `dim`, with that dimension removed.
Tensor select(const Tensor& self, int64_t dim, int64_t index);

// aten::contiguous: self when already laid out as memory_format asks, else a copy that is.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format = MemoryFormat::Contiguous);
// aten::clone / clone.out: a copy in new memory; by default (Preserve) with self's strides when
// self is dense, else contiguous.
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor& clone_out(Tensor& out, const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt);

// aten::cat / cat.out: concatenation along `dim`, with dtype promotion across the inputs.
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor& cat_out(Tensor& out, TensorList tensors, int64_t dim = 0);

}  // namespace sy::ops
