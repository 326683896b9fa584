// Element traits: what a kernel written over an element type `T` asks of it, with Half, BFloat16
// and the Float8 types counted as the floating types they are (std::is_floating_point_v<sy::Half>
// is false, so a kernel that branched on it would treat Half as an integer).
//
//   template <class T> T halve(T x) {
//     if constexpr (sy::is_floating_v<T>) {
//       using Acc = sy::compute_type_t<T>;        // float for Half and BFloat16
//       return T(Acc(x) / Acc(2));                 // computed in float, rounded once
//     } else {
//       return x >> 1;
//     }
//   }
//
// See Note [Reduced-precision floats compute in float] in core/half.h.
#pragma once

#include <type_traits>

#include "switchyard/core/bfloat16.h"
#include "switchyard/core/float8.h"
#include "switchyard/core/half.h"

namespace sy {

// Half, BFloat16 and the Float8 types: floating values held in fewer bits than a float.
template <class T>
inline constexpr bool is_reduced_floating_v =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16> || std::is_same_v<T, Float8_e5m2> ||
    std::is_same_v<T, Float8_e4m3fn> || std::is_same_v<T, Float8_e5m2fnuz> || std::is_same_v<T, Float8_e4m3fnuz>;

// float, double and the reduced-precision floats.
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_reduced_floating_v<T>;

// The type a kernel computes `T` in: float for the reduced-precision floats, `T` itself otherwise
// (PyTorch's at::opmath_type).
template <class T>
using compute_type_t = std::conditional_t<is_reduced_floating_v<T>, float, T>;

}  // namespace sy
