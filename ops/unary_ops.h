// sy::ops:: helpers for the elementwise unary operators and the activations: one function per
// operator call, with PyTorch's at:: names, argument order and defaults.
//
//   sy::Tensor y = sy::ops::exp(x);                  // integral x gives Float
//   sy::ops::relu_(y);                               // in place; returns y itself
//   sy::ops::gelu_out(out, x, "tanh");               // out= first; returns out itself
//   sy::Tensor c = sy::ops::clamp(x, -1, 1);         // Scalar bounds (min has no default, as in at::)
//   sy::Tensor h = sy::ops::hardtanh(x, 0, 6);       // relu6; the bounds never change x's dtype
//   sy::Tensor d = sy::ops::clamp(x, lo_tensor);     // Tensor bounds, broadcast with x
//
// Each operator has its out= form (name_out) and, where PyTorch has them, its functional and
// in-place (name_) forms, all three run by one kernel. `switchyard ops` lists the operators and
// `switchyard ops NAME` shows one's schema and kernels; what each computes is described beside its
// kernel (backends/devices/cpu/unary_ops.cpp, activation_ops.cpp).
//
// The declarations are generated from backends/devices/cpu/unary_ops.yaml into the build tree
// (switchyard/ops/unary/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt. Every function is one call through the dispatcher. Out and
// in-place forms return the caller's own Tensor object.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/unary/Functions.h"
