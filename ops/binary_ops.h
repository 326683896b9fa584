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
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// aten::add.Tensor / aten::add.out: self + alpha * other, broadcasting, with type promotion.
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

// aten::mul.Tensor / aten::mul.out: self * other, broadcasting, with type promotion.
Tensor mul(const Tensor& self, const Tensor& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);

// ---- add: self + alpha * other ----
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// ---- sub: self - alpha * other (Bool operands are an error) ----
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// ---- mul ----
Tensor mul(const Tensor& self, const Scalar& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& mul_(Tensor& self, const Scalar& other);

// ---- div: true division (integral inputs give Float), or rounding_mode "trunc" / "floor" ----
Tensor div(const Tensor& self, const Tensor& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor div(const Tensor& self, const Scalar& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);
Tensor& div_(Tensor& self, const Tensor& other);
Tensor& div_(Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor& div_(Tensor& self, const Scalar& other);
Tensor& div_(Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);

// ---- maximum, minimum (elementwise; NaN propagates) ----
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor& maximum_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor& minimum_out(Tensor& out, const Tensor& self, const Tensor& other);

// ---- Comparisons: Bool results; out= may have any dtype; in place keeps self's dtype ----
Tensor eq(const Tensor& self, const Tensor& other);
Tensor eq(const Tensor& self, const Scalar& other);
Tensor& eq_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& eq_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor& eq_(Tensor& self, const Tensor& other);
Tensor& eq_(Tensor& self, const Scalar& other);

Tensor ne(const Tensor& self, const Tensor& other);
Tensor ne(const Tensor& self, const Scalar& other);
Tensor& ne_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& ne_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor& ne_(Tensor& self, const Tensor& other);
Tensor& ne_(Tensor& self, const Scalar& other);

Tensor lt(const Tensor& self, const Tensor& other);
Tensor lt(const Tensor& self, const Scalar& other);
Tensor& lt_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& lt_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor& lt_(Tensor& self, const Tensor& other);
Tensor& lt_(Tensor& self, const Scalar& other);

Tensor gt(const Tensor& self, const Tensor& other);
Tensor gt(const Tensor& self, const Scalar& other);
Tensor& gt_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& gt_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor& gt_(Tensor& self, const Tensor& other);
Tensor& gt_(Tensor& self, const Scalar& other);

// ---- where: condition ? self : other (condition must be Bool) ----
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);

}  // namespace sy::ops
