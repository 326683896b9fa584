// Binary arithmetic elementwise operators on the CPU: add and sub (self ± alpha * other), mul,
// maximum and minimum, in every form PyTorch has (functional, out=, Scalar, in-place).
//
// All broadcast their inputs (PyTorch rules) and compute in PyTorch's result type (see
// ResultTypeBuilder): Int + Float is Float, an Int tensor + 3 stays Int, an Int tensor + 2.5 is
// Float, a Float tensor + a Double 0-dim stays Float. For Bool results add is logical or, mul
// logical and, maximum or and minimum and; sub refuses Bool operands with PyTorch's message.
// Integer arithmetic wraps around on overflow (computed in the unsigned type, so it is defined
// behaviour). maximum and minimum propagate NaN. An out= tensor of another dtype receives the
// result converted, provided canCast(result, out dtype) allows it; an in-place `self` must have
// the broadcast shape and a dtype the result can be cast to.
#include <cmath>
#include <type_traits>

#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/kernels.h"

namespace sy::cpu {
namespace {

template <class T>
T plus(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <class T>
T minus(T a, T b) {
  static_assert(!std::is_same_v<T, bool>, "Bool subtraction is rejected before the loop");
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

template <class T>
T times(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// NaN wins over any number, as in PyTorch (std::max would return either operand).
template <class T>
T largerOrNan(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return a < b ? b : a;
}

template <class T>
T smallerOrNan(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return b < a ? b : a;
}

// PyTorch's rules for add's and sub's alpha, checked against the result dtype.
void checkAlpha(const char* op, ScalarType result, const Scalar& alpha) {
  SY_CHECK(!alpha.isBoolean() || result == ScalarType::Bool, op,
           ": Boolean alpha only supported for Boolean results.");
  SY_CHECK(isFloatingType(result) || alpha.isIntegral(/*include_bool=*/true), op,
           ": For integral input tensors, argument alpha must not be a floating point number.");
}

// PyTorch refuses Bool subtraction and names the operator meant instead.
void checkSubtractable(const char* op, ScalarType self, ScalarType other) {
  SY_CHECK(self != ScalarType::Bool || other != ScalarType::Bool, op,
           ": Subtraction, the `-` operator, with two bool tensors is not supported. "
           "Use the `^` or `logical_xor()` operator instead.");
  SY_CHECK(self != ScalarType::Bool && other != ScalarType::Bool, op,
           ": Subtraction, the `-` operator, with a bool tensor is not supported. "
           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

enum class Arithmetic { Add, Sub, Mul, Maximum, Minimum };

// One arithmetic operator, any form: `operands` come from binaryOperands (a Scalar operand
// already wrapped), `out` is the fresh result, the caller's out= or the in-place self.
template <Arithmetic kOp>
Tensor& arithmeticInto(const char* op, const Tensor& self, const BinaryOperands& operands, const Scalar& alpha,
                       Tensor& out, OutputRole role) {
  const ScalarType result = operands.result;
  if constexpr (kOp == Arithmetic::Sub) checkSubtractable(op, self.scalar_type(), operands.other_dtype);
  if constexpr (kOp == Arithmetic::Add || kOp == Arithmetic::Sub) checkAlpha(op, result, alpha);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, result, role);
  constexpr unsigned kComputeDtypes = kOp == Arithmetic::Sub ? (kIntegralDtypes | kFloatingDtypes) : kAllDtypes;
  runBinaryLoop<kComputeDtypes>(op, inputs.self(), inputs.other(), out, result, result, [&](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kOp == Arithmetic::Add || kOp == Arithmetic::Sub) {
      auto combine = [](T x, T y) {
        if constexpr (kOp == Arithmetic::Sub) {
          return minus(x, y);
        } else {
          return plus(x, y);
        }
      };
      // alpha == 1 is nearly every call: skip the multiplication rather than trust the compiler to.
      const T scale = alpha.to<T>();
      if (scale == static_cast<T>(1)) {
        runElementwise<T, T, T>(geometry, combine);
      } else {
        runElementwise<T, T, T>(geometry, [combine, scale](T x, T y) { return combine(x, times(scale, y)); });
      }
    } else if constexpr (kOp == Arithmetic::Mul) {
      runElementwise<T, T, T>(geometry, [](T x, T y) { return times(x, y); });
    } else if constexpr (kOp == Arithmetic::Maximum) {
      runElementwise<T, T, T>(geometry, [](T x, T y) { return largerOrNan(x, y); });
    } else {
      runElementwise<T, T, T>(geometry, [](T x, T y) { return smallerOrNan(x, y); });
    }
  });
  return out;
}

// The functional form: one dispatched allocation, then the out= implementation called directly.
template <Arithmetic kOp>
Tensor arithmetic(const char* op, const Tensor& self, const BinaryOperands& operands, const Scalar& alpha = 1) {
  Tensor out = allocateBinaryResult(op, self, operands.other, operands.result);
  arithmeticInto<kOp>(op, self, operands, alpha, out, OutputRole::Out);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------------------

namespace native {

// ---- add ----

Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  constexpr const char* op = "aten::add.Tensor";
  return arithmetic<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha);
}
Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  constexpr const char* op = "aten::add.out";
  return arithmeticInto<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha, out, OutputRole::Out);
}
Tensor add_scalar_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  constexpr const char* op = "aten::add.Scalar";
  return arithmetic<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha);
}
Tensor& add_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  constexpr const char* op = "aten::add.Scalar_out";
  return arithmeticInto<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha, out, OutputRole::Out);
}
Tensor& add_inplace_cpu(Tensor& self, const Tensor& other, const Scalar& alpha) {
  constexpr const char* op = "aten::add_.Tensor";
  return arithmeticInto<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha, self, OutputRole::InPlace);
}
Tensor& add_scalar_inplace_cpu(Tensor& self, const Scalar& other, const Scalar& alpha) {
  constexpr const char* op = "aten::add_.Scalar";
  return arithmeticInto<Arithmetic::Add>(op, self, binaryOperands(op, self, other), alpha, self, OutputRole::InPlace);
}

