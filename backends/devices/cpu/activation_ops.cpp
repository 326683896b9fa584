// Activation operators on the CPU: sigmoid, relu, gelu, hardtanh, leaky_relu, elu and clamp
// (Scalar and Tensor bounds), each one kernel serving its functional, out= and in-place forms (unary_kernels.h).
//
// Semantics, as PyTorch unless noted. Each kernel takes the dtypes its YAML entry declares (relu,
// hardtanh: the integral and floating ones; clamp: those and Bool); Half and BFloat16 compute in
// float and round once.
// - sigmoid: 1 / (1 + exp(-x)); integral and bool inputs compute in Float. Saturates to 0 and 1
//   without overflow trouble (exp(-x) = inf gives exactly 0).
// - relu: max(x, 0) in the input's dtype (Int and Long stay integral); NaN stays NaN; Bool inputs
//   are PyTorch's error "Boolean inputs not supported for relu".
// - gelu: the floating dtypes only. approximate='none' is x * Phi(x) = x/2 * erfc(-x / sqrt 2) (erfc
//   instead of 1 + erf keeps the digits for negative x); approximate='tanh' is PyTorch's
//   x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), computed as the equal x * sigmoid(2 * inner)
//   for the same reason. gelu(+inf) = +inf and gelu(-inf) = -0, the mathematical limits (PyTorch's
//   CPU kernel gives nan for both infinities). Any other `approximate` is an error.
// - clamp: at least one bound; the result type promotes self with the bounds (bounds are like
//   Python numbers / 0-dim tensors: clamp(int tensor, 2.5) is Float, clamp(int tensor, 2) stays
//   Int); min > max gives max everywhere; NaN in self or in a bound gives NaN. Tensor bounds
//   broadcast with self (the result takes the broadcast shape; in-place needs it to be self's).
//   An integral bound that does not fit an integral result dtype is an error. Bool results are
//   supported (False < True); PyTorch's CPU kernel has no Bool clamp.
// - hardtanh: clamp to [min_val, max_val] (defaults -1 and 1) that never promotes: the result has
//   self's dtype, and an integral self first truncates each bound to an integer (hardtanh(int x,
//   -1.5, 2.5) clamps to [-1, 2]). Bool inputs, and a Byte self with a negative (truncated) bound,
//   are errors, as in PyTorch.
// - leaky_relu: x > 0 ? x : negative_slope * x; elu: x > 0 ? scale * x : alpha * scale *
//   expm1(input_scale * x). The floating dtypes only (PyTorch's CPU kernels have no integral form);
//   the Scalars are taken in self's dtype. NaN stays NaN.
#include <cmath>
#include <limits>
#include <type_traits>

#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

using unary::applying;
using unary::unaryOp;

// ---- sigmoid -----------------------------------------------------------------------------------

struct Sigmoid {
  template <class T>
  T operator()(T x) const { return T{1} / (T{1} + std::exp(-x)); }
};

// ---- relu --------------------------------------------------------------------------------------

struct Relu {
  template <class T>
  T operator()(T x) const { return x < T{0} ? T{0} : x; }  // NaN < 0 is false: NaN passes through
};

ScalarType reluResult(const char* op, const Tensor& self) {
  unary::checkInput(op, self);
  SY_CHECK(self.scalar_type() != ScalarType::Bool, op, ": Boolean inputs not supported for relu");
  return self.scalar_type();
}

// ---- gelu --------------------------------------------------------------------------------------

// Computed in compute_type_t<T> (float for Half and BFloat16, whose constants would otherwise be
// rounded to the reduced type) and rounded once.
struct GeluExact {
  template <class T>
  T operator()(T element) const {
    using Acc = compute_type_t<T>;
    const Acc x = static_cast<Acc>(element);
    if (x == -std::numeric_limits<Acc>::infinity()) return T(Acc{-0.0});  // -inf * erfc(inf) would be nan
    return T(Acc{0.5} * x * std::erfc(x * Acc{-0.70710678118654752440}));  // -1/sqrt(2)
  }
};
struct GeluTanh {
  template <class T>
  T operator()(T element) const {
    using Acc = compute_type_t<T>;
    const Acc x = static_cast<Acc>(element);
    if (x == -std::numeric_limits<Acc>::infinity()) return T(Acc{-0.0});
    const Acc inner = Acc{0.79788456080286535588} * (x + Acc{0.044715} * x * x * x);  // sqrt(2/pi) * (...)
    // 1 + tanh(u) == 2 / (1 + exp(-2u)), without the cancellation when tanh(u) is near -1.
    return T(x / (Acc{1} + std::exp(Acc{-2} * inner)));
  }
};

