// aten::div on the CPU: Tensor or Scalar divisor, with rounding_mode None (true division), 'trunc'
// or 'floor'; floor_divide (div with 'floor'), fmod and remainder (Tensor or Scalar divisor) and
// atan2: one kernel per overload, the out variant's, which also serves the functional and in-place
// forms.
//
// Semantics, as PyTorch:
// - True division computes in the result type promoted to floating: Int / Int is Float, Long /
//   Double is Double, a Float tensor / 2 stays Float. Division by zero follows IEEE (inf, nan).
// - 'trunc' and 'floor' keep the result type, so Int // Int stays Int. Integer division by zero
//   raises "ZeroDivisionError" (as PyTorch does; there is no integer inf). INT_MIN / -1 wraps
//   around, as the other integer arithmetic does, rather than trapping.
// - 'floor' on floating values is Python's //: computed from fmod so that, e.g., 1.0 // 0.1 is
//   9.0 (0.1 is slightly above one tenth) where floor(1.0 / 0.1) would round up to 10.
// - Bool inputs: true division gives Float; the rounding modes have no Bool kernel (an error, as
//   in PyTorch).
// - fmod's remainder has the dividend's sign (std::fmod), remainder's the divisor's (Python's %,
//   PyTorch's fmod moved into the divisor's sign). Both keep the result type and refuse Bool; an
//   integer divisor of 0 raises "ZeroDivisionError", a floating one gives NaN.
// - atan2 computes in the result type promoted to floating, as true division.
#include <cmath>
#include <optional>
#include <string_view>
#include <type_traits>

#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"

namespace sy::cpu {
namespace {

enum class Rounding { kNone, kTrunc, kFloor };

Rounding parseRoundingMode(const char* op, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode.has_value()) return Rounding::kNone;
  if (*rounding_mode == "trunc") return Rounding::kTrunc;
  if (*rounding_mode == "floor") return Rounding::kFloor;
  SY_ERROR(op, ": div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *rounding_mode,
           "'");
}

std::string_view roundingName(Rounding rounding) { return rounding == Rounding::kTrunc ? "trunc" : "floor"; }

// Out of line so the division loops stay small.
[[noreturn]] __attribute__((noinline)) void throwZeroDivision(const char* op) { SY_ERROR(op, ": ZeroDivisionError"); }

template <class T>
T wrappingNegate(T a) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(a));
}

// Integer quotient rounded toward zero (C++'s own division), minus its one trap.
template <class T>
T integerTruncQuotient(const char* op, T a, T b) {
  if (b == 0) throwZeroDivision(op);
  if (b == -1) return wrappingNegate(a);
  return static_cast<T>(a / b);
}

// Integer quotient rounded toward negative infinity: the truncated quotient, one lower when the
// division is inexact and the operands' signs differ.
template <class T>
T integerFloorQuotient(const char* op, T a, T b) {
  if (b == 0) throwZeroDivision(op);
  if (b == -1) return wrappingNegate(a);
  const T quotient = static_cast<T>(a / b);
  const bool inexact = a % b != 0;
  return inexact && ((a < 0) != (b < 0)) ? static_cast<T>(quotient - 1) : quotient;
}

// Python's float floor division. Dividing a - fmod(a, b), an exact multiple of b (up to rounding),
// gives a near-integer quotient, so the final floor cannot be pushed across an integer by the
// rounding of a / b.
template <class T>
T floatingFloorQuotient(T a_in, T b_in) {
  using A = compute_type_t<T>;  // See Note [Reduced-precision floats compute in float] in core/half.h.
  const A a = static_cast<A>(a_in), b = static_cast<A>(b_in);
  if (b == 0) return static_cast<T>(a / b);  // IEEE: +-inf, or nan for 0 / 0
  const A remainder = std::fmod(a, b);
  A quotient = (a - remainder) / b;
  // fmod's remainder has a's sign; floor division's has b's. Borrow one when they differ.
  if (remainder != 0 && ((b < 0) != (remainder < 0))) quotient -= 1;
  if (quotient == 0) return static_cast<T>(std::copysign(A{0}, a / b));  // keep the sign of the exact quotient
  A floored = std::floor(quotient);
  if (quotient - floored > A{0.5}) floored += 1;
  return static_cast<T>(floored);
}

// The element loops of div, shared by the Tensor and Scalar forms (See Note [Element loops do not
// depend on the form of other] in elementwise.h), computing in the dtypes `Allowed` (the kernel's
// YAML `dtypes:`).
template <unsigned Allowed>
void divideElements(const char* op, const BinaryInputs& inputs, Tensor& out, ScalarType compute, Rounding rounding) {
  runBinaryLoop<Allowed>(
      op, inputs.self(), inputs.other(), out, compute, compute, [&](const LoopGeometry& geometry, auto tag) {
        using T = typename decltype(tag)::type;
        using A = compute_type_t<T>;  // See Note [Reduced-precision floats compute in float] in core/half.h.
        if constexpr (std::is_integral_v<T>) {
          if (rounding == Rounding::kTrunc) {
            runElementwise<T, T, T>(geometry, [op](T a, T b) { return integerTruncQuotient(op, a, b); });
          } else {  // kNone never computes in an integral type
            runElementwise<T, T, T>(geometry, [op](T a, T b) { return integerFloorQuotient(op, a, b); });
          }
        } else if (rounding == Rounding::kNone) {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return static_cast<T>(A(a) / A(b)); });
        } else if (rounding == Rounding::kTrunc) {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return static_cast<T>(std::trunc(A(a) / A(b))); });
        } else {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return floatingFloorQuotient(a, b); });
        }
      });
}

