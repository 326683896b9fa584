// Elementwise unary operators on the CPU: abs and neg (the result keeps the input's dtype) and the
// floating functions exp, log, sqrt, rsqrt, sin, cos, tanh, acos; each functional, out= and
// in-place. Also the definitions behind the unary driver (unary_kernels.h).
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
// Adding an operator: its three entries in backends/devices/cpu/unary_ops.yaml (schemas and kernel names), and here
// a functor and three one-line kernels in namespace native, whose declarations the generator wrote
// (switchyard/ops/unary/NativeFunctions.h) and whose registrations it makes.
#include <cmath>
#include <type_traits>

#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {

namespace {

using unary::applying;
using unary::checkedFloatingResult;
using unary::unaryInto;
using unary::unaryNew;

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

// ---- The two families ----------------------------------------------------------------------------

template <class Fn>
Tensor floatingOp(const char* op, const Tensor& self, Fn fn) {
  return unaryNew<kFloatingDtypes>(op, self, checkedFloatingResult(op, self), applying(fn));
}
template <class Fn>
Tensor& floatingOpOut(const char* op, const Tensor& self, Tensor& out, Fn fn) {
  return unaryInto<kFloatingDtypes>(op, self, checkedFloatingResult(op, self), out, "out", applying(fn));
}
template <class Fn>
Tensor& floatingOpInplace(const char* op, Tensor& self, Fn fn) {
  return unaryInto<kFloatingDtypes>(op, self, checkedFloatingResult(op, self), self, "self", applying(fn));
}

// abs and neg: the result has the input's dtype; `Allowed` says which dtypes the function has.
template <unsigned Allowed, class Fn>
Tensor sameDtypeOp(const char* op, const Tensor& self, Fn fn) {
  unary::checkInput(op, self);
  return unaryNew<Allowed>(op, self, self.scalar_type(), applying(fn));
}
template <unsigned Allowed, class Fn>
Tensor& sameDtypeOpInto(const char* op, const Tensor& self, Tensor& out, const char* out_name, Fn fn) {
  unary::checkInput(op, self);
  return unaryInto<Allowed>(op, self, self.scalar_type(), out, out_name, applying(fn));
}

// Negating a bool has no arithmetic meaning; PyTorch points at the operator that was likely meant.
void rejectBoolNegation(const char* op, const Tensor& self) {
  unary::checkInput(op, self);
  SY_CHECK(self.scalar_type() != ScalarType::Bool, op,
           ": Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.");
}

constexpr unsigned kNumericDtypes = kIntegralDtypes | kFloatingDtypes;

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/unary_ops.yaml) ---------------------------------------------

namespace native {

Tensor abs_cpu(const Tensor& self) { return sameDtypeOp<kAllDtypes>("aten::abs", self, Abs{}); }
Tensor& abs_out_cpu(const Tensor& self, Tensor& out) {
  return sameDtypeOpInto<kAllDtypes>("aten::abs.out", self, out, "out", Abs{});
}
Tensor& abs_inplace_cpu(Tensor& self) { return sameDtypeOpInto<kAllDtypes>("aten::abs_", self, self, "self", Abs{}); }

Tensor neg_cpu(const Tensor& self) {
  rejectBoolNegation("aten::neg", self);
  return sameDtypeOp<kNumericDtypes>("aten::neg", self, Neg{});
}
Tensor& neg_out_cpu(const Tensor& self, Tensor& out) {
  rejectBoolNegation("aten::neg.out", self);
  return sameDtypeOpInto<kNumericDtypes>("aten::neg.out", self, out, "out", Neg{});
}
Tensor& neg_inplace_cpu(Tensor& self) {
  rejectBoolNegation("aten::neg_", self);
  return sameDtypeOpInto<kNumericDtypes>("aten::neg_", self, self, "self", Neg{});
}

Tensor exp_cpu(const Tensor& self) { return floatingOp("aten::exp", self, Exp{}); }
Tensor& exp_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::exp.out", self, out, Exp{}); }
Tensor& exp_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::exp_", self, Exp{}); }

Tensor log_cpu(const Tensor& self) { return floatingOp("aten::log", self, Log{}); }
Tensor& log_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::log.out", self, out, Log{}); }
Tensor& log_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::log_", self, Log{}); }

Tensor sqrt_cpu(const Tensor& self) { return floatingOp("aten::sqrt", self, Sqrt{}); }
Tensor& sqrt_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::sqrt.out", self, out, Sqrt{}); }
Tensor& sqrt_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::sqrt_", self, Sqrt{}); }

Tensor rsqrt_cpu(const Tensor& self) { return floatingOp("aten::rsqrt", self, Rsqrt{}); }
Tensor& rsqrt_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::rsqrt.out", self, out, Rsqrt{}); }
Tensor& rsqrt_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::rsqrt_", self, Rsqrt{}); }

Tensor sin_cpu(const Tensor& self) { return floatingOp("aten::sin", self, Sin{}); }
Tensor& sin_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::sin.out", self, out, Sin{}); }
Tensor& sin_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::sin_", self, Sin{}); }

Tensor cos_cpu(const Tensor& self) { return floatingOp("aten::cos", self, Cos{}); }
Tensor& cos_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::cos.out", self, out, Cos{}); }
Tensor& cos_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::cos_", self, Cos{}); }

Tensor tanh_cpu(const Tensor& self) { return floatingOp("aten::tanh", self, Tanh{}); }
Tensor& tanh_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::tanh.out", self, out, Tanh{}); }
Tensor& tanh_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::tanh_", self, Tanh{}); }

Tensor acos_cpu(const Tensor& self) { return floatingOp("aten::acos", self, Acos{}); }
Tensor& acos_out_cpu(const Tensor& self, Tensor& out) { return floatingOpOut("aten::acos.out", self, out, Acos{}); }
Tensor& acos_inplace_cpu(Tensor& self) { return floatingOpInplace("aten::acos_", self, Acos{}); }

}  // namespace native
}  // namespace sy::cpu
