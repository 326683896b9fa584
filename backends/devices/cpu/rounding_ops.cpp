// The rounding operators and sign on the CPU: ceil, floor, round, trunc and sign, each one kernel,
// its out variant's, which also serves the functional and in-place forms (unary_kernels.h).
//
// Semantics, as PyTorch's: the result keeps self's dtype. ceil, floor, round and trunc of an
// integral tensor are a copy (there is nothing to round) and of a Bool tensor an error; round
// rounds halves to even (std::nearbyint in the default rounding mode, as PyTorch's kernel), so
// round(2.5) is 2 and round(-0.5) is -0. sign is -1, 0 or 1 in self's dtype, 0 for NaN, and the
// identity on Bool.
#include <cmath>
#include <type_traits>

#include "switchyard/backends/devices/cpu/unary_kernels.h"

namespace sy::cpu {
namespace {

// A rounding kernel: fn on floating elements, computed in compute_type_t (a rounded Half is a Half
// again), the identity on integral ones.
template <unsigned Allowed, class Fn>
Tensor& rounding(const KernelContext& ctx, const Tensor& self, Tensor& out, Fn fn) {
  return sameDtypeUnary<Allowed>(ctx, self, out, [fn](auto x) {
    using T = decltype(x);
    if constexpr (is_floating_v<T>) {
      return static_cast<T>(fn(static_cast<compute_type_t<T>>(x)));
    } else {
      return x;
    }
  });
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/unary_ops.yaml) ---------------------------

namespace native {

Tensor& ceil_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return rounding<ceil_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::ceil(x); });
}
Tensor& floor_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return rounding<floor_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::floor(x); });
}
Tensor& round_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return rounding<round_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::nearbyint(x); });
}
Tensor& trunc_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return rounding<trunc_out_cpu_dtypes>(ctx, self, out, [](auto x) { return std::trunc(x); });
}

Tensor& sign_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return sameDtypeUnary<sign_out_cpu_dtypes>(ctx, self, out, [](auto element) {
    using T = decltype(element);
    if constexpr (std::is_same_v<T, bool>) {
      return element;
    } else {
      const compute_type_t<T> x = element;
      return static_cast<T>(static_cast<int>(decltype(x){0} < x) - static_cast<int>(x < decltype(x){0}));
    }
  });
}

}  // namespace native
}  // namespace sy::cpu
