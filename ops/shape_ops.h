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
//
// The declarations are generated from backends/devices/cpu/shape_ops.yaml into the build tree
// (switchyard/ops/shape/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt. What each one does:
//   view(self, size)            the same elements in `size` (one entry may be -1, inferred); an error
//                               when the strides do not allow it without copying (use reshape)
//   reshape(self, shape)        a view when the strides allow one, else a contiguous copy
//   permute(self, dims)         dimension i of the result is dimension dims[i] of self
//   transpose(self, dim0, dim1) swaps two dimensions
//   unsqueeze(self, dim)        inserts a size-1 dimension at `dim` (in [-dim()-1, dim()])
//   squeeze(self)               drops every size-1 dimension; squeeze(self, dim) drops `dim` if its
//                               size is 1 (else a plain alias); squeeze(self, dims) each listed one
//   expand(self, size)          broadcasts size-1 dimensions to `size` (stride 0, no copy); -1 keeps a size
//   slice(self, dim = 0, start = nullopt, end = nullopt, step = 1)
//                               elements start, start+step, ... before end along `dim`; Python slicing
//                               rules (negative bounds count from the end, out-of-range bounds are
//                               clamped), step > 0
//   select(self, dim, index)    the slice at `index` along `dim`, with that dimension removed
//   contiguous(self)            self when already laid out as memory_format asks, else a copy that is
//   clone(self), clone_out      a copy in new memory; by default (Preserve) with self's strides when
//                               self is dense, else contiguous
//   cat(tensors, dim = 0), cat_out   concatenation along `dim`, with dtype promotion across the inputs
//   copy_(self, src, non_blocking = false)   writes `src` (broadcast to self's shape, converted to
//                               self's dtype and device) into `self` and returns `self`
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape/Functions.h"
