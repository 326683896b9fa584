// The CPU kernels of the elementwise unary operators and of the activations, and the driver they
// share, which a new elementwise operator's kernel is written with:
//
//   Tensor& expm1_out_cpu(const Tensor& self, Tensor& out, const sy::KernelContext& ctx) {
//     return sy::cpu::floatingUnary<expm1_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::expm1(x); });
//   }
//
// One kernel per operator: its out variant's, which the generator also registers as the
// functional and in-place forms (See Note [Functional and in-place forms call the out kernel] in
// dispatcher/derived_kernels.h). Callers go through sy::ops::*; the declarations are generated
// (switchyard/ops/unary/NativeFunctions.h, from backends/devices/cpu/unary_ops.yaml) and the
// definitions are in unary_ops.cpp, rounding_ops.cpp, logical_unary_ops.cpp and activation_ops.cpp.
//
// The driver (unaryOp) is the whole life of a unary kernel apart from the per-element function:
// argument checks, result dtype, allocation, out= resizing, conversion, aliasing.
#pragma once

#include <optional>
#include <string_view>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/unary/NativeFunctions.h"

namespace sy::cpu {

// The kernels' declarations are generated from backends/devices/cpu/unary_ops.yaml, in sy::cpu::native (a kernel_name
// sy::cpu::abs_out_cpu binds sy::cpu::native::abs_out_cpu, as in ExecuTorch); sy::cpu::abs_out_cpu names them too.
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
  if (bit < 0 || bit >= kNumScalarTypes || (((Allowed & kKernelDtypes) >> bit) & 1u) == 0) {
    detail::throwUnsupportedDtype(op, argument, dtype, Allowed);
  }
}

// `self` is a defined CPU tensor of a dtype in `Dtypes`, the kernel's declared set (raises naming
// op and 'self'). The default is the widest set any unary kernel declares (REALHBBF16).
template <unsigned Dtypes = kRealHBBF16Dtypes>
SY_ALWAYS_INLINE inline void checkInput(const char* op, const Tensor& self) {
  checkOnCPU(op, "self", self);
  checkDtypeIn<Dtypes>(op, "self", self.scalar_type());
}

// checkInput<Dtypes>, then the floating result dtype of `self`.
template <unsigned Dtypes>
inline ScalarType checkedFloatingResult(const char* op, const Tensor& self) {
  checkInput<Dtypes>(op, self);
  return floatingResultType(self.scalar_type());
}


// Note [Dense calls of one dtype skip the loop geometry]
// Most calls on small tensors are the plainest kind: self and out contiguous, of the result's
// dtype, the same memory or none in common. For those the driver runs a pointer loop over numel
// elements directly; building a LoopGeometry (its inlined vectors made and freed, the operands'
// strides sorted and merged), converting and staging cost more than computing one element did
// (a one-element acos.out went from 599 to about 300 instructions, bench/README.md). Everything
// else takes the general path, which gives the same results: the dense loop is the general
// path's innermost row with nothing around it.
inline bool denseOfOneDtype(const Tensor& self, const Tensor& out, ScalarType result) {
  return self.scalar_type() == result && out.scalar_type() == result && self.is_contiguous() &&
         out.is_contiguous() && !partiallyOverlaps(out, self);
}

// Whether a loop body also has the dense form dense(T* out, const T* in, n) (applying's does).
template <class Body, class = void>
struct HasDenseLoop : std::false_type {};
template <class Body>
struct HasDenseLoop<Body, std::void_t<decltype(&std::decay_t<Body>::kHasDenseLoop)>> : std::true_type {};

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
  if constexpr (HasDenseLoop<Body>::value) {
    if (SY_LIKELY(denseOfOneDtype(self, out, result))) {
      dispatchDtype<Allowed>(result, op, "self", [&](auto tag) {
        using T = typename decltype(tag)::type;
        body.dense(out.data_ptr<T>(), static_cast<const T*>(self.data_ptr()), out.numel());
      });
      return out;
    }
  }
  const Tensor input = convertedTo(op, "self", self, result);
  computeIntoOutput(op, out, result, {&input}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &input});
    dispatchDtype<Allowed>(result, op, "self", [&](auto tag) { body(geometry, tag); });
  });
  return out;
}

