// The CPU kernels of the reduction operators (sum, mean, amax, argmax) and of softmax and
// log_softmax, as plain C++ functions, plus the composite kernels of softmax.int and
// log_softmax.int, which run on every backend by calling the underscore operators.
//
// They are registered in reduction_ops.cpp and softmax_ops.cpp; callers normally go through
// sy::ops::sum(...) and friends (ops/reduction_ops.h). Code that must reach a CPU kernel without
// dispatching can call one directly:
//
//   sy::Tensor out = sy::empty({});
//   sy::cpu::sum_IntList_out_cpu(x, std::nullopt, /*keepdim=*/false, std::nullopt, out);
//
// Each signature is exactly the operator's C++ signature (argument order follows the schema, so
// out= comes last): the dispatcher requires every kernel and typed handle of an operator to agree.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

// aten::sum, aten::sum.out, aten::sum.dim_IntList, aten::sum.IntList_out (reduction_ops.cpp)
Tensor sum_cpu(const Tensor& self, std::optional<ScalarType> dtype);
Tensor& sum_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out);
Tensor sum_dim_IntList_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                           std::optional<ScalarType> dtype);
Tensor& sum_IntList_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                            std::optional<ScalarType> dtype, Tensor& out);

// aten::mean, aten::mean.dtype_out, aten::mean.dim, aten::mean.out (reduction_ops.cpp)
Tensor mean_cpu(const Tensor& self, std::optional<ScalarType> dtype);
Tensor& mean_dtype_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out);
Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype);
Tensor& mean_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                     Tensor& out);

// aten::amax, aten::amax.out (reduction_ops.cpp)
Tensor amax_cpu(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor& amax_out_cpu(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out);

// aten::argmax, aten::argmax.out (softmax_ops.cpp: it works along one dim, like softmax)
Tensor argmax_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
Tensor& argmax_out_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out);

// aten::_softmax, aten::_log_softmax and their out= forms (softmax_ops.cpp)
Tensor _softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float);
Tensor& _softmax_out_cpu(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out);
Tensor _log_softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float);
Tensor& _log_softmax_out_cpu(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out);

// aten::softmax.int, aten::log_softmax.int (CompositeImplicit) and their .int_out forms
// (CompositeExplicit): convert to `dtype` when given, then call the underscore operators through
// the dispatcher (softmax_ops.cpp).
Tensor softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor& softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out);
Tensor log_softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor& log_softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out);

}  // namespace sy::cpu
