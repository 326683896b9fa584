// aten::cumsum (and its out= form) on the CPU: out[..., i, ...] = sum of self[..., 0..i, ...] along dim.
//
// Semantics (PyTorch's): the result has self's shape; its dtype is `dtype` when given, else (out=
// form) out's dtype, else self's dtype with Bool and integral inputs widened to Long. self is
// converted to the result dtype first, then summed in it: floating sums accumulate in double and
// round each prefix, integral ones wrap around, Bool prefixes are "any so far". dim may be
// negative; a 0-dim self takes dim 0 or -1 and gives itself, converted through a Scalar (so an
// infinity or NaN into an integral dtype is an error, as in PyTorch).
//
// The input is viewed as a contiguous [outer, extent, inner] tensor; with inner > 1 a whole [inner]
// row of running sums is carried per step along dim, so memory is read in order.
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/devices/cpu/reduction_fold.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// Running sums of a contiguous [outer, extent, inner] tensor along its middle dim, accumulated in
// Acc (double or, for integers, uint64_t, where wrap-around is defined) and written as T.
template <class T, class Acc>
void cumsumKernel(const T* in, T* out, int64_t outer, int64_t extent, int64_t inner, Acc* running) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < inner; ++j) running[j] = Acc(0);
    const int64_t base = o * extent * inner;
    for (int64_t r = 0; r < extent; ++r) {
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t at = base + r * inner + j;
        if constexpr (std::is_same_v<T, bool>) {
          running[j] = running[j] | static_cast<Acc>(loadElement(in + at));
        } else if constexpr (std::is_same_v<Acc, uint64_t>) {
          running[j] += static_cast<uint64_t>(static_cast<int64_t>(loadElement(in + at)));
        } else {
          running[j] += static_cast<Acc>(loadElement(in + at));
        }
        out[at] = static_cast<T>(running[j]);
      }
    }
  }
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& cumsum_out_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out,
                       const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkKnownDtype<cumsum_out_cpu_dtypes>(op, "self", self.scalar_type());
  const int64_t d = wrapDim(dim, self.dim(), op);
  if (ctx.form == OutputForm::Functional) {
    const ScalarType result =
        dtype.value_or(isIntegralType(self.scalar_type(), /*include_bool=*/true) ? ScalarType::Long : self.scalar_type());
    out = ops::empty(self.sizes(), TensorOptions(result).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(!dtype.has_value() || out.scalar_type() == *dtype, op, ": expected 'out' to have dtype ", *dtype,
           " (the requested dtype) but got ", out.scalar_type());
  const ScalarType result = out.scalar_type();
  checkKnownDtype<cumsum_out_cpu_dtypes>(op, "out", result);
  const Tensor source = unaffectedByResizeOf(out, self);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  // A 0-dim self is its own sum, converted as PyTorch converts it: through a Scalar, which refuses a
  // value the result dtype cannot hold (an infinity or NaN into Long) rather than casting it.
  if (source.dim() == 0) {
    out.fill_(source);
    return out;
  }
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", convertedTo(op, "self", source, result));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < input.dim(); ++i) {
    if (i < d) outer *= input.size(i);
    if (i > d) inner *= input.size(i);
  }
  const int64_t extent = input.dim() == 0 ? 1 : input.size(d);
  // Written in place when out is contiguous and separate from the (converted) input.
  const bool direct = out.is_contiguous() && !sameMemory(out, input);
  const Tensor dst = direct ? out : scratchTensor(op, out.sizes(), result);
  dispatchDtype<cumsum_out_cpu_dtypes>(result, op, "out", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = std::conditional_t<is_floating_v<T>, double, uint64_t>;
    // The running sums: on the stack for up to 16 columns (a cumsum along the last dim has one).
    Acc small[16];
    Tensor holder;
    Acc* large = inner > 16 ? scratchArray<Acc>(op, inner, holder) : nullptr;
    cumsumKernel<T, Acc>(static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()), outer, extent,
                         inner, large != nullptr ? large : small);
  });
  if (!direct) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

}  // namespace native
}  // namespace sy::cpu
