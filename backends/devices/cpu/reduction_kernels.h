// The CPU kernels of the reduction operators (sum, mean, amax, argmax) and of softmax and
// log_softmax, as plain C++ functions, plus the composite kernels of softmax.int and
// log_softmax.int, which run on every backend by calling the underscore operators.
//
// They are defined in reduction_ops.cpp and softmax_ops.cpp, each the out variant's kernel serving
// the functional form too; callers go through sy::ops::sum(...) and friends (ops/reduction_ops.h).
// Each takes the operator's arguments in schema order (out= last), then its context
// (dispatcher/kernel_context.h).
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/reduction/NativeFunctions.h"

namespace sy::cpu {

// The kernels of sum, mean, amax (reduction_ops.cpp), argmax, _softmax and _log_softmax
// (softmax_ops.cpp) and their out= forms are bound from backends/devices/cpu/reduction_ops.yaml and declared in
// sy::cpu::native by the generated header (sy::cpu::sum_cpu names them too), e.g.
//   Tensor sum_dim_IntList_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
//                              std::optional<ScalarType> dtype);
using namespace native;

// aten::softmax.int, aten::log_softmax.int (CompositeImplicit) and their .int_out forms
// (CompositeExplicit): convert to `dtype` when given, then call the underscore operators through
// the dispatcher (softmax_ops.cpp).
Tensor softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor& softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out);
Tensor log_softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor& log_softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out);

}  // namespace sy::cpu