enum class GeluApproximation { kNone, kTanh };

GeluApproximation parseApproximation(const char* op, std::string_view approximate) {
  if (approximate == "none") return GeluApproximation::kNone;
  if (approximate == "tanh") return GeluApproximation::kTanh;
  SY_ERROR(op, ": approximate argument must be either none or tanh, but got '", approximate, "'");
}

// Runs `call(functor)` with the element functor `approximate` selects, so each loop is specialised.
template <class Call>
decltype(auto) withGelu(const char* op, std::string_view approximate, Call&& call) {
  if (parseApproximation(op, approximate) == GeluApproximation::kTanh) return call(GeluTanh{});
  return call(GeluExact{});
}

ScalarType geluResult(const char* op, const Tensor& self) {
  unary::checkInput(op, self);
  return self.scalar_type();  // non-floating inputs fail unaryInto's Float/Double check
}

// ---- clamp: element functions --------------------------------------------------------------------

// A NaN bound makes the result NaN (PyTorch's clamp and maximum/minimum); a NaN x passes through
// both comparisons unchanged.
template <class T>
bool isNan(T v) {
  if constexpr (is_floating_v<T>) {
    return std::isnan(static_cast<compute_type_t<T>>(v));
  } else {
    return false;
  }
}
// Written as selects rather than early returns so the loops stay vectorisable.
template <class T>
T clampBelow(T x, T lo) {
  return (x < lo || isNan(lo)) ? lo : x;
}
template <class T>
T clampAbove(T x, T hi) {
  return (hi < x || isNan(hi)) ? hi : x;
}
template <class T>
T clampBoth(T x, T lo, T hi) {
  return clampAbove(clampBelow(x, lo), hi);  // a NaN lo survives: NaN compares false with hi
}

