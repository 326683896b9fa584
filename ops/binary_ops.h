// sy::ops:: helpers for the binary elementwise operators, the comparisons and where: one function
// per operator call, with PyTorch's at:: names, argument order and defaults (out= variants take
// `out` first; in-place forms take `self` first and return it).
//
//   sy::Tensor x = sy::tensor<int32_t>({7, -7});
//   sy::Tensor q = sy::ops::div(x, 2);                       // Float: 3.5, -3.5
//   sy::Tensor f = sy::ops::div(x, sy::full({}, 2, sy::ScalarType::Int), "floor");  // Int: 3, -4
//   sy::ops::sub_(x, 1);                                     // x is now 6, -8
//   sy::Tensor m = sy::ops::where(sy::ops::gt(x, 0), x, 0);  // 6, 0
//
// Every function is one call through the dispatcher; out and in-place forms return the caller's
// own Tensor object.
//
// The declarations are generated from backends/devices/cpu/binary_ops.yaml into the build tree
// (switchyard/ops/binary/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/binary/Functions.h"
