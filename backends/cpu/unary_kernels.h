// The CPU kernels of the elementwise unary operators (abs, neg, exp, log, sqrt, rsqrt, sin, cos,
// tanh, acos) and of the activations (sigmoid, relu, gelu, hardtanh, clamp), plus the driver they share.
//
// Callers normally go through sy::ops::* (ops/unary_ops.h); these are for code that must reach
// the CPU kernel without dispatching:
//
//   sy::Tensor out = sy::empty({2, 3});
//   sy::cpu::exp_out_cpu(x, out);
//   sy::cpu::relu_inplace_cpu(x);
//
// Each signature is exactly the operator's C++ signature (the dispatcher requires every kernel and
// every typed handle of an operator to agree): schema order, so out= comes last; in-place kernels
// take `Tensor& self`. acos, sin and their out= forms are declared in kernels.h.
//
// The driver at the bottom (unaryInto / unaryNew) is the whole life of a unary kernel apart from
// the per-element function: argument checks, result dtype, out= resizing, conversion, aliasing.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/backends/cpu/elementwise.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {

// ---- Kernels (unary_ops.cpp) -------------------------------------------------------------------

Tensor abs_cpu(const Tensor& self);
Tensor& abs_out_cpu(const Tensor& self, Tensor& out);
Tensor& abs_inplace_cpu(Tensor& self);
Tensor neg_cpu(const Tensor& self);
Tensor& neg_out_cpu(const Tensor& self, Tensor& out);
Tensor& neg_inplace_cpu(Tensor& self);
Tensor exp_cpu(const Tensor& self);
Tensor& exp_out_cpu(const Tensor& self, Tensor& out);
Tensor& exp_inplace_cpu(Tensor& self);
Tensor log_cpu(const Tensor& self);
Tensor& log_out_cpu(const Tensor& self, Tensor& out);
Tensor& log_inplace_cpu(Tensor& self);
Tensor sqrt_cpu(const Tensor& self);
Tensor& sqrt_out_cpu(const Tensor& self, Tensor& out);
Tensor& sqrt_inplace_cpu(Tensor& self);
Tensor rsqrt_cpu(const Tensor& self);
Tensor& rsqrt_out_cpu(const Tensor& self, Tensor& out);
Tensor& rsqrt_inplace_cpu(Tensor& self);
Tensor& sin_inplace_cpu(Tensor& self);
Tensor cos_cpu(const Tensor& self);
Tensor& cos_out_cpu(const Tensor& self, Tensor& out);
Tensor& cos_inplace_cpu(Tensor& self);
Tensor tanh_cpu(const Tensor& self);
Tensor& tanh_out_cpu(const Tensor& self, Tensor& out);
Tensor& tanh_inplace_cpu(Tensor& self);
Tensor& acos_inplace_cpu(Tensor& self);

// ---- Kernels (activation_ops.cpp) --------------------------------------------------------------