void checkSomeBound(bool has_min, bool has_max) {
  SY_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// ---- clamp: result type ------------------------------------------------------------------------

// PyTorch's result-type state: dimensioned tensors, 0-dim tensors and Python-number-like scalars
// each promote among themselves; a lower group only matters when its category (bool < integral <
// floating) is higher. A floating scalar counts as Float, the default dtype.
struct ResultTypeState {
  ScalarType dimensioned = ScalarType::Undefined;
  ScalarType zero_dim = ScalarType::Undefined;
  ScalarType scalars = ScalarType::Undefined;

  static ScalarType promote(ScalarType a, ScalarType b) {
    if (a == ScalarType::Undefined) return b;
    if (b == ScalarType::Undefined) return a;
    return promoteTypes(a, b);
  }
  static ScalarType combine(ScalarType higher, ScalarType lower) {
    if (isFloatingType(higher)) return higher;
    if (higher == ScalarType::Bool || isFloatingType(lower)) return promote(higher, lower);
    return higher != ScalarType::Undefined ? higher : lower;
  }

  void add(const Tensor& t) {
    ScalarType& group = t.dim() == 0 ? zero_dim : dimensioned;
    group = promote(group, t.scalar_type());
  }
  void add(const Scalar& s) { scalars = promote(scalars, s.isFloatingPoint() ? ScalarType::Float : s.type()); }
  ScalarType result() const { return combine(dimensioned, combine(zero_dim, scalars)); }
};

// A bound must be representable in the result dtype, as PyTorch checks: clamp(int32, min=2**40) and
// clamp(float, min=1e300) cannot produce their answers. Infinite bounds convert to Float.
void checkBoundFits(const char* op, const char* name, const std::optional<Scalar>& bound, ScalarType result) {
  if (!bound) return;
  const bool fits = result == ScalarType::Int     ? !bound->isIntegral(/*include_bool=*/false) || bound->fits<int32_t>()
                    : result == ScalarType::Float ? bound->fits<float>()
                                                  : true;
  SY_CHECK_VALUE(fits, op, ": value ", *bound, " of '", name, "' cannot be converted to the result type ", result,
                 " without overflow");
}

// ---- clamp with Scalar bounds --------------------------------------------------------------------

ScalarType clampScalarResult(const char* op, const Tensor& self, const std::optional<Scalar>& min,
                             const std::optional<Scalar>& max) {
  checkSomeBound(min.has_value(), max.has_value());
  unary::checkInput(op, self);
  ResultTypeState state;
  state.add(self);
  if (min) state.add(*min);
  if (max) state.add(*max);
  const ScalarType result = state.result();
  checkBoundFits(op, "min", min, result);
  checkBoundFits(op, "max", max, result);
  return result;
}

auto clampScalarBody(const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return [&min, &max](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    if (min && max) {
      const T lo = min->to<T>(), hi = max->to<T>();
      runElementwise<T, T>(geometry, [lo, hi](T x) { return clampBoth(x, lo, hi); });
    } else if (min) {
      const T lo = min->to<T>();
      runElementwise<T, T>(geometry, [lo](T x) { return clampBelow(x, lo); });
    } else {
      const T hi = max->to<T>();
      runElementwise<T, T>(geometry, [hi](T x) { return clampAbove(x, hi); });
    }
  };
}

// ---- hardtanh -----------------------------------------------------------------------------------

// The bounds clampScalarBody applies, already in the form self's dtype takes.
struct HardtanhBounds {
  ScalarType result = ScalarType::Undefined;
  std::optional<Scalar> min, max;
};

HardtanhBounds hardtanhBounds(const char* op, const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  unary::checkInput(op, self);
  SY_CHECK(self.scalar_type() != ScalarType::Bool, op, ": Bool inputs not supported for hardtanh");
  HardtanhBounds b{self.scalar_type(), min_val, max_val};
  for (const auto& [name, bound] : {std::pair{"min_val", &b.min}, std::pair{"max_val", &b.max}}) {
    if (isIntegralType(b.result, /*include_bool=*/false)) {
      SY_CHECK_VALUE((*bound)->fits<int64_t>(), op, ": '", name, "' ", **bound, " has no integer value for the ",
                     b.result, " self");
      *bound = Scalar((*bound)->toLong());
    }
    checkBoundFits(op, name, *bound, b.result);
  }
  SY_CHECK(b.result != ScalarType::Byte || (b.min->toLong() >= 0 && b.max->toLong() >= 0), op,
           ": cannot do hardtanh on an unsigned type with negative limits");
  return b;
}

// ---- clamp with Tensor bounds --------------------------------------------------------------------

// An absent bound: None, or (from C++ callers) an undefined tensor, as PyTorch's optional refs treat it.
bool present(const std::optional<Tensor>& bound) { return bound.has_value() && bound->defined(); }

// What the bounds decide before anything is written: the result dtype and the broadcast shape.
struct ClampTensorPlan {
  bool has_min = false;
  bool has_max = false;
  ScalarType result = ScalarType::Undefined;
  SizesVector shape;
};

ClampTensorPlan planClampTensor(const char* op, const Tensor& self, const std::optional<Tensor>& min,
                                const std::optional<Tensor>& max) {
  ClampTensorPlan plan;
  plan.has_min = present(min);
  plan.has_max = present(max);
  checkSomeBound(plan.has_min, plan.has_max);
  unary::checkInput(op, self);
  ResultTypeState state;
  state.add(self);
  plan.shape.assign(self.sizes().begin(), self.sizes().end());
  for (const auto& [name, bound] : {std::pair{"min", &min}, std::pair{"max", &max}}) {
    if (!present(*bound)) continue;
    checkOnCPU(op, name, **bound);
    unary::checkDtypeIn<clamp_tensor_out_cpu_dtypes>(op, name, (*bound)->scalar_type());
    state.add(**bound);
    plan.shape = broadcastShapes(op, plan.shape, (*bound)->sizes());
  }
  plan.result = state.result();
  return plan;
}

// clamp.Tensor in the form `ctx` names: the functional form allocates `out`; in place, the
// broadcast shape must be self's own: self cannot grow to hold the result.
Tensor& clampTensorInto(const KernelContext& ctx, const ClampTensorPlan& plan, const Tensor& self,
                        const std::optional<Tensor>& min, const std::optional<Tensor>& max, Tensor& out) {
  const char* op = ctx.op;
  const bool in_place = ctx.form == OutputForm::InPlace;
  const char* out_name = in_place ? "self" : "out";
  if (ctx.form == OutputForm::Functional) out = ops::empty(plan.shape, TensorOptions(plan.result).device(kCPU));
  checkOnCPU(op, out_name, out);
  checkCanCastToOutput(op, plan.result, out);
  SY_CHECK(!in_place || sameSizes(plan.shape, self.sizes()), op, ": output with shape ", formatSizes(self.sizes()),
           " doesn't match the broadcast shape ", formatSizes(plan.shape));
  checkNoInternalOverlap(op, out, out_name);
  resizeOutput(out, plan.shape);
  if (out.numel() == 0) return out;

  const Tensor x = convertedTo(op, "self", self, plan.result);
  const Tensor lo = plan.has_min ? convertedTo(op, "min", *min, plan.result) : Tensor();
  const Tensor hi = plan.has_max ? convertedTo(op, "max", *max, plan.result) : Tensor();
  // computeIntoOutput checks `out` against every input for aliasing, so name each defined one
  // (an absent bound repeats the present one).
  const Tensor& first_bound = plan.has_min ? lo : hi;
  const Tensor& second_bound = plan.has_max ? hi : lo;
  computeIntoOutput(op, out, plan.result, {&x, &first_bound, &second_bound}, [&](const Tensor& dst) {
    dispatchDtype<clamp_tensor_out_cpu_dtypes>(plan.result, op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      // One loop per combination of bounds, so no element pays for an absent bound.
      if (plan.has_min && plan.has_max) {
        runElementwise<T, T, T, T>(makeLoopGeometry({&dst, &x, &lo, &hi}),
                                   [](T v, T l, T h) { return clampBoth(v, l, h); });
      } else if (plan.has_min) {
        runElementwise<T, T, T>(makeLoopGeometry({&dst, &x, &lo}), [](T v, T l) { return clampBelow(v, l); });
      } else {
        runElementwise<T, T, T>(makeLoopGeometry({&dst, &x, &hi}), [](T v, T h) { return clampAbove(v, h); });
      }
    });
  });
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/unary_ops.yaml) ---------------------------

