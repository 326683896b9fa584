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
// take `Tensor& self`. They are declared by the generated switchyard/ops/unary/NativeFunctions.h
// (from backends/devices/cpu/unary_ops.yaml) and defined in unary_ops.cpp and activation_ops.cpp.
//
// The driver at the bottom (unaryInto / unaryNew) is the whole life of a unary kernel apart from
// the per-element function: argument checks, result dtype, out= resizing, conversion, aliasing.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/unary/NativeFunctions.h"

namespace sy::cpu {

// ---- Kernels ------------------------------------------------------------------------------------

// The kernels' declarations are generated from backends/devices/cpu/unary_ops.yaml, in sy::cpu::native (a kernel_name
// sy::cpu::abs_cpu binds sy::cpu::native::abs_cpu, as in ExecuTorch); sy::cpu::abs_cpu names them too.
using namespace native;

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