// The functional form's result: one dispatched allocation (sy::ops::empty) of self's shape in
// `result`, so the operator costs exactly two dispatches.
inline Tensor allocateResult(const Tensor& self, ScalarType result) {
  return ops::empty(self.sizes(), TensorOptions(result).device(kCPU));
}

// A unary kernel in the form `ctx` names: the functional form allocates `out` (undefined until
// then) with `result` and self's shape, the in-place form writes `out`, which is `self`, and names
// it so in errors, the out= form checks and resizes the caller's `out`.
template <unsigned Allowed, class Body>
Tensor& unaryOp(const KernelContext& ctx, const Tensor& self, ScalarType result, Tensor& out, Body&& body) {
  if (ctx.form == OutputForm::Functional) {
    checkInput(ctx.op, self);
    checkDtypeIn<Allowed>(ctx.op, "self", result);
    out = allocateResult(self, result);
  }
  return unaryInto<Allowed>(ctx.op, self, result, out, ctx.form == OutputForm::InPlace ? "self" : "out",
                            std::forward<Body>(body));
}

// A loop body applying the stateless functor `fn` (fn(x) for an element x of type T) to every
// element; the functor is inlined into the loop.
template <class Fn>
struct Applying {
  static constexpr bool kHasDenseLoop = true;
  Fn fn;
  template <class Tag>
  void operator()(const LoopGeometry& geometry, Tag) const {
    using T = typename Tag::type;
    runElementwise<T, T>(geometry, [fn = fn](T x) { return static_cast<T>(fn(x)); });
  }
  // See Note [Dense calls of one dtype skip the loop geometry]. `in` may be `out`.
  template <class T>
  void dense(T* out, const T* in, int64_t n) const {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(fn(loadElement(in + i)));
  }
};
template <class Fn>
Applying<Fn> applying(Fn fn) {
  return Applying<Fn>{fn};
}

}  // namespace unary

namespace unary {
// The Half and BFloat16 results of a floating unary kernel, out of line: instantiating them beside
// the Float and Double ones costs the one-element Float call its inlining (acos.out's callgrind
// target, bench/README.md).
template <class Fn>
__attribute__((noinline)) Tensor& reducedFloatingUnary(const KernelContext& ctx, const Tensor& self, ScalarType result,
                                                       Tensor& out, Fn fn) {
  // dtype set: the result dtype, once checkedFloatingResult checked the input's.
  return unaryOp<kHalfDtype | kBFloat16Dtype>(ctx, self, result, out, applying(fn));
}
}  // namespace unary

// A floating unary kernel, fn(x) per element (exp, log, sqrt, ...), taking inputs of `Dtypes` (its
// generated `<kernel>_dtypes`): floating inputs keep their dtype, integral and Bool ones compute in
// Float (so in place they need a floating self); Half and BFloat16 compute in float and round once.
template <unsigned Dtypes, class Fn>
Tensor& floatingUnary(const KernelContext& ctx, const Tensor& self, Tensor& out, Fn fn) {
  const ScalarType result = unary::checkedFloatingResult<Dtypes>(ctx.op, self);
  if (SY_UNLIKELY(isReducedFloatingType(result))) return unary::reducedFloatingUnary(ctx, self, result, out, fn);
  // dtype set: the result dtype, once checkedFloatingResult checked the input's.
  return unary::unaryOp<kFloatingDtypes>(ctx, self, result, out, unary::applying(fn));
}

// A unary kernel whose result keeps self's dtype (abs, neg, relu), fn(x) per element; `Allowed`
// says which dtypes fn has.
template <unsigned Allowed, class Fn>
Tensor& sameDtypeUnary(const KernelContext& ctx, const Tensor& self, Tensor& out, Fn fn) {
  unary::checkInput(ctx.op, self);
  return unary::unaryOp<Allowed>(ctx, self, self.scalar_type(), out, unary::applying(fn));
}

}  // namespace sy::cpu
