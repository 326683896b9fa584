// The CPU kernels of the matrix-product operators (mm, bmm, addmm) as plain C++ functions, plus
// the composite kernels of linear and linear.out, which run on every backend by calling addmm / mm
// through the dispatcher.
//
// They are registered in linalg_ops.cpp; callers normally go through sy::ops::mm(...) and friends
// (ops/linalg_ops.h). Code that must reach a CPU kernel without dispatching can call one directly:
//
//   sy::Tensor out = sy::empty({2, 5});
//   sy::cpu::mm_out_cpu(a, b, out);
//
// Each signature is exactly the operator's C++ signature (argument order follows the schema, so
// out= comes last): the dispatcher requires every kernel and typed handle of an operator to agree.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

// aten::mm, aten::mm.out
Tensor mm_cpu(const Tensor& self, const Tensor& mat2);
Tensor& mm_out_cpu(const Tensor& self, const Tensor& mat2, Tensor& out);

// aten::bmm, aten::bmm.out
Tensor bmm_cpu(const Tensor& self, const Tensor& mat2);
Tensor& bmm_out_cpu(const Tensor& self, const Tensor& mat2, Tensor& out);

// aten::addmm, aten::addmm.out, aten::addmm_
Tensor addmm_cpu(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha);
Tensor& addmm_out_cpu(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                      const Scalar& alpha, Tensor& out);
Tensor& addmm__cpu(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha);

// aten::linear (CompositeImplicit) and aten::linear.out (CompositeExplicit): input @ weight.T + bias
// over any leading batch dims, through aten::addmm / aten::mm.
Tensor linear_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias);
Tensor& linear_out_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             Tensor& out);

}  // namespace sy::cpu
