// The unary predicates and negations on the CPU: isnan, isinf, logical_not and bitwise_not, each
// one kernel, its out variant's, which also serves the functional (and, for the negations, the
// in-place) forms (unary_kernels.h).
//
// Semantics, as PyTorch's:
// - isnan and isinf read self in its own dtype (an integral or Bool element is neither) and give
//   Bool; an out= tensor of another dtype receives 1/0.
// - logical_not is true where self is zero (NaN is nonzero, so logical_not(NaN) is false). Its
//   functional result is Bool; an out= tensor or in-place self keeps its dtype and receives 1/0.
// - bitwise_not is ~x on integral tensors (Byte, Char, Short, Int, Long) and !x on Bool ones, in
//   self's dtype; floating tensors are an error.
#include <cmath>
#include <type_traits>

#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {
namespace {

// out = fn(self) with Bool results computed from self's own elements (never converted): the
// functional form allocates a Bool result, the others write out= or self, converting 1/0 into its
// dtype (Bool converts to every dtype, so no cast check).
template <unsigned Allowed, class Fn>
Tensor& predicate(const KernelContext& ctx, const Tensor& self, Tensor& out, Fn fn) {
  const char* op = ctx.op;
  unary::checkInput(op, self);
  if (ctx.form == OutputForm::Functional) out = unary::allocateResult(self, ScalarType::Bool);
  const char* out_name = ctx.form == OutputForm::InPlace ? "self" : "out";
  checkOnCPU(op, out_name, out);
  // dtype set: any dtype an out= of a predicate may have.
  checkDtypeSupported(op, out_name, out.scalar_type(), kRealHBBF16Dtypes);
  checkNoInternalOverlap(op, out, out_name);
  const Tensor input = unaffectedByResizeOf(out, self);
  resizeOutput(out, input.sizes());
  if (out.numel() == 0) return out;
  computeIntoOutput(op, out, ScalarType::Bool, {&input}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &input});
    dispatchDtype<Allowed>(input.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      runElementwise<bool, T>(geometry, [fn](T x) { return static_cast<bool>(fn(x)); });
    });
  });
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/unary_ops.yaml) ---------------------------

namespace native {

Tensor& isnan_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return predicate<isnan_out_cpu_dtypes>(ctx, self, out, [](auto x) {
    if constexpr (is_floating_v<decltype(x)>) {
      return std::isnan(static_cast<compute_type_t<decltype(x)>>(x));
    } else {
      return false;
    }
  });
}
Tensor& isinf_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return predicate<isinf_out_cpu_dtypes>(ctx, self, out, [](auto x) {
    if constexpr (is_floating_v<decltype(x)>) {
      return std::isinf(static_cast<compute_type_t<decltype(x)>>(x));
    } else {
      return false;
    }
  });
}
Tensor& logical_not_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return predicate<logical_not_out_cpu_dtypes>(ctx, self, out, [](auto x) {
    return static_cast<compute_type_t<decltype(x)>>(x) == 0;
  });
}

Tensor& bitwise_not_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return sameDtypeUnary<bitwise_not_out_cpu_dtypes>(ctx, self, out, [](auto x) {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  });
}

}  // namespace native
}  // namespace sy::cpu
