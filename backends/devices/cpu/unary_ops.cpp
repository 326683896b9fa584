// Elementwise unary operators on the CPU: those whose result keeps the input's dtype and the
// floating functions. Each is one kernel, its out variant's, which also serves the functional and
// in-place forms (unary_kernels.h).
//
// Semantics, as PyTorch:
// - Floating functions: Float and Double inputs keep their dtype; Bool, Int and Long inputs are
//   computed in Float. An in-place call on an integral tensor is a cast error ("result type Float
//   can't be cast to the desired output type Long"). Values follow the C++ <cmath> functions:
//   NaN propagates, log(0) = -inf, log(-1) = sqrt(-1) = nan, rsqrt(0) = inf.
// - abs and neg keep integral dtypes and wrap around like two's complement (abs(INT_MIN) and
//   neg(INT_MIN) are INT_MIN). neg of a Bool tensor is PyTorch's error; abs of Bool is the
//   identity (PyTorch's CUDA behaviour; its CPU kernel rejects Bool, for no semantic reason).
// - An out= tensor of another dtype receives the result converted, if canCast(result, out) allows;
//   an out= of the wrong shape is resized; out may be the input itself.
//
// Adding an operator: its `.out` entry in backends/devices/cpu/unary_ops.yaml (with `functional:`
// and `inplace:`), and here its kernel in namespace native, whose declaration the generator wrote
// (switchyard/ops/unary/NativeFunctions.h) and whose registrations it makes.
#include <cmath>
#include <type_traits>

#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {

namespace {

// ---- Element functions ---------------------------------------------------------------------------

// Integral arithmetic is done in the unsigned type, where wrap-around is defined behaviour.
template <class T>
T wrappingNegate(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(x));
}

struct Abs {
  template <class T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else if constexpr (std::is_integral_v<T>) {
      return x < 0 ? wrappingNegate(x) : x;
    } else {
      return std::abs(x);
    }
  }
};
struct Neg {
  template <class T>
  T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return wrappingNegate(x);
    } else {
      return -x;
    }
  }
};
struct Exp {
  template <class T>
  T operator()(T x) const { return std::exp(x); }
};
struct Log {
  template <class T>
  T operator()(T x) const { return std::log(x); }
};
struct Sqrt {
  template <class T>
  T operator()(T x) const { return std::sqrt(x); }
};
struct Rsqrt {
  template <class T>
  T operator()(T x) const { return T{1} / std::sqrt(x); }
};
struct Sin {
  template <class T>
  T operator()(T x) const { return std::sin(x); }
};
struct Cos {
  template <class T>
  T operator()(T x) const { return std::cos(x); }
};
struct Tanh {
  template <class T>
  T operator()(T x) const { return std::tanh(x); }
};
struct Acos {
  template <class T>
  T operator()(T x) const { return std::acos(x); }
};

// Negating a bool has no arithmetic meaning; PyTorch points at the operator that was likely meant.
void rejectBoolNegation(const char* op, const Tensor& self) {
  unary::checkInput(op, self);
  SY_CHECK(self.scalar_type() != ScalarType::Bool, op,
           ": Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.");
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/unary_ops.yaml) ---------------------------

namespace native {

Tensor& abs_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return sameDtypeUnary<abs_out_cpu_dtypes>(ctx, self, out, Abs{});
}
Tensor& neg_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  rejectBoolNegation(ctx.op, self);
  return sameDtypeUnary<neg_out_cpu_dtypes>(ctx, self, out, Neg{});
}
Tensor& exp_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<exp_out_cpu_dtypes>(ctx, self, out, Exp{});
}
Tensor& log_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<log_out_cpu_dtypes>(ctx, self, out, Log{});
}
Tensor& sqrt_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<sqrt_out_cpu_dtypes>(ctx, self, out, Sqrt{});
}
Tensor& rsqrt_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<rsqrt_out_cpu_dtypes>(ctx, self, out, Rsqrt{});
}
Tensor& sin_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<sin_out_cpu_dtypes>(ctx, self, out, Sin{});
}
Tensor& cos_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<cos_out_cpu_dtypes>(ctx, self, out, Cos{});
}
Tensor& tanh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<tanh_out_cpu_dtypes>(ctx, self, out, Tanh{});
}
Tensor& acos_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<acos_out_cpu_dtypes>(ctx, self, out, Acos{});
}

// The other floating functions, each the <cmath> function of its name (reciprocal is 1 / x).
Tensor& asin_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<asin_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::asin(x); });
}
Tensor& asinh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<asinh_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::asinh(x); });
}
Tensor& atan_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<atan_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::atan(x); });
}
Tensor& atanh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<atanh_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::atanh(x); });
}
Tensor& acosh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<acosh_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::acosh(x); });
}
Tensor& cosh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<cosh_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::cosh(x); });
}
Tensor& sinh_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<sinh_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::sinh(x); });
}
Tensor& tan_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<tan_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::tan(x); });
}
Tensor& erf_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<erf_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::erf(x); });
}
Tensor& expm1_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<expm1_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::expm1(x); });
}
Tensor& log10_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<log10_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::log10(x); });
}
Tensor& log1p_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<log1p_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::log1p(x); });
}
Tensor& log2_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<log2_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::log2(x); });
}
Tensor& reciprocal_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return floatingUnary<reciprocal_out_cpu_dtypes>(ctx, self, out, [](auto x) { return decltype(x){1} / x; });
}

}  // namespace native
}  // namespace sy::cpu
