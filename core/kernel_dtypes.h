// The dtypes this build compiles its kernels for: every dtype, unless CMake's
// SWITCHYARD_KERNEL_DTYPES names fewer (then SY_KERNEL_DTYPES holds their bits, indexed by
// ScalarType, for every translation unit of the build).
//
//   cmake -S . -B build/float -DSWITCHYARD_KERNEL_DTYPES="Bool;Long;Float"
//   static_assert(sy::kernelDtypeBuilt(sy::ScalarType::Float));
//
// Note [A build compiles its kernels for the dtypes it selects]
// Each kernel instantiates its loops for the dtypes its YAML declares (dispatchDtype<Allowed> in
// backends/devices/cpu/dtype_dispatch.h): ten element types for most arithmetic, which is most of
// the portable library's code. A program for a small device uses one or two. A build configured
// with SWITCHYARD_KERNEL_DTYPES compiles every dispatch for Allowed & kKernelDtypes only, so the
// others are never instantiated (docs/dtypes.md gives the sizes), and a call with a dtype left out
// is refused by name: "... has dtype Half, which this build leaves out of its kernels (built for:
// Bool, Long, Float)". Element moves that do not compute (copies, views, cat) keep every dtype.
// The declared dtypes the tools show stay the YAML's (dispatcher/declared_dtypes.h), and `switchyard
// ops --coverage` says which dtypes a narrowed build computes; a selective build linked against such
// a build (selective/CMakeLists.txt) holds only the selected dtypes' code.
#pragma once

#include "switchyard/core/scalar_type.h"

#ifndef SY_KERNEL_DTYPES
#define SY_KERNEL_DTYPES 0xFFFFFFFFu
#endif

namespace sy {

inline constexpr unsigned kKernelDtypes = SY_KERNEL_DTYPES;

constexpr bool kernelDtypeBuilt(ScalarType dtype) {
  const int bit = static_cast<int>(dtype);
  return bit >= 0 && bit < 32 && ((kKernelDtypes >> bit) & 1u) != 0;
}

}  // namespace sy
