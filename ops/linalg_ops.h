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
// self and linear's bias) are described in backends/devices/cpu/linalg_ops.cpp.
//
// The declarations are generated from backends/devices/cpu/linalg_ops.yaml into the build tree
// (switchyard/ops/linalg/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/linalg/Functions.h"
