// Operators along one dimension on the CPU: softmax / log_softmax (the kernels of
// aten::_softmax and aten::_log_softmax and their out= forms), plus the composite
// aten::softmax.int and aten::log_softmax.int (and .int_out), which every backend reaches through
// the underscore ops. Each views its input as a contiguous [outer, extent, inner] tensor and works
// along the middle dim; with inner > 1 it carries a whole [inner] row of running state (maxima,
// sums) per step along that dim, so memory is read in order either way.
//
// Semantics (PyTorch's):
//  - softmax / log_softmax: Float and Double only; the result has self's dtype (an out= tensor of
//    another dtype is an error); a 0-dim tensor gives 1 (log_softmax 0). Numerically stable: each
//    slice is shifted by its maximum before exp, so large inputs do not overflow; the sum of
//    exponentials accumulates in double. A NaN or a +inf in a slice makes the whole slice NaN
//    (inf - inf enters the sum), as does a slice of all -inf; a -inf among finite values gives 0
//    (log_softmax -inf). half_to_float=True (a Half-only CUDA feature) is an error.
//    softmax.int(dtype=...) converts self to dtype first (an Int input with dtype=Float works),
//    through aten::empty and aten::copy_.
//  - dim may be negative; a 0-dim tensor takes dim 0 or -1.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

// ---- Shared checks and views -------------------------------------------------------------------


// ---- softmax and log_softmax -------------------------------------------------------------------

enum class Variant { Softmax, LogSoftmax };

template <class T>
T nanAwareMax(T a, T b) {
  return (b > a || b != b) ? b : a;
}

// softmax or log_softmax of one contiguous slice. `y` may be `x` itself: every element is read
// before (or when) its own position is written.
template <Variant kVariant, class T>
void softmaxRow(const T* x, T* y, int64_t n) {
  T max = -std::numeric_limits<T>::infinity();
  for (int64_t i = 0; i < n; ++i) max = nanAwareMax(max, x[i]);
  double sum = 0.0;
  if constexpr (kVariant == Variant::Softmax) {
    for (int64_t i = 0; i < n; ++i) {
      const T e = std::exp(x[i] - max);
      y[i] = e;
      sum += e;
    }
    const double scale = 1.0 / sum;
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(y[i] * scale);
  } else {
    for (int64_t i = 0; i < n; ++i) sum += std::exp(x[i] - max);
    const T log_sum = static_cast<T>(std::log(sum));
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - max) - log_sum;
  }
}

// softmax or log_softmax of a contiguous [outer, extent, inner] tensor along its middle dim. With
// inner > 1 the maxima and sums of a whole [inner] row are carried per step along the reduced
// dim, so memory is still read in order (and `out` may again be `in`).
template <Variant kVariant, class T>
void softmaxKernel(const T* in, T* out, int64_t outer, int64_t extent, int64_t inner) {
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) softmaxRow<kVariant, T>(in + o * extent, out + o * extent, extent);
    return;
  }
  Tensor maxima_holder, sums_holder;
  T* const maxima = scratchArray<T>("softmax", inner, maxima_holder);
  double* const sums = scratchArray<double>("softmax", inner, sums_holder);
  for (int64_t o = 0; o < outer; ++o) {
    const T* x = in + o * extent * inner;
    T* y = out + o * extent * inner;
    std::fill(maxima, maxima + inner, -std::numeric_limits<T>::infinity());
    std::fill(sums, sums + inner, 0.0);
    for (int64_t r = 0; r < extent; ++r) {
      for (int64_t j = 0; j < inner; ++j) maxima[j] = nanAwareMax(maxima[j], x[r * inner + j]);
    }
    if constexpr (kVariant == Variant::Softmax) {
      for (int64_t r = 0; r < extent; ++r) {
        for (int64_t j = 0; j < inner; ++j) {
          const T e = std::exp(x[r * inner + j] - maxima[j]);
          y[r * inner + j] = e;
          sums[j] += e;
        }
      }
      for (int64_t j = 0; j < inner; ++j) sums[j] = 1.0 / sums[j];
      for (int64_t r = 0; r < extent; ++r) {
        for (int64_t j = 0; j < inner; ++j) y[r * inner + j] = static_cast<T>(y[r * inner + j] * sums[j]);
      }
    } else {
      for (int64_t r = 0; r < extent; ++r) {
        for (int64_t j = 0; j < inner; ++j) sums[j] += std::exp(x[r * inner + j] - maxima[j]);
      }
      for (int64_t j = 0; j < inner; ++j) sums[j] = std::log(sums[j]);
      for (int64_t r = 0; r < extent; ++r) {
        for (int64_t j = 0; j < inner; ++j) {
          y[r * inner + j] = (x[r * inner + j] - maxima[j]) - static_cast<T>(sums[j]);
        }
      }
    }
  }
}

