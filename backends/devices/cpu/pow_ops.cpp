// aten::pow on the CPU, with a Tensor or a Scalar exponent (pow.Tensor_Tensor_out,
// pow.Tensor_Scalar_out) and with a Scalar base (pow.Scalar_out): one kernel per overload, the out
// variant's, which also serves the functional and in-place forms PyTorch has.
//
// Semantics, as PyTorch's:
// - Operands broadcast and compute in their result type (an Int tensor ** 2 stays Int, ** 2.5 is
//   Float; 2 ** an Int tensor is Int). Bool results are refused whatever the operands (PyTorch
//   1.13 refuses pow(Bool tensor, True), found by the oracle). An exponent of 0 gives ones and one
//   of 1 a copy of self (NaN ** 0 is 1); a base of 1 gives ones.
// - Integers: exact repeated multiplication, wrapping around on overflow as the other integer
//   arithmetic does. A negative Tensor exponent gives 0, or ±1 for a base of ±1; a negative
//   integer Scalar exponent on an integral (or Bool) tensor is PyTorch's error "Integers to
//   negative integer powers are not allowed."
// - Floating: std::pow, except the exponents PyTorch's CPU kernel specialises (0.5 is sqrt, -0.5
//   1 / sqrt, -1 1 / x, 2 x * x, 3 x * x * x, -2 1 / (x * x)), which differ from std::pow on
//   signed zeros and infinities (pow(-0.0, 0.5) is 0 but sqrt(-0.0) is -0.0); Float ** a Scalar
//   is computed in double, as PyTorch does. Half takes std::pow in float for every exponent (the
//   exponent rounded to Half), as PyTorch's Half kernel; BFloat16 the specialisations, in float.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {
namespace {

// The three pow kernels share their element functions, so their YAML entries declare one set.
constexpr unsigned kPowDtypes = native::pow_tensor_tensor_out_cpu_dtypes;
static_assert(native::pow_tensor_scalar_out_cpu_dtypes == kPowDtypes && native::pow_scalar_out_cpu_dtypes == kPowDtypes,
              "pow.Tensor_Tensor_out, pow.Tensor_Scalar_out and pow.Scalar_out declare the same dtypes: in binary_ops.yaml");

// base ** exponent in an integral type, wrapping on overflow (computed in uint64_t, whose
// arithmetic wraps, and truncated to T, which keeps the low bits as T's own wrapping would).
template <class T>
T integerPower(T base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 1) return T{1};
    if (base == -1) return (exponent & 1) != 0 ? static_cast<T>(-1) : T{1};
    return T{0};
  }
  uint64_t result = 1;
  uint64_t factor = static_cast<uint64_t>(static_cast<int64_t>(base));
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= factor;
    factor *= factor;
    exponent >>= 1;
  }
  return static_cast<T>(result);
}

// PyTorch's Scalar::equal: a Bool scalar equals only a bool, a number only a number.
bool scalarIs(const Scalar& s, double number, bool boolean) {
  if (s.isBoolean()) return s.toBool() == boolean;
  return s.isFloatingPoint() ? s.toDouble() == number : static_cast<double>(s.toLong()) == number;
}

