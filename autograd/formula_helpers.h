// Helpers that backward formulas and the engine share: undoing a broadcast (summing a gradient
// back to an input's shape), undoing a reduction (spreading a gradient over the dimensions a sum
// or mean removed), and scaling by a Scalar argument.
//
//   sy::Tensor g = sy::autograd::sumToSize(grad, {3, 1});   // grad of shape (2, 3, 4) -> (3, 1)
//   sy::Tensor s = sy::autograd::expandReduced(grad, {2, 3, 4}, {1}, /*keepdim=*/false);  // (2, 4) -> (2, 3, 4)
//   sy::Tensor a = sy::autograd::scaled(grad, ctx.arg("alpha").toScalar());  // grad itself when alpha is 1
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::autograd {

// True when a tensor of shape `from` broadcasts to shape `to`.
bool expandsTo(IntArrayRef from, IntArrayRef to);

// `grad` (of a shape `sizes` broadcasts to) summed over the broadcast dimensions, with `sizes`.
Tensor sumToSize(const Tensor& grad, IntArrayRef sizes);

// The dimensions a reduction over `dims` (every dimension when nullopt or empty) of a tensor of
// rank `ndim` removed, wrapped and sorted.
SizesVector reducedDims(std::optional<IntArrayRef> dims, int64_t ndim);

// The gradient of a reduction (of a tensor of shape `sizes` over `dims`) broadcast back to `sizes`.
Tensor expandReduced(const Tensor& grad, IntArrayRef sizes, std::optional<IntArrayRef> dims, bool keepdim);

// grad * s, without a multiplication when s is 1.
Tensor scaled(const Tensor& grad, const Scalar& s);

}  // namespace sy::autograd