namespace native {

Tensor& sigmoid_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<sigmoid_out_cpu_dtypes>(ctx, self, out, Sigmoid{});
}

Tensor& relu_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOp<relu_out_cpu_dtypes>(ctx, self, reluResult(ctx.op, self), out, applying(Relu{}));
}

Tensor& gelu_out_cpu(const Tensor& self, std::string_view approximate, Tensor& out, const KernelContext& ctx) {
  return withGelu(ctx.op, approximate, [&](auto fn) -> Tensor& {
    return unaryOp<gelu_out_cpu_dtypes>(ctx, self, geluResult(ctx.op, self), out, applying(fn));
  });
}

Tensor& hardtanh_out_cpu(const Tensor& self, const Scalar& min_val, const Scalar& max_val, Tensor& out,
                         const KernelContext& ctx) {
  const HardtanhBounds b = hardtanhBounds(ctx.op, self, min_val, max_val);
  return unaryOp<hardtanh_out_cpu_dtypes>(ctx, self, b.result, out, clampScalarBody(b.min, b.max));
}

Tensor& clamp_out_cpu(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                      Tensor& out, const KernelContext& ctx) {
  return unaryOp<clamp_out_cpu_dtypes>(ctx, self, clampScalarResult(ctx.op, self, min, max), out, clampScalarBody(min, max));
}

Tensor& clamp_tensor_out_cpu(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                             Tensor& out, const KernelContext& ctx) {
  return clampTensorInto(ctx, planClampTensor(ctx.op, self, min, max), self, min, max, out);
}

Tensor& leaky_relu_out_cpu(const Tensor& self, const Scalar& negative_slope, Tensor& out, const KernelContext& ctx) {
  unary::checkInput(ctx.op, self);
  const double slope = negative_slope.toDouble();
  return sameDtypeUnary<leaky_relu_out_cpu_dtypes>(ctx, self, out, [slope](auto x) {
    using T = decltype(x);
    using Acc = compute_type_t<T>;
    const Acc v = static_cast<Acc>(x);
    return static_cast<T>(v > Acc{0} ? v : static_cast<Acc>(slope) * v);
  });
}

Tensor& elu_out_cpu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale, Tensor& out,
                    const KernelContext& ctx) {
  unary::checkInput(ctx.op, self);
  const double negative_factor = alpha.toDouble() * scale.toDouble();
  const double positive_factor = scale.toDouble(), input_factor = input_scale.toDouble();
  return sameDtypeUnary<elu_out_cpu_dtypes>(ctx, self, out, [=](auto element) {
    using T = decltype(element);
    using Acc = compute_type_t<T>;
    const Acc x = static_cast<Acc>(element);
    return T(x > Acc{0} ? x * static_cast<Acc>(positive_factor)
                        : std::expm1(x * static_cast<Acc>(input_factor)) * static_cast<Acc>(negative_factor));
  });
}

}  // namespace native
}  // namespace sy::cpu
