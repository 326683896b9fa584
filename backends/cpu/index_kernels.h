// The CPU kernels of the indexing operators gather and scatter (value form), as plain C++
// functions. Callers normally go through sy::ops:: (ops/index_ops.h); code that must reach a
// kernel without dispatching can call these directly:
//
//   sy::Tensor out = sy::empty({0});
//   sy::cpu::gather_out_cpu(x, /*dim=*/1, index, /*sparse_grad=*/false, out);
//
// Every signature is exactly the operator's C++ signature (arguments in schema order, out= last).
// All live in gather_scatter.cpp.
#pragma once

#include <cstdint>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

Tensor gather_cpu(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad);
Tensor& gather_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad, Tensor& out);
Tensor scatter_value_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor& scatter_value_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, Tensor& out);

}  // namespace sy::cpu