// ---- sub ----

Tensor sub_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  constexpr const char* op = "aten::sub.Tensor";
  return arithmetic<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha);
}
Tensor& sub_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  constexpr const char* op = "aten::sub.out";
  return arithmeticInto<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha, out, OutputRole::Out);
}
Tensor sub_scalar_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  constexpr const char* op = "aten::sub.Scalar";
  return arithmetic<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha);
}
Tensor& sub_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  constexpr const char* op = "aten::sub.Scalar_out";
  return arithmeticInto<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha, out, OutputRole::Out);
}
Tensor& sub_inplace_cpu(Tensor& self, const Tensor& other, const Scalar& alpha) {
  constexpr const char* op = "aten::sub_.Tensor";
  return arithmeticInto<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha, self, OutputRole::InPlace);
}
Tensor& sub_scalar_inplace_cpu(Tensor& self, const Scalar& other, const Scalar& alpha) {
  constexpr const char* op = "aten::sub_.Scalar";
  return arithmeticInto<Arithmetic::Sub>(op, self, binaryOperands(op, self, other), alpha, self, OutputRole::InPlace);
}

// ---- mul ----

Tensor mul_cpu(const Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::mul.Tensor";
  return arithmetic<Arithmetic::Mul>(op, self, binaryOperands(op, self, other));
}
Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
  constexpr const char* op = "aten::mul.out";
  return arithmeticInto<Arithmetic::Mul>(op, self, binaryOperands(op, self, other), 1, out, OutputRole::Out);
}
Tensor mul_scalar_cpu(const Tensor& self, const Scalar& other) {
  constexpr const char* op = "aten::mul.Scalar";
  return arithmetic<Arithmetic::Mul>(op, self, binaryOperands(op, self, other));
}
Tensor& mul_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out) {
  constexpr const char* op = "aten::mul.Scalar_out";
  return arithmeticInto<Arithmetic::Mul>(op, self, binaryOperands(op, self, other), 1, out, OutputRole::Out);
}
Tensor& mul_inplace_cpu(Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::mul_.Tensor";
  return arithmeticInto<Arithmetic::Mul>(op, self, binaryOperands(op, self, other), 1, self, OutputRole::InPlace);
}
Tensor& mul_scalar_inplace_cpu(Tensor& self, const Scalar& other) {
  constexpr const char* op = "aten::mul_.Scalar";
  return arithmeticInto<Arithmetic::Mul>(op, self, binaryOperands(op, self, other), 1, self, OutputRole::InPlace);
}

// ---- maximum, minimum ----

Tensor maximum_cpu(const Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::maximum";
  return arithmetic<Arithmetic::Maximum>(op, self, binaryOperands(op, self, other));
}
Tensor& maximum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
  constexpr const char* op = "aten::maximum.out";
  return arithmeticInto<Arithmetic::Maximum>(op, self, binaryOperands(op, self, other), 1, out, OutputRole::Out);
}
Tensor minimum_cpu(const Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::minimum";
  return arithmetic<Arithmetic::Minimum>(op, self, binaryOperands(op, self, other));
}
Tensor& minimum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
  constexpr const char* op = "aten::minimum.out";
  return arithmeticInto<Arithmetic::Minimum>(op, self, binaryOperands(op, self, other), 1, out, OutputRole::Out);
}

}  // namespace native
}  // namespace sy::cpu
