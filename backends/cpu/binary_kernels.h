// The CPU kernels of the binary elementwise operators (add, sub, mul, div, maximum, minimum), the
// comparisons (eq, ne, lt, gt) and where, as plain C++ functions.
//
// Callers normally go through sy::ops::* (ops/binary_ops.h); these are for code that must reach a
// CPU kernel without dispatching (a backend fallback's last resort, a conformance test):
//
//   sy::Tensor out = sy::empty({2, 3});
//   sy::cpu::div_out_mode_cpu(x, y, "floor", out);
//
// Each signature is exactly the operator's C++ signature (the dispatcher requires every kernel and
// typed handle of an operator to agree): arguments in schema order, out= last, in-place forms take
// `Tensor& self` and return it. aten::add.Tensor/add.out and aten::mul.Tensor/mul.out are declared
// in kernels.h; their definitions are in binary_ops.cpp with the rest of their families.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

// ---- Arithmetic (binary_ops.cpp) ---------------------------------------------------------------

// aten::add.Scalar, add.Scalar_out, add_.Tensor, add_.Scalar
Tensor add_scalar_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor& add_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out);
Tensor& add_inplace_cpu(Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& add_scalar_inplace_cpu(Tensor& self, const Scalar& other, const Scalar& alpha);

// aten::sub.Tensor, sub.out, sub.Scalar, sub.Scalar_out, sub_.Tensor, sub_.Scalar
Tensor sub_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& sub_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
Tensor sub_scalar_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor& sub_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out);
Tensor& sub_inplace_cpu(Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& sub_scalar_inplace_cpu(Tensor& self, const Scalar& other, const Scalar& alpha);

// aten::mul.Scalar, mul.Scalar_out, mul_.Tensor, mul_.Scalar
Tensor mul_scalar_cpu(const Tensor& self, const Scalar& other);
Tensor& mul_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out);
Tensor& mul_inplace_cpu(Tensor& self, const Tensor& other);
Tensor& mul_scalar_inplace_cpu(Tensor& self, const Scalar& other);

// aten::maximum, maximum.out, minimum, minimum.out
Tensor maximum_cpu(const Tensor& self, const Tensor& other);
Tensor& maximum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out);
Tensor minimum_cpu(const Tensor& self, const Tensor& other);
Tensor& minimum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out);

// ---- Division (division_ops.cpp) ---------------------------------------------------------------

// aten::div.Tensor, div.out, div.Tensor_mode, div.out_mode
Tensor div_cpu(const Tensor& self, const Tensor& other);
Tensor& div_out_cpu(const Tensor& self, const Tensor& other, Tensor& out);
Tensor div_mode_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor& div_out_mode_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode,
                         Tensor& out);
// aten::div.Scalar, div.Scalar_out, div.Scalar_mode, div.Scalar_mode_out
Tensor div_scalar_cpu(const Tensor& self, const Scalar& other);
Tensor& div_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out);
Tensor div_scalar_mode_cpu(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);
Tensor& div_scalar_mode_out_cpu(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode,
                                Tensor& out);
// aten::div_.Tensor, div_.Tensor_mode, div_.Scalar, div_.Scalar_mode
Tensor& div_inplace_cpu(Tensor& self, const Tensor& other);
Tensor& div_mode_inplace_cpu(Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor& div_scalar_inplace_cpu(Tensor& self, const Scalar& other);
Tensor& div_scalar_mode_inplace_cpu(Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);

// ---- Comparisons (comparison_ops.cpp) ----------------------------------------------------------

// aten::<cmp>.Tensor, <cmp>.Tensor_out, <cmp>.Scalar, <cmp>.Scalar_out, <cmp>_.Tensor, <cmp>_.Scalar
#define SY_DECLARE_COMPARISON_KERNELS(name)                                                 \
  Tensor name##_tensor_cpu(const Tensor& self, const Tensor& other);                        \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out);      \
  Tensor name##_scalar_cpu(const Tensor& self, const Scalar& other);                        \
  Tensor& name##_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out);      \
  Tensor& name##_tensor_inplace_cpu(Tensor& self, const Tensor& other);                     \
  Tensor& name##_scalar_inplace_cpu(Tensor& self, const Scalar& other);
SY_DECLARE_COMPARISON_KERNELS(eq)
SY_DECLARE_COMPARISON_KERNELS(ne)
SY_DECLARE_COMPARISON_KERNELS(lt)
SY_DECLARE_COMPARISON_KERNELS(gt)
#undef SY_DECLARE_COMPARISON_KERNELS

// ---- Selection (where_op.cpp) ------------------------------------------------------------------

// aten::where.self, where.self_out, where.ScalarSelf, where.ScalarOther, where.Scalar
Tensor where_self_cpu(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor& where_self_out_cpu(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out);
Tensor where_scalar_self_cpu(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where_scalar_other_cpu(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where_scalar_cpu(const Tensor& condition, const Scalar& self, const Scalar& other);

}  // namespace sy::cpu