Tensor sigmoid_cpu(const Tensor& self);
Tensor& sigmoid_out_cpu(const Tensor& self, Tensor& out);
Tensor& sigmoid_inplace_cpu(Tensor& self);
Tensor relu_cpu(const Tensor& self);
Tensor& relu_out_cpu(const Tensor& self, Tensor& out);
Tensor& relu_inplace_cpu(Tensor& self);
Tensor gelu_cpu(const Tensor& self, std::string_view approximate);
Tensor& gelu_out_cpu(const Tensor& self, std::string_view approximate, Tensor& out);
Tensor& gelu_inplace_cpu(Tensor& self, std::string_view approximate);
Tensor hardtanh_cpu(const Tensor& self, const Scalar& min_val, const Scalar& max_val);
Tensor& hardtanh_out_cpu(const Tensor& self, const Scalar& min_val, const Scalar& max_val, Tensor& out);
Tensor& hardtanh_inplace_cpu(Tensor& self, const Scalar& min_val, const Scalar& max_val);
Tensor clamp_cpu(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Tensor& clamp_out_cpu(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                      Tensor& out);
Tensor& clamp_inplace_cpu(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Tensor clamp_tensor_cpu(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max);
Tensor& clamp_tensor_out_cpu(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                             Tensor& out);
Tensor& clamp_tensor_inplace_cpu(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max);

// ---- The shared unary driver -------------------------------------------------------------------

namespace unary {

// PyTorch's "unary float op" rule: Float and Double stay, Bool, Int and Long compute in Float.
constexpr ScalarType floatingResultType(ScalarType input) { return isFloatingType(input) ? input : ScalarType::Float; }

// Raises the dtype visitors' "argument 'self' has dtype Int, which this kernel does not support
// (supported: Float, Double)" unless `dtype` is in `Allowed` (a DtypeSet).
template <unsigned Allowed>
SY_ALWAYS_INLINE inline void checkDtypeIn(const char* op, const char* argument, ScalarType dtype) {
  const int bit = static_cast<int>(dtype);
  if (bit < 0 || bit >= kNumScalarTypes || ((Allowed >> bit) & 1u) == 0) {
    detail::throwUnsupportedDtype(op, argument, dtype, Allowed);
  }
}

// `self` is a defined CPU tensor of one of the five element types (raises naming op and 'self').
SY_ALWAYS_INLINE inline void checkInput(const char* op, const Tensor& self) {
  checkOnCPU(op, "self", self);
  checkDtypeIn<kAllDtypes>(op, "self", self.scalar_type());
}

// checkInput, then the floating result dtype of `self`.
inline ScalarType checkedFloatingResult(const char* op, const Tensor& self) {
  checkInput(op, self);
  return floatingResultType(self.scalar_type());
}


// out = f(self), elementwise, computed in `result` (a dtype in Allowed): `out` (named `out_name`
// in errors; "self" for in-place kernels) must accept `result` (canCast), is resized to self's
// shape, and may alias self. body(geometry, TypeTag<T>) runs the loop over a LoopGeometry whose
// operand 0 is the result and operand 1 the input, both of C++ type T.
template <unsigned Allowed, class Body>
Tensor& unaryInto(const char* op, const Tensor& self, ScalarType result, Tensor& out, const char* out_name,
                  Body&& body) {
  checkInput(op, self);
  checkOnCPU(op, out_name, out);
  checkDtypeIn<Allowed>(op, "self", result);
  checkCanCastToOutput(op, result, out);
  checkNoInternalOverlap(op, out, out_name);
  resizeOutput(out, self.sizes());
  if (out.numel() == 0) return out;
  const Tensor input = convertedTo(op, "self", self, result);
  computeIntoOutput(op, out, result, {&input}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &input});
    dispatchDtype<Allowed>(result, op, "self", [&](auto tag) { body(geometry, tag); });
  });
  return out;
}

// The functional form: one dispatched allocation (sy::ops::empty) of self's shape in `result`,
// then unaryInto called directly, so the operator costs exactly two dispatches.
inline Tensor allocateResult(const Tensor& self, ScalarType result) {
  return ops::empty(self.sizes(), TensorOptions(result).device(kCPU));
}

template <unsigned Allowed, class Body>
Tensor unaryNew(const char* op, const Tensor& self, ScalarType result, Body&& body) {
  checkInput(op, self);
  checkDtypeIn<Allowed>(op, "self", result);
  Tensor out = allocateResult(self, result);
  unaryInto<Allowed>(op, self, result, out, "out", std::forward<Body>(body));
  return out;
}

// A loop body applying the stateless functor `fn` (fn(x) for an element x of type T) to every
// element; the functor is inlined into the loop.
template <class Fn>
auto applying(Fn fn) {
  return [fn](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    runElementwise<T, T>(geometry, [fn](T x) { return static_cast<T>(fn(x)); });
  };
}

}  // namespace unary
}  // namespace sy::cpu
