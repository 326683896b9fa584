// aten::glu and aten::logit on the CPU, each one out kernel serving its derived forms.
//
// - glu(self, dim): self's halves a and b along `dim` (its size must be even), a * sigmoid(b);
//   the floating dtypes (Half and BFloat16 computed in float, rounded once). The result has self's
//   shape with `dim` halved.
//   A 0-dim self is an error (it has no halves), as in PyTorch.
// - logit(self, eps): log(z / (1 - z)) with z = self clamped to [eps, 1 - eps] when eps is given
//   and non-negative, else self itself (PyTorch's rule), in float for Half and BFloat16 (so the
//   bounds are not rounded to them). The floating dtypes keep theirs; Bool and the integral dtypes
//   compute in Float. logit(0) = -inf, logit(1) = inf, outside [0, 1] NaN.
#include <cmath>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

template <class T>
void gluHalves(const T* x, int64_t outer, int64_t half, int64_t inner, T* y) {
  for (int64_t o = 0; o < outer; ++o) {
    const T* __restrict a = x + o * 2 * half * inner;
    const T* __restrict b = a + half * inner;
    T* __restrict out = y + o * half * inner;
    using A = compute_type_t<T>;
    for (int64_t i = 0; i < half * inner; ++i) out[i] = static_cast<T>(A(a[i]) / (A(1) + std::exp(-A(b[i]))));
  }
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

Tensor& glu_out_cpu(const Tensor& self, int64_t dim, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(self.dim() > 0, op, ": glu does not take a 0-dim tensor (it has no halves to split)");
  SY_CHECK(isFloatingType(self.scalar_type()), op,
           ": expected 'self' to have a floating dtype (Half, Float, Double or BFloat16) but got ", self.scalar_type());
  const int64_t d = wrapDim(dim, self.dim(), op, "dim");
  SY_CHECK(self.size(d) % 2 == 0, op, ": halving dimension ", d, " needs an even size but it has size ",
           self.size(d));
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  sizes[d] /= 2;
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(sizes, TensorOptions(self.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
    checkCanCastToOutput(op, self.scalar_type(), out);
    resizeOutput(out, sizes);
    checkNoInternalOverlap(op, out, "out");
  }
  if (out.numel() == 0) return out;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.size(k);
  for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.size(k);
  const Tensor dense = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self}, [&](const Tensor& dst) {
    dispatchDtype<glu_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      gluHalves<T>(static_cast<const T*>(dense.data_ptr()), outer, sizes[d], inner, static_cast<T*>(dst.data_ptr()));
    });
  });
  return out;
}

Tensor& logit_out_cpu(const Tensor& self, std::optional<double> eps, Tensor& out, const KernelContext& ctx) {
  if (eps.has_value() && *eps >= 0) {
    const double lo = *eps, hi = 1 - *eps;
    return floatingUnary<logit_out_cpu_dtypes>(ctx, self, out, [lo, hi](auto x) {
      using A = compute_type_t<decltype(x)>;
      const A v = static_cast<A>(x);
      // NaN stays NaN: the comparisons are false for it.
      const A z = v < A(lo) ? A(lo) : (v > A(hi) ? A(hi) : v);
      return std::log(z / (A(1) - z));
    });
  }
  return floatingUnary<logit_out_cpu_dtypes>(ctx, self, out, [](auto x) {
    using A = compute_type_t<decltype(x)>;
    const A v = static_cast<A>(x);
    return std::log(v / (A(1) - v));
  });
}

}  // namespace native
}  // namespace sy::cpu
