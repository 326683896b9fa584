// sy::ops:: helpers for the reduction operators (sum, mean, amax, argmax) and for softmax and
// log_softmax, in PyTorch's at:: argument order and with at::'s defaults (out= forms take `out`
// first and return it).
//
//   sy::Tensor x = sy::tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
//   sy::Tensor total = sy::ops::sum(x);                             // 0-dim, 21
//   sy::Tensor rows = sy::ops::sum(x, {1}, /*keepdim=*/true);        // (2, 1)
//   sy::Tensor counts = sy::ops::sum(bools);                        // Long, as in PyTorch
//   sy::Tensor m = sy::ops::mean(x, {0});                           // (3,)
//   sy::Tensor peak = sy::ops::amax(x, {-1});                       // (2,)
//   sy::Tensor where = sy::ops::argmax(x, /*dim=*/1);               // Long (2,)
//   sy::Tensor p = sy::ops::softmax(x, /*dim=*/-1);                 // rows sum to 1
//   sy::ops::sum_out(out, x, {0});                                  // returns `out` itself
//
// Every function is one call through the dispatcher. Semantics (dtypes, NaN, empty reductions)
// are described in backends/devices/cpu/reduction_ops.cpp and softmax_ops.cpp.
//
// The declarations are generated from backends/devices/cpu/reduction_ops.yaml into the build tree
// (switchyard/ops/reduction/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt. `switchyard ops` lists the operators and `switchyard
// ops NAME` shows one's schema and kernels.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/optional_int_array_ref.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

#include "switchyard/ops/reduction/Functions.h"

namespace sy::ops {

// The `int[1]? dim` parameter type, by its former name here (see ivalue/optional_int_array_ref.h).
using ::sy::OptionalIntArrayRef;

}  // namespace sy::ops
