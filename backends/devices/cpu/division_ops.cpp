// aten::div on the CPU, in every form PyTorch has: Tensor or Scalar divisor, functional, out= and
// in-place, with rounding_mode None (true division), 'trunc' or 'floor'.
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
T floatingFloorQuotient(T a, T b) {
  if (b == 0) return a / b;  // IEEE: +-inf, or nan for 0 / 0
  const T remainder = std::fmod(a, b);
  T quotient = (a - remainder) / b;
  // fmod's remainder has a's sign; floor division's has b's. Borrow one when they differ.
  if (remainder != 0 && ((b < 0) != (remainder < 0))) quotient -= 1;
  if (quotient == 0) return std::copysign(T{0}, a / b);  // keep the sign of the exact quotient
  T floored = std::floor(quotient);
  if (quotient - floored > T{0.5}) floored += 1;
  return floored;
}

// div in any form: `operands` come from binaryOperands (a Scalar divisor already wrapped), `out`
// is the fresh result, the caller's out= or the in-place self.
Tensor& divideInto(const char* op, const Tensor& self, const BinaryOperands& operands, Rounding rounding, Tensor& out,
                   OutputRole role) {
  const ScalarType compute = rounding == Rounding::kNone ? promotedToFloating(operands.result) : operands.result;
  SY_CHECK(compute != ScalarType::Bool, op, ": rounding_mode='", roundingName(rounding),
           "' is not supported for Bool inputs (self is ", self.scalar_type(), ", other is ", operands.other_dtype,
           ")");
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, compute, role);
  runBinaryLoop<kIntegralDtypes | kFloatingDtypes>(
      op, inputs.self(), inputs.other(), out, compute, compute, [&](const LoopGeometry& geometry, auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          if (rounding == Rounding::kTrunc) {
            runElementwise<T, T, T>(geometry, [op](T a, T b) { return integerTruncQuotient(op, a, b); });
          } else {  // kNone never computes in an integral type
            runElementwise<T, T, T>(geometry, [op](T a, T b) { return integerFloorQuotient(op, a, b); });
          }
        } else if (rounding == Rounding::kNone) {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return a / b; });
        } else if (rounding == Rounding::kTrunc) {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return std::trunc(a / b); });
        } else {
          runElementwise<T, T, T>(geometry, [](T a, T b) { return floatingFloorQuotient(a, b); });
        }
      });
  return out;
}

// The functional form: one dispatched allocation, then the out= implementation called directly.
Tensor divide(const char* op, const Tensor& self, const BinaryOperands& operands, Rounding rounding) {
  const ScalarType compute = rounding == Rounding::kNone ? promotedToFloating(operands.result) : operands.result;
  Tensor out = allocateBinaryResult(op, self, operands.other, compute);
  divideInto(op, self, operands, rounding, out, OutputRole::Out);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------------------

namespace native {

// ---- Tensor divisor ----

Tensor div_cpu(const Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::div.Tensor";
  return divide(op, self, binaryOperands(op, self, other), Rounding::kNone);
}
Tensor& div_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
  constexpr const char* op = "aten::div.out";
  return divideInto(op, self, binaryOperands(op, self, other), Rounding::kNone, out, OutputRole::Out);
}
Tensor div_mode_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  constexpr const char* op = "aten::div.Tensor_mode";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divide(op, self, binaryOperands(op, self, other), rounding);
}
Tensor& div_out_mode_cpu(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode,
                         Tensor& out) {
  constexpr const char* op = "aten::div.out_mode";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divideInto(op, self, binaryOperands(op, self, other), rounding, out, OutputRole::Out);
}

// ---- Scalar divisor ----

Tensor div_scalar_cpu(const Tensor& self, const Scalar& other) {
  constexpr const char* op = "aten::div.Scalar";
  return divide(op, self, binaryOperands(op, self, other), Rounding::kNone);
}
Tensor& div_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out) {
  constexpr const char* op = "aten::div.Scalar_out";
  return divideInto(op, self, binaryOperands(op, self, other), Rounding::kNone, out, OutputRole::Out);
}
Tensor div_scalar_mode_cpu(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  constexpr const char* op = "aten::div.Scalar_mode";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divide(op, self, binaryOperands(op, self, other), rounding);
}
Tensor& div_scalar_mode_out_cpu(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode,
                                Tensor& out) {
  constexpr const char* op = "aten::div.Scalar_mode_out";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divideInto(op, self, binaryOperands(op, self, other), rounding, out, OutputRole::Out);
}

// ---- In place ----

Tensor& div_inplace_cpu(Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::div_.Tensor";
  return divideInto(op, self, binaryOperands(op, self, other), Rounding::kNone, self, OutputRole::InPlace);
}
Tensor& div_mode_inplace_cpu(Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  constexpr const char* op = "aten::div_.Tensor_mode";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divideInto(op, self, binaryOperands(op, self, other), rounding, self, OutputRole::InPlace);
}
Tensor& div_scalar_inplace_cpu(Tensor& self, const Scalar& other) {
  constexpr const char* op = "aten::div_.Scalar";
  return divideInto(op, self, binaryOperands(op, self, other), Rounding::kNone, self, OutputRole::InPlace);
}
Tensor& div_scalar_mode_inplace_cpu(Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  constexpr const char* op = "aten::div_.Scalar_mode";
  const Rounding rounding = parseRoundingMode(op, rounding_mode);
  return divideInto(op, self, binaryOperands(op, self, other), rounding, self, OutputRole::InPlace);
}

}  // namespace native
}  // namespace sy::cpu
