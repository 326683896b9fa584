// sy::ops:: helpers for the matrix-product operators (mm, bmm, addmm, linear), in PyTorch's at::
// argument order and with at::'s defaults (out= forms take `out` first and return it).
//
//   sy::Tensor c = sy::ops::mm(a, b);                                // (n, k) @ (k, m)
//   sy::Tensor batched = sy::ops::bmm(as, bs);                       // (b, n, k) @ (b, k, m)
//   sy::Tensor d = sy::ops::addmm(bias, a, b, /*beta=*/1, /*alpha=*/2);  // bias + 2 * a @ b
//   sy::ops::addmm_(acc, a, b);                                      // acc += a @ b
//   sy::Tensor y = sy::ops::linear(x, weight, bias);                 // x @ weight.T + bias
//   sy::ops::mm_out(out, a, b);                                      // returns `out` itself
//
// Every function is one call through the dispatcher. Semantics (dtypes, broadcasting of addmm's
// self and linear's bias) are described in backends/cpu/linalg_ops.cpp.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// aten::mm / aten::mm.out: the product of two matrices.
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2);

// aten::bmm / aten::bmm.out: the products of two batches of matrices.
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2);

// aten::addmm / aten::addmm.out / aten::addmm_: beta * self + alpha * (mat1 @ mat2), self broadcast
// to the product's shape (in place: self must have it).
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor& addmm_out(Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
                  const Scalar& alpha = 1);
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1);

// aten::linear / aten::linear.out: input @ weight.T + bias over any leading dims of input.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt);
Tensor& linear_out(Tensor& out, const Tensor& input, const Tensor& weight,
                   const std::optional<Tensor>& bias = std::nullopt);

}  // namespace sy::ops
