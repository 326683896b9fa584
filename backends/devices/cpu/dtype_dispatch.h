// Dtype visitors: turn a run-time ScalarType into a compile-time C++ element type for a kernel.
//
//   SY_DISPATCH_ALL_TYPES(self.scalar_type(), ctx.op, "self", [&](auto tag) {
//     using scalar_t = typename decltype(tag)::type;   // bool, int32_t, int64_t, float or double
//     ...
//   });
//
// The visitor body is instantiated once per allowed type. A dtype outside the allowed set raises
// sy::Error naming the operator, the argument and the dtype, so a user sees which call failed:
//   "aten::acos.out: argument 'self' has dtype Int, which this kernel does not support (supported: Float, Double)"
#pragma once

#include <cstdint>

#include "switchyard/core/error.h"
#include "switchyard/core/scalar_type.h"

namespace sy::cpu {

// Sets of dtypes, as bits indexed by ScalarType.
enum DtypeSet : unsigned {
  kBoolDtype = 1u << static_cast<int>(ScalarType::Bool),
  kIntDtype = 1u << static_cast<int>(ScalarType::Int),
  kLongDtype = 1u << static_cast<int>(ScalarType::Long),
  kFloatDtype = 1u << static_cast<int>(ScalarType::Float),
  kDoubleDtype = 1u << static_cast<int>(ScalarType::Double),
  kFloatingDtypes = kFloatDtype | kDoubleDtype,
  kIntegralDtypes = kIntDtype | kLongDtype,
  kAllDtypes = kBoolDtype | kIntegralDtypes | kFloatingDtypes,
};

namespace detail {
[[noreturn]] void throwUnsupportedDtype(const char* op, const char* argument, ScalarType dtype, unsigned supported);
}  // namespace detail

// Calls fn(TypeTag<T>{}) with T the C++ type of `dtype`, when `dtype` is in `Allowed`.
template <unsigned Allowed, class Fn>
void dispatchDtype(ScalarType dtype, const char* op, const char* argument, Fn&& fn) {
  bool allowed = false;
  visitScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((Allowed & (1u << static_cast<int>(CppTypeToScalarType<T>::value))) != 0) {
      allowed = true;
      fn(tag);
    }
  });
  if (SY_UNLIKELY(!allowed)) detail::throwUnsupportedDtype(op, argument, dtype, Allowed);
}

}  // namespace sy::cpu

#define SY_DISPATCH_ALL_TYPES(dtype, op, argument, ...) \
  ::sy::cpu::dispatchDtype<::sy::cpu::kAllDtypes>(dtype, op, argument, __VA_ARGS__)
#define SY_DISPATCH_FLOATING_TYPES(dtype, op, argument, ...) \
  ::sy::cpu::dispatchDtype<::sy::cpu::kFloatingDtypes>(dtype, op, argument, __VA_ARGS__)
#define SY_DISPATCH_INTEGRAL_TYPES(dtype, op, argument, ...) \
  ::sy::cpu::dispatchDtype<::sy::cpu::kIntegralDtypes>(dtype, op, argument, __VA_ARGS__)