// _softmax and _log_softmax share their loops, so their entries declare one set of dtypes.
constexpr unsigned kSoftmaxDtypes = native::_softmax_out_cpu_dtypes;
static_assert(native::_log_softmax_out_cpu_dtypes == kSoftmaxDtypes,
              "_softmax.out and _log_softmax.out declare the same dtypes: in reduction_ops.yaml");

void checkSoftmaxArguments(const char* op, const Tensor& self, bool half_to_float) {
  checkOnCPU(op, "self", self);
  SY_CHECK(!half_to_float, op, ": half_to_float=True (a Float result from a Half input) is not supported on the "
           "CPU, as in PyTorch; pass half_to_float=False");
  dispatchDtype<kSoftmaxDtypes>(self.scalar_type(), op, "self", [](auto) {});
}

// softmax or log_softmax in the form `ctx` names: the functional form allocates `out` (self's
// dtype and shape, one dispatched aten::empty) once the arguments are checked.
template <Variant kVariant>
Tensor& softmaxInto(const KernelContext& ctx, const Tensor& self, int64_t dim, bool half_to_float, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    checkSoftmaxArguments(op, self, half_to_float);
    wrapDim(dim, self.dim(), op);
    out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  }
  checkSoftmaxArguments(op, self, half_to_float);
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const int64_t d = wrapDim(dim, self.dim(), op);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;

  // See Note [Accumulating kernels compute reduced floats on Float copies] in elementwise.h.
  const ScalarType compute = computeDtypeOf(self.scalar_type());
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", self, compute);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < input.dim(); ++i) {
    if (i < d) outer *= input.size(i);
    if (i > d) inner *= input.size(i);
  }
  const int64_t extent = input.dim() == 0 ? 1 : input.size(d);
  // Written in place when out is contiguous and is either separate from self or self exactly.
  const bool direct = out.is_contiguous() && out.scalar_type() == compute && !partiallyOverlaps(out, input);
  const Tensor dst = direct ? out : scratchTensor(op, self.sizes(), compute);
  // dtype set: the compute dtype: Half and BFloat16 inputs compute on Float copies.
  dispatchDtype<kFullFloatingDtypes>(compute, op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    softmaxKernel<kVariant, T>(static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()), outer, extent,
                               inner);
  });
  if (!direct) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

// self converted to `dtype` on its own device, through the dispatcher (these kernels are composite).
Tensor convertedForComposite(const Tensor& self, std::optional<ScalarType> dtype) {
  if (!dtype.has_value() || self.scalar_type() == *dtype) return self;
  Tensor converted = ops::empty(self.sizes(), TensorOptions(*dtype).device(self.device()));
  ops::copy_(converted, self);
  return converted;
}

// The same for an out= form, which no gradient flows through: on the CPU the converted copy is
// scratch, read by the one call it is made for (See Note [Kernel scratch is reused, not allocated]).
Tensor convertedForOut(const char* op, const Tensor& self, std::optional<ScalarType> dtype) {
  if (!dtype.has_value() || !self.is_cpu()) return convertedForComposite(self, dtype);
  return convertedTo(op, "self", self, *dtype);
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& _softmax_out_cpu(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out, const KernelContext& ctx) {
  return softmaxInto<Variant::Softmax>(ctx, self, dim, half_to_float, out);
}
Tensor& _log_softmax_out_cpu(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out,
                             const KernelContext& ctx) {
  return softmaxInto<Variant::LogSoftmax>(ctx, self, dim, half_to_float, out);
}

}  // namespace native

Tensor softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::_softmax(convertedForComposite(self, dtype), dim, /*half_to_float=*/false);
}
Tensor& softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return ops::_softmax_out(out, convertedForOut("softmax.int_out", self, dtype), dim, /*half_to_float=*/false);
}
Tensor log_softmax_int_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::_log_softmax(convertedForComposite(self, dtype), dim, /*half_to_float=*/false);
}
Tensor& log_softmax_int_out_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return ops::_log_softmax_out(out, convertedForOut("log_softmax.int_out", self, dtype), dim, /*half_to_float=*/false);
}

}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  m.impl("softmax.int", SY_FN(sy::cpu::softmax_int_composite));
  m.impl("log_softmax.int", SY_FN(sy::cpu::log_softmax_int_composite));
}

SY_LIBRARY_IMPL(aten, CompositeExplicit, m) {
  m.impl("softmax.int_out", SY_FN(sy::cpu::softmax_int_out_composite));
  m.impl("log_softmax.int_out", SY_FN(sy::cpu::log_softmax_int_out_composite));
}
