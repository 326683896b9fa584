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
// Every function is one call through the dispatcher. Out and in-place forms return the caller's
// own Tensor object.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// aten::acos / aten::acos.out: element-wise arccosine; integral inputs give Float.
Tensor acos(const Tensor& self);
Tensor& acos_out(Tensor& out, const Tensor& self);

// aten::sin / aten::sin.out: element-wise sine; integral inputs give Float.
Tensor sin(const Tensor& self);
Tensor& sin_out(Tensor& out, const Tensor& self);

// Same dtype as the input: aten::abs / abs_ / abs.out; aten::neg / neg_ / neg.out (Bool is an error).
Tensor abs(const Tensor& self);
Tensor& abs_(Tensor& self);
Tensor& abs_out(Tensor& out, const Tensor& self);
Tensor neg(const Tensor& self);
Tensor& neg_(Tensor& self);
Tensor& neg_out(Tensor& out, const Tensor& self);

// Floating functions (integral and bool inputs give Float; in place they need a floating self).
Tensor exp(const Tensor& self);
Tensor& exp_(Tensor& self);
Tensor& exp_out(Tensor& out, const Tensor& self);
Tensor log(const Tensor& self);
Tensor& log_(Tensor& self);
Tensor& log_out(Tensor& out, const Tensor& self);
Tensor sqrt(const Tensor& self);
Tensor& sqrt_(Tensor& self);
Tensor& sqrt_out(Tensor& out, const Tensor& self);
Tensor rsqrt(const Tensor& self);
Tensor& rsqrt_(Tensor& self);
Tensor& rsqrt_out(Tensor& out, const Tensor& self);
Tensor& sin_(Tensor& self);
Tensor cos(const Tensor& self);
Tensor& cos_(Tensor& self);
Tensor& cos_out(Tensor& out, const Tensor& self);
Tensor tanh(const Tensor& self);
Tensor& tanh_(Tensor& self);
Tensor& tanh_out(Tensor& out, const Tensor& self);
Tensor& acos_(Tensor& self);

// Activations: aten::sigmoid, aten::relu (keeps integral dtypes), aten::gelu
// (approximate "none" or "tanh"; Float and Double only).
Tensor sigmoid(const Tensor& self);
Tensor& sigmoid_(Tensor& self);
Tensor& sigmoid_out(Tensor& out, const Tensor& self);
Tensor relu(const Tensor& self);
Tensor& relu_(Tensor& self);
Tensor& relu_out(Tensor& out, const Tensor& self);
Tensor gelu(const Tensor& self, std::string_view approximate = "none");
Tensor& gelu_(Tensor& self, std::string_view approximate = "none");
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate = "none");

// aten::hardtanh / hardtanh_ / hardtanh.out: clamp to [min_val, max_val] in self's own dtype (an
// integral self truncates the bounds to integers; Bool is an error).
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_(Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_out(Tensor& out, const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);

// aten::clamp / clamp_ / clamp.out with Scalar bounds (at least one given).
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max = std::nullopt);
// aten::clamp.Tensor / clamp_.Tensor / clamp.Tensor_out: Tensor bounds that broadcast with self.
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min = {}, const std::optional<Tensor>& max = {});
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min = {}, const std::optional<Tensor>& max = {});
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min = {},
                  const std::optional<Tensor>& max = {});

}  // namespace sy::ops
