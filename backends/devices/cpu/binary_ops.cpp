// Binary arithmetic elementwise operators on the CPU: add and sub (self ± alpha * other), rsub
// (other - alpha * self, with a Scalar other), mul,
// maximum and minimum, with a Tensor or a Scalar `other`: one kernel per overload, the out
// variant's, which also serves the functional and in-place forms PyTorch has.
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
    // Wraps as PyTorch's integer product does. Unsigned, and at least as wide as unsigned int: a
    // uint16_t product would be promoted to (signed) int and could overflow (65236 * 65236).
    using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// NaN wins over any number, as in PyTorch (std::max would return either operand).
template <class T>
T largerOrNan(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return a < b ? b : a;
}

template <class T>
T smallerOrNan(T a, T b) {
  if constexpr (is_floating_v<T>) {
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

enum class Arithmetic { Add, Sub, ReverseSub, Mul, Maximum, Minimum };

// Calls run(fn) with fn(x, y) the element function of kOp in the C++ type T (alpha applied), so
// that the general and the dense loops compute the same thing.
template <Arithmetic kOp, class T, class Run>
void withArithmeticFunction(const Scalar& alpha, Run&& run) {
  if constexpr (kOp == Arithmetic::ReverseSub) {
    // other - alpha * self.
    const T scale = alpha.to<T>();
    run([scale](T x, T y) { return minus(y, times(scale, x)); });
  } else if constexpr (kOp == Arithmetic::Add || kOp == Arithmetic::Sub) {
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
      run(combine);
    } else {
      run([combine, scale](T x, T y) { return combine(x, times(scale, y)); });
    }
  } else if constexpr (kOp == Arithmetic::Mul) {
    run([](T x, T y) { return times(x, y); });
  } else if constexpr (kOp == Arithmetic::Maximum) {
    run([](T x, T y) { return largerOrNan(x, y); });
  } else {
    run([](T x, T y) { return smallerOrNan(x, y); });
  }
}

// One arithmetic operator, in the form `ctx` names, on `self` and `other` (a Scalar operand already
// wrapped; `other_dtype` the dtype it had before) computed in `result`: `out` is allocated here
// (functional), the caller's out= or self (in place).
template <Arithmetic kOp, unsigned kComputeDtypes>
Tensor& arithmeticInto(const KernelContext& ctx, const Tensor& self, const Tensor& other, ScalarType other_dtype,
                       ScalarType result, const Scalar& alpha, Tensor& out) {
  const char* op = ctx.op;
  const OutputRole role = binaryOutputFor(ctx, self, other, result, out);
  constexpr bool kSubtracts = kOp == Arithmetic::Sub || kOp == Arithmetic::ReverseSub;
  if constexpr (kSubtracts) checkSubtractable(op, self.scalar_type(), other_dtype);
  if constexpr (kOp == Arithmetic::Add || kSubtracts) checkAlpha(op, result, alpha);
  // See Note [Dense binary calls of one dtype skip the loop geometry].
  const DenseBinaryLayout layout = denseBinaryLayout(self, other, out, result);
  if (SY_LIKELY(layout != DenseBinaryLayout::None)) {
    const int64_t n = out.numel();
    if (n == 0) return out;
    dispatchDtype<kComputeDtypes>(result, op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      withArithmeticFunction<kOp, T>(alpha, [&](auto fn) {
        // denseBinaryLayout checked that all three are defined and of dtype T: their element
        // pointers are read without data_ptr<T>'s checks.
        runDenseBinary<T>(layout, static_cast<T*>(out.unsafeGetTensorImpl()->data()),
                          static_cast<const T*>(self.unsafeGetTensorImpl()->data()),
                          static_cast<const T*>(other.unsafeGetTensorImpl()->data()), n, fn);
      });
    });
    return out;
  }
  const BinaryInputs inputs = prepareBinaryOutput(op, self, other, out, result, role);
  runBinaryLoop<kComputeDtypes>(op, inputs.self(), inputs.other(), out, result, result,
                                [&](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    withArithmeticFunction<kOp, T>(alpha, [&](auto fn) { runElementwise<T, T, T>(geometry, fn); });
  });
  return out;
}

// An arithmetic kernel with a Scalar `other`, wrapped in a 0-dim tensor of the result's dtype.
template <Arithmetic kOp, unsigned kDtypes>
Tensor& arithmetic(const KernelContext& ctx, const Tensor& self, const Scalar& other, const Scalar& alpha,
                   Tensor& out) {
  const BinaryOperands operands = binaryOperands(ctx.op, self, other);
  return arithmeticInto<kOp, kDtypes>(ctx, self, operands.other, operands.other_dtype, operands.result, alpha, out);
}

// An arithmetic kernel with a Tensor `other`. Two CPU tensors of one dtype the kernels know
// compute in that dtype (binaryResultType's answer for them) and need no further check here.
template <Arithmetic kOp, unsigned kDtypes>
Tensor& arithmetic(const KernelContext& ctx, const Tensor& self, const Tensor& other, const Scalar& alpha,
                   Tensor& out) {
  if (SY_LIKELY(self.defined() && other.defined() && self.is_cpu() && other.is_cpu())) {
    const ScalarType dtype = self.scalar_type();
    const int bit = static_cast<int>(dtype);
    if (SY_LIKELY(other.scalar_type() == dtype && bit >= 0 && bit < kNumScalarTypes && ((kDtypes >> bit) & 1u) != 0)) {
      return arithmeticInto<kOp, kDtypes>(ctx, self, other, dtype, dtype, alpha, out);
    }
  }
  const BinaryOperands operands = binaryOperands(ctx.op, self, other);
  return arithmeticInto<kOp, kDtypes>(ctx, self, operands.other, operands.other_dtype, operands.result, alpha, out);
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out,
                    const KernelContext& ctx) {
  return arithmetic<Arithmetic::Add, add_out_cpu_dtypes>(ctx, self, other, alpha, out);
}
Tensor& add_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out,
                           const KernelContext& ctx) {
  return arithmetic<Arithmetic::Add, add_scalar_out_cpu_dtypes>(ctx, self, other, alpha, out);
}

Tensor& sub_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out,
                    const KernelContext& ctx) {
  return arithmetic<Arithmetic::Sub, sub_out_cpu_dtypes>(ctx, self, other, alpha, out);
}
Tensor& sub_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out,
                           const KernelContext& ctx) {
  return arithmetic<Arithmetic::Sub, sub_scalar_out_cpu_dtypes>(ctx, self, other, alpha, out);
}

Tensor& rsub_scalar_out_cpu(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out,
                            const KernelContext& ctx) {
  return arithmetic<Arithmetic::ReverseSub, rsub_scalar_out_cpu_dtypes>(ctx, self, other, alpha, out);
}

Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return arithmetic<Arithmetic::Mul, mul_out_cpu_dtypes>(ctx, self, other, 1, out);
}
Tensor& mul_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) {
  return arithmetic<Arithmetic::Mul, mul_scalar_out_cpu_dtypes>(ctx, self, other, 1, out);
}

Tensor& maximum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return arithmetic<Arithmetic::Maximum, maximum_out_cpu_dtypes>(ctx, self, other, 1, out);
}
Tensor& minimum_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return arithmetic<Arithmetic::Minimum, minimum_out_cpu_dtypes>(ctx, self, other, 1, out);
}

}  // namespace native
}  // namespace sy::cpu
