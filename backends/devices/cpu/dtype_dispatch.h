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

#include "switchyard/core/element_traits.h"
#include "switchyard/core/error.h"
#include "switchyard/core/kernel_dtypes.h"
#include "switchyard/core/scalar_type.h"

namespace sy::cpu {

// Sets of dtypes, as bits indexed by ScalarType. The wide sets are ExecuTorch's switch families
// (ET_SWITCH_REALHBBF16_TYPES and so on), so a portable kernel's dtypes carry over by name:
//   kWideIntegralDtypes   Byte, Char, Short, Int, Long                 (ExecuTorch's INT)
//   kWideFloatingDtypes   Half, Float, Double, BFloat16                 (FLOATHBF16)
//   kRealHBF16Dtypes      the wide integral and floating ones           (REALHBF16)
//   kRealHBBF16Dtypes     those and Bool                                (REALHBBF16)
// The reduced-precision floats compute in float (See Note [Reduced-precision floats compute in
// float] in core/half.h): a kernel written over `T` reads float(x) and stores T(result).
//
// Note [Kernels take the new dtypes once PyTorch agrees]
// kAllDtypes, kFloatingDtypes and kIntegralDtypes are the five dtypes every kernel has computed from
// the start (Bool, Int, Long, Float, Double). A kernel family moves to the wide sets when the PyTorch
// oracle checks it on Byte, Char, Short, Half and BFloat16 (conformance/oracle: its case lists
// dtypes::kEvery); until then it refuses those dtypes by name, rather than compute them unchecked.
enum DtypeSet : unsigned {
  kByteDtype = 1u << static_cast<int>(ScalarType::Byte),
  kCharDtype = 1u << static_cast<int>(ScalarType::Char),
  kShortDtype = 1u << static_cast<int>(ScalarType::Short),
  kIntDtype = 1u << static_cast<int>(ScalarType::Int),
  kLongDtype = 1u << static_cast<int>(ScalarType::Long),
  kHalfDtype = 1u << static_cast<int>(ScalarType::Half),
  kFloatDtype = 1u << static_cast<int>(ScalarType::Float),
  kDoubleDtype = 1u << static_cast<int>(ScalarType::Double),
  kBoolDtype = 1u << static_cast<int>(ScalarType::Bool),
  kBFloat16Dtype = 1u << static_cast<int>(ScalarType::BFloat16),
  kFullFloatingDtypes = kFloatDtype | kDoubleDtype,  // ExecuTorch's FLOAT
  kFloatingDtypes = kFullFloatingDtypes,
  kIntegralDtypes = kIntDtype | kLongDtype,
  kAllDtypes = kBoolDtype | kIntegralDtypes | kFloatingDtypes,
  kWideIntegralDtypes = kByteDtype | kCharDtype | kShortDtype | kIntDtype | kLongDtype,
  kWideFloatingDtypes = kFullFloatingDtypes | kHalfDtype | kBFloat16Dtype,
  kRealHBF16Dtypes = kWideIntegralDtypes | kWideFloatingDtypes,
  kRealHBBF16Dtypes = kRealHBF16Dtypes | kBoolDtype,
};

// Note [A kernel's dtype switch reads its YAML]
// The dtypes a kernel takes are its YAML entry's `dtypes:`, which the generator writes as
// `<kernel>_dtypes` beside the kernel's declaration. A kernel's check of its input's dtype and its
// switch over it name that constant, or one constant that the entries sharing a loop are tied to by
// a static_assert ("max_pool2d, max_pool2d_with_indices and avg_pool2d declare the same dtypes"),
// never a family written here. So an entry's `dtypes:` is the one place to change: narrowing it
// compiles and accepts less, widening it compiles the loop for more, and a kernel written for fewer
// dtypes than its entry names fails the build with its static_assert. The families above are for
// what no entry declares: the dtype a kernel computes in after promotion or conversion (Half and
// BFloat16 computing on Float copies), the dtypes of an argument other than the input (scales,
// zero points, an out= that receives a converted result), and the shared drivers' own checks before
// the kernel's; each such use says so in a `// dtype set:` comment on its line or the line above.
// Kernels that only move elements (the view copies, cat, padding, index) have no dtype switch: they
// copy by element size. tests/lint/check_kernel_dtype_sets.py holds this for every kernel file.

namespace detail {
// "argument 'self' has dtype Int, which this kernel does not support (supported: ...)", or, for a
// dtype the kernel takes but `built` (the caller's build, See Note [A build compiles its kernels
// for the dtypes it selects]) leaves out, that the build leaves it out.
[[noreturn]] void throwUnsupportedDtype(const char* op, const char* argument, ScalarType dtype, unsigned supported,
                                        unsigned built = kKernelDtypes);
}  // namespace detail

// Calls fn(TypeTag<T>{}) with T the C++ type of `dtype`, when `dtype` is in `Allowed` and this
// build compiles its kernels for it (kKernelDtypes).
template <unsigned Allowed, class Fn>
void dispatchDtype(ScalarType dtype, const char* op, const char* argument, Fn&& fn) {
  constexpr unsigned kBuilt = Allowed & kKernelDtypes;
  bool allowed = false;
  visitScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((kBuilt & (1u << static_cast<int>(CppTypeToScalarType<T>::value))) != 0) {
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