// div in the form `ctx` names, with a Tensor or a Scalar divisor: `out` is allocated here
// (functional), the caller's out= or self (in place).
template <unsigned Allowed, class Other>
Tensor& divide(const KernelContext& ctx, const Tensor& self, const Other& other, Rounding rounding, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const ScalarType compute = rounding == Rounding::kNone ? promotedToFloating(operands.result) : operands.result;
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, compute, out);
  SY_CHECK(compute != ScalarType::Bool, op, ": rounding_mode='", roundingName(rounding),
           "' is not supported for Bool inputs (self is ", self.scalar_type(), ", other is ", operands.other_dtype,
           ")");
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, compute, role);
  divideElements<Allowed>(op, inputs, out, compute, rounding);
  return out;
}

enum class Remainder { kFmod, kPython };

// Integer remainder with the sign of the dividend (fmod) or of the divisor (Python's %).
template <class T>
T integerRemainder(const char* op, T a, T b, Remainder kind) {
  if (b == 0) throwZeroDivision(op);
  if (b == -1) return T{0};  // INT_MIN % -1 traps in C++; the remainder is 0
  T r = static_cast<T>(a % b);
  if (kind == Remainder::kPython && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
  return r;
}

// PyTorch's floating remainder: fmod, moved into the divisor's sign for Python's %.
template <class T>
T floatingRemainder(T a_in, T b_in, Remainder kind) {
  using A = compute_type_t<T>;
  const A a = static_cast<A>(a_in), b = static_cast<A>(b_in);
  A r = std::fmod(a, b);
  if (kind == Remainder::kPython && r != 0 && ((b < 0) != (r < 0))) r += b;
  return static_cast<T>(r);
}

// The element loops of fmod and remainder, shared by the Tensor and Scalar forms.
template <unsigned Allowed>
void remainderElements(const char* op, const BinaryInputs& inputs, Tensor& out, ScalarType compute, Remainder kind) {
  runBinaryLoop<Allowed>(
      op, inputs.self(), inputs.other(), out, compute, compute, [&](const LoopGeometry& geometry, auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          runElementwise<T, T, T>(geometry, [op, kind](T a, T b) { return integerRemainder(op, a, b, kind); });
        } else if (kind == Remainder::kFmod) {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return floatingRemainder(a, b, Remainder::kFmod); });
        } else {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return floatingRemainder(a, b, Remainder::kPython); });
        }
      });
}

// fmod and remainder in the form `ctx` names, in the operands' result type (Bool refused).
template <unsigned Allowed, class Other>
Tensor& remainderOf(const KernelContext& ctx, const Tensor& self, const Other& other, Remainder kind, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const ScalarType compute = operands.result;
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, compute, out);
  checkDtypeSupported(op, "self", compute, Allowed);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, compute, role);
  remainderElements<Allowed>(op, inputs, out, compute, kind);
  return out;
}

// atan2 in the form `ctx` names: floating results, as true division's.
template <unsigned Allowed>
Tensor& arcTangent(const KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const ScalarType compute = promotedToFloating(operands.result);
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, compute, out);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, compute, role);
  runBinaryLoop<Allowed>(op, inputs.self(), inputs.other(), out, compute, compute,
                         [](const LoopGeometry& geometry, auto tag) {
                           using T = typename decltype(tag)::type;
                           using A = compute_type_t<T>;
                           runElementwise<T, T, T>(geometry, [](T a, T b) { return static_cast<T>(std::atan2(A(a), A(b))); });
                         });
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

Tensor& div_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return divide<div_out_cpu_dtypes>(ctx, self, other, Rounding::kNone, out);
}
Tensor& div_out_mode_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode,
                         Tensor& out, const KernelContext& ctx) {
  return divide<div_out_mode_cpu_dtypes>(ctx, self, other, parseRoundingMode(ctx.op, rounding_mode), out);
}
Tensor& div_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) {
  return divide<div_scalar_out_cpu_dtypes>(ctx, self, other, Rounding::kNone, out);
}
Tensor& div_scalar_mode_out_cpu(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode,
                                Tensor& out, const KernelContext& ctx) {
  return divide<div_scalar_mode_out_cpu_dtypes>(ctx, self, other, parseRoundingMode(ctx.op, rounding_mode), out);
}

Tensor& floor_divide_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return divide<floor_divide_out_cpu_dtypes>(ctx, self, other, Rounding::kFloor, out);
}

Tensor& fmod_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return remainderOf<fmod_tensor_out_cpu_dtypes>(ctx, self, other, Remainder::kFmod, out);
}
Tensor& fmod_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) {
  return remainderOf<fmod_scalar_out_cpu_dtypes>(ctx, self, other, Remainder::kFmod, out);
}
Tensor& remainder_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return remainderOf<remainder_tensor_out_cpu_dtypes>(ctx, self, other, Remainder::kPython, out);
}
Tensor& remainder_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) {
  return remainderOf<remainder_scalar_out_cpu_dtypes>(ctx, self, other, Remainder::kPython, out);
}

Tensor& atan2_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return arcTangent<atan2_out_cpu_dtypes>(ctx, self, other, out);
}

}  // namespace native
}  // namespace sy::cpu
