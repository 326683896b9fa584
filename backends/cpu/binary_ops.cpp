// Binary arithmetic elementwise operators on the CPU: add (self + alpha * other) and mul.
//
// Both broadcast their inputs (PyTorch rules) and compute in binaryResultType(self, other): Int +
// Float is Float, Long + Double is Double, a 0-dim operand of the same category does not widen
// the result. For Bool results add is logical or and mul logical and. Integer arithmetic wraps
// around on overflow (computed in the unsigned type, so it is defined behaviour). An out= tensor
// of another dtype receives the result converted, provided canCast(result, out dtype) allows it.
#include <type_traits>

#include "switchyard/backends/cpu/elementwise.h"
#include "switchyard/backends/cpu/kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/ops.h"

namespace sy::cpu {
namespace {

template <class T>
T wrappingAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <class T>
T wrappingMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

// PyTorch's rules for add's alpha, checked against the result dtype.
void checkAlpha(const char* op, ScalarType result, const Scalar& alpha) {
  SY_CHECK(!alpha.isBoolean() || result == ScalarType::Bool, op,
           ": Boolean alpha only supported for Boolean results.");
  SY_CHECK(isFloatingType(result) || alpha.isIntegral(/*include_bool=*/true), op,
           ": For integral input tensors, argument alpha must not be a floating point number.");
}

// Checks, result type, broadcasting and output sizing shared by every binary out= kernel; returns
// the result type. After it, `out` has the broadcast shape.
ScalarType prepareBinaryOut(const char* op, const Tensor& self, const Tensor& other, const Tensor& out) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "other", other);
  checkOnCPU(op, "out", out);
  const ScalarType result = binaryResultType(self, other);
  checkCanCastToOutput(op, result, out);
  resizeOutput(out, broadcastShapes(op, self.sizes(), other.sizes()));
  return result;
}

// Runs body(geometry, TypeTag<T>) over out = f(self, other) computed in `result`.
template <class Body>
void runBinary(const char* op, const Tensor& self, const Tensor& other, Tensor& out, ScalarType result, Body&& body) {
  if (out.numel() == 0) return;
  const Tensor a = convertedTo(op, "self", self, result);
  const Tensor b = convertedTo(op, "other", other, result);
  computeIntoOutput(op, out, result, {&a, &b}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &a, &b});
    SY_DISPATCH_ALL_TYPES(result, op, "self", [&](auto tag) { body(geometry, tag); });
  });
}

Tensor& addOut(const char* op, const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  checkAlpha(op, binaryResultType(self, other), alpha);  // before prepareBinaryOut resizes `out`
  const ScalarType result = prepareBinaryOut(op, self, other, out);
  runBinary(op, self, other, out, result, [&](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      const bool scaled = alpha.toBool();
      runElementwise<bool, bool, bool>(geometry, [scaled](bool x, bool y) { return x || (scaled && y); });
    } else if constexpr (std::is_integral_v<T>) {
      const T scale = alpha.to<T>();
      if (scale == 1) {
        runElementwise<T, T, T>(geometry, [](T x, T y) { return wrappingAdd(x, y); });
      } else {
        runElementwise<T, T, T>(geometry, [scale](T x, T y) { return wrappingAdd(x, wrappingMul(scale, y)); });
      }
    } else {
      const T scale = alpha.to<T>();
      if (scale == 1) {
        runElementwise<T, T, T>(geometry, [](T x, T y) { return x + y; });
      } else {
        runElementwise<T, T, T>(geometry, [scale](T x, T y) { return x + scale * y; });
      }
    }
  });
  return out;
}

Tensor& mulOut(const char* op, const Tensor& self, const Tensor& other, Tensor& out) {
  const ScalarType result = prepareBinaryOut(op, self, other, out);
  runBinary(op, self, other, out, result, [&](const LoopGeometry& geometry, auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      runElementwise<bool, bool, bool>(geometry, [](bool x, bool y) { return x && y; });
    } else if constexpr (std::is_integral_v<T>) {
      runElementwise<T, T, T>(geometry, [](T x, T y) { return wrappingMul(x, y); });
    } else {
      runElementwise<T, T, T>(geometry, [](T x, T y) { return x * y; });
    }
  });
  return out;
}

// The functional forms' one dispatched allocation: the broadcast shape in the result dtype.
Tensor allocateBinaryResult(const char* op, const Tensor& self, const Tensor& other) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "other", other);
  const SizesVector shape = broadcastShapes(op, self.sizes(), other.sizes());
  return ops::empty(shape, TensorOptions(binaryResultType(self, other)).device(kCPU));
}

}  // namespace

// The functional kernels call the out= implementation directly, not through the dispatcher, so
// each costs exactly two dispatches (itself and its aten::empty).
Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  constexpr const char* op = "aten::add.Tensor";
  checkAlpha(op, binaryResultType(self, other), alpha);
  Tensor out = allocateBinaryResult(op, self, other);
  addOut(op, self, other, alpha, out);
  return out;
}

Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return addOut("aten::add.out", self, other, alpha, out);
}

Tensor mul_cpu(const Tensor& self, const Tensor& other) {
  constexpr const char* op = "aten::mul.Tensor";
  Tensor out = allocateBinaryResult(op, self, other);
  mulOut(op, self, other, out);
  return out;
}

Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
  return mulOut("aten::mul.out", self, other, out);
}

}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CPU, m) {
  m.impl("add.Tensor", SY_FN(sy::cpu::add_cpu));
  m.impl("add.out", SY_FN(sy::cpu::add_out_cpu));
  m.impl("mul.Tensor", SY_FN(sy::cpu::mul_cpu));
  m.impl("mul.out", SY_FN(sy::cpu::mul_out_cpu));
}