// The per-element function of a floating pow with a Scalar exponent, run over `geometry`.
template <class T>
void floatingPowByScalar(const LoopGeometry& geometry, double exponent) {
  if constexpr (std::is_same_v<T, Half>) {
    // PyTorch's Half kernel has none of the specialisations below (pow(-inf, 0.5) is inf, where
    // sqrt gives NaN): std::pow in float, the exponent rounded to Half first.
    const float e = static_cast<float>(Half(static_cast<float>(exponent)));
    runElementwise<T, T>(geometry, [e](T x) { return static_cast<T>(std::pow(static_cast<float>(x), e)); });
    return;
  }
  if (exponent == 0.5) {
    runElementwise<T, T>(geometry, [](T x) { return std::sqrt(x); });
  } else if (exponent == -0.5) {
    runElementwise<T, T>(geometry, [](T x) { return T{1} / std::sqrt(x); });
  } else if (exponent == -1.0) {
    runElementwise<T, T>(geometry, [](T x) { return T{1} / x; });
  } else if (exponent == 2.0) {
    runElementwise<T, T>(geometry, [](T x) { return x * x; });
  } else if (exponent == 3.0) {
    runElementwise<T, T>(geometry, [](T x) { return x * x * x; });
  } else if (exponent == -2.0) {
    runElementwise<T, T>(geometry, [](T x) { return T{1} / (x * x); });
  } else {
    runElementwise<T, T>(geometry, [exponent](T x) { return static_cast<T>(std::pow(static_cast<double>(x), exponent)); });
  }
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

Tensor& pow_tensor_tensor_out_cpu(const Tensor& self, const Tensor& exponent, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, exponent);
  const ScalarType result = operands.result;
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, result, out);
  checkDtypeSupported(op, "self", result, kPowDtypes);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, result, role);
  runBinaryLoop<kPowDtypes>(op, inputs.self(), inputs.other(), out, result, result,
                            [](const LoopGeometry& geometry, auto tag) {
                              using T = typename decltype(tag)::type;
                              if constexpr (std::is_integral_v<T>) {
                                runElementwise<T, T, T>(geometry, [](T a, T b) { return integerPower(a, b); });
                              } else {
                                runElementwise<T, T, T>(geometry, [](T a, T b) { return std::pow(a, b); });
                              }
                            });
  return out;
}

Tensor& pow_tensor_scalar_out_cpu(const Tensor& self, const Scalar& exponent, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  unary::checkInput(op, self);
  SY_CHECK(!(isIntegralType(self.scalar_type(), /*include_bool=*/true) && exponent.isIntegral(true) &&
             exponent.toLong() < 0),
           op, ": Integers to negative integer powers are not allowed.");
  const ScalarType result = binaryResultType(self, exponent);
  const bool ones = scalarIs(exponent, 0.0, false);
  const bool copy = scalarIs(exponent, 1.0, true);
  return unary::unaryOp<kPowDtypes>(ctx, self, result, out, [&](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    if (ones) {
      runElementwise<T, T>(geometry, [](T) { return T{1}; });
    } else if (copy) {
      runElementwise<T, T>(geometry, [](T x) { return x; });
    } else if constexpr (is_floating_v<T>) {
      floatingPowByScalar<T>(geometry, exponent.toDouble());
    } else {
      const T power = exponent.to<T>();
      runElementwise<T, T>(geometry, [power](T x) { return integerPower(x, power); });
    }
  });
}

Tensor& pow_scalar_out_cpu(const Scalar& self, const Tensor& exponent, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  // The base, wrapped as a 0-dim tensor of the result type (binaryOperands' `other`).
  const BinaryOperands operands = binaryOperands(op, exponent, self);
  const Tensor& base = operands.other;
  const ScalarType result = operands.result;
  const OutputRole role = binaryOutputFor(ctx, base, exponent, result, out);
  checkDtypeSupported(op, "exponent", result, kPowDtypes);
  const bool ones = scalarIs(self, 1.0, true) && !self.isBoolean();
  const BinaryInputs inputs = prepareBinaryOutput(op, base, exponent, out, result, role);
  runBinaryLoop<kPowDtypes>(op, inputs.self(), inputs.other(), out, result, result,
                            [ones](const LoopGeometry& geometry, auto tag) {
                              using T = typename decltype(tag)::type;
                              if (ones) {
                                runElementwise<T, T, T>(geometry, [](T, T) { return T{1}; });
                              } else if constexpr (std::is_integral_v<T>) {
                                runElementwise<T, T, T>(geometry, [](T a, T b) { return integerPower(a, b); });
                              } else {
                                runElementwise<T, T, T>(geometry, [](T a, T b) { return std::pow(a, b); });
                              }
                            });
  return out;
}

}  // namespace native
}  // namespace sy::cpu
