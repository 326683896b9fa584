// aten::max_pool2d, aten::max_pool2d_with_indices and aten::avg_pool2d (and their out= forms) on
// the CPU, for integral and floating inputs (Half and BFloat16 averaged in float) of shape
// (N, C, H, W) or unbatched (C, H, W); the result has self's dtype.
//
// Semantics, as PyTorch's: stride [] means stride = kernel_size; padding is at most half the kernel;
// the output size is floor((in + 2 * pad - dilation * (kernel - 1) - 1) / stride) + 1, or rounded up
// with ceil_mode, except that a ceil_mode window must start inside the input or the left padding.
// max_pool2d ignores padded positions (a window that holds no input element gives the dtype's
// lowest value, -inf for floats) and a NaN in a window wins. max_pool2d_with_indices also gives,
// as Long, where each maximum was: its flat index h * W + w within its (H, W) plane; of equal
// maxima the first in the window (row-major) wins, and of NaNs the last. avg_pool2d divides the window's sum by
// divisor_override when given, else by the window size clipped to the padded input
// (count_include_pad=True) or by the number of input elements it covers (False); a window that
// covers no input element gives 0. Integer averages truncate toward zero, as in PyTorch.
//
// Loop order: for each output row, each kernel offset walks a whole output row at once, so the
// innermost loop runs over contiguous output elements (and contiguous input ones at stride 1);
// padding is handled by splitting each row into its valid range up front, not per element.
//
// Note [Pooling arithmetic stays in range whatever the arguments]
// kernel_size, stride, padding and dilation come from the caller (a program, a model), so the
// output size is computed with every product and sum checked, and an argument that makes one
// overflow is an error naming the arguments. Once the output size fits, every position the loops
// compute fits too: a window starts at o * stride - padding with o * stride no larger than the
// padded input, and the kernel offsets visited are only those that land inside the input
// (kernelRows, kernelColumns). A kernel of 2^62 positions that is almost all padding therefore
// costs what its few input positions cost instead of 2^62 skipped iterations.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

using nn_detail::heightWidthPair;
using nn_detail::validOutputRange;

// The pooling kernels share their loops, so their YAML entries declare one set of dtypes.
constexpr unsigned kPoolDtypes = native::max_pool2d_out_cpu_dtypes;
static_assert(native::max_pool2d_with_indices_out_cpu_dtypes == kPoolDtypes && native::avg_pool2d_out_cpu_dtypes == kPoolDtypes,
              "max_pool2d, max_pool2d_with_indices and avg_pool2d declare the same dtypes: in nn_ops.yaml");

struct PoolGeometry {
  bool unbatched = false;
  int64_t batch = 1, channels = 0, height = 0, width = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t out_h = 0, out_w = 0;

  int64_t planes() const { return batch * channels; }
  SizesVector outputSizes() const {
    if (unbatched) return {channels, out_h, out_w};
    return {batch, channels, out_h, out_w};
  }
};

// The output size along one dimension (the formula at the top of this file), or nullopt when the
// padded input or the dilated kernel does not fit in int64_t. Arguments already checked: in and
// kernel positive, pad non-negative, stride and dilation positive.
std::optional<int64_t> pooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                                  bool ceil_mode) {
  int64_t padded = 0, reach = 0;
  if (!checkedMul(pad, 2, &padded) || !checkedAdd(in, padded, &padded) || !checkedMul(dilation, kernel - 1, &reach)) {
    return std::nullopt;
  }
  const int64_t span = padded - reach - 1;  // two non-negative numbers: no overflow
  int64_t out = (ceil_mode ? nn_detail::ceilDiv(span, stride) : nn_detail::floorDiv(span, stride)) + 1;
  // The last ceil_mode window must start inside the input or the left padding (in + pad fits:
  // it is at most the padded size).
  int64_t last_start = 0;
  if (ceil_mode && out > 1 && (!checkedMul(out - 1, stride, &last_start) || last_start >= in + pad)) --out;
  return out;
}

std::string pairText(int64_t h, int64_t w) { return str("(", h, ", ", w, ")"); }

PoolGeometry checkPool2d(const char* op, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  checkOnCPU(op, "self", self);
  PoolGeometry g;
  std::tie(g.kernel_h, g.kernel_w) = heightWidthPair(op, "kernel_size", kernel_size);
  std::tie(g.stride_h, g.stride_w) = heightWidthPair(op, "stride", stride, std::pair{g.kernel_h, g.kernel_w});
  std::tie(g.pad_h, g.pad_w) = heightWidthPair(op, "padding", padding);
  std::tie(g.dilation_h, g.dilation_w) = heightWidthPair(op, "dilation", dilation);
  SY_CHECK(g.kernel_h > 0 && g.kernel_w > 0, op, ": expected 'kernel_size' to be positive but got ",
           pairText(g.kernel_h, g.kernel_w));
  SY_CHECK(g.stride_h > 0 && g.stride_w > 0, op, ": expected 'stride' to be positive but got ",
           pairText(g.stride_h, g.stride_w));
  SY_CHECK(g.pad_h >= 0 && g.pad_w >= 0, op, ": expected 'padding' to be non-negative but got ",
           pairText(g.pad_h, g.pad_w));
  SY_CHECK(g.dilation_h > 0 && g.dilation_w > 0, op, ": expected 'dilation' to be positive but got ",
           pairText(g.dilation_h, g.dilation_w));
  SY_CHECK(g.pad_h <= g.kernel_h / 2 && g.pad_w <= g.kernel_w / 2, op, ": expected 'padding' ",
           pairText(g.pad_h, g.pad_w), " to be at most half of 'kernel_size' ", pairText(g.kernel_h, g.kernel_w));

  const bool shape_ok = (self.dim() == 3 || self.dim() == 4) && self.size(-3) != 0 && self.size(-2) != 0 &&
                        self.size(-1) != 0;
  SY_CHECK(shape_ok, op,
           ": expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with non-zero C, H and W but got size ",
           formatSizes(self.sizes()));
  const ScalarType dtype = self.scalar_type();
  if (!isFloatingType(dtype) && !isIntegralType(dtype, /*include_bool=*/false)) {
    detail::throwUnsupportedDtype(op, "self", dtype, kPoolDtypes);
  }
  g.unbatched = self.dim() == 3;
  g.batch = g.unbatched ? 1 : self.size(0);
  g.channels = self.size(-3);
  g.height = self.size(-2);
  g.width = self.size(-1);
  const std::optional<int64_t> out_h = pooledSize(g.height, g.kernel_h, g.pad_h, g.stride_h, g.dilation_h, ceil_mode);
  const std::optional<int64_t> out_w = pooledSize(g.width, g.kernel_w, g.pad_w, g.stride_w, g.dilation_w, ceil_mode);
  // See Note [Pooling arithmetic stays in range whatever the arguments].
  SY_CHECK_VALUE(out_h && out_w, op, ": 'kernel_size' ", pairText(g.kernel_h, g.kernel_w), " with 'dilation' ",
                 pairText(g.dilation_h, g.dilation_w), " and 'padding' ", pairText(g.pad_h, g.pad_w),
                 " overflow 64-bit sizes for an input of ", g.height, " x ", g.width);
  g.out_h = *out_h;
  g.out_w = *out_w;
  SY_CHECK(g.out_h > 0 && g.out_w > 0, op, ": the output would be empty (", g.out_h, " x ", g.out_w,
           ") for an input of ", g.height, " x ", g.width, " with kernel_size ", pairText(g.kernel_h, g.kernel_w),
           ", stride ", pairText(g.stride_h, g.stride_w), ", padding ", pairText(g.pad_h, g.pad_w),
           " and dilation ", pairText(g.dilation_h, g.dilation_w));
  return g;
}

// ---- Kernel offsets that reach the input -------------------------------------------------------

// The kernel rows [first, last) that put output row `oh` inside the input (See Note [Pooling
// arithmetic stays in range whatever the arguments]).
std::pair<int64_t, int64_t> kernelRows(const PoolGeometry& g, int64_t oh, int64_t dilation) {
  const int64_t start = oh * g.stride_h - g.pad_h;  // the window's first input row
  const int64_t first = std::max<int64_t>(0, nn_detail::ceilDiv(-start, dilation));
  const int64_t last = std::min(g.kernel_h, nn_detail::floorDiv(g.height - 1 - start, dilation) + 1);
  return {first, std::max(first, last)};
}

// One kernel column that reaches the input, with its input offset (kw * dilation - padding) and the
// output columns [first, last) from which it lands inside the input.
struct KernelColumn {
  int64_t offset, first, last;
};

// Every kernel column that lands inside the input from some output column, in increasing order;
// the others read only padding and are left out. For output column ow the kernel columns that
// land inside form one range, which moves right as ow decreases, so walking ow downwards lists
// their union once.
// Inline room for kernels up to 16 wide: no allocation in the kernel call for any usual window.
using KernelColumns = absl::InlinedVector<KernelColumn, 16>;
KernelColumns kernelColumns(const PoolGeometry& g, int64_t dilation) {
  KernelColumns columns;
  int64_t next = 0;  // the first kernel column not listed yet
  for (int64_t ow = g.out_w - 1; ow >= 0; --ow) {
    const int64_t start = ow * g.stride_w - g.pad_w;  // the window's first input column
    const int64_t last = std::min(g.kernel_w, nn_detail::floorDiv(g.width - 1 - start, dilation) + 1);
    for (int64_t kw = std::max(next, nn_detail::ceilDiv(-start, dilation)); kw < last; ++kw) {
      const int64_t offset = kw * dilation - g.pad_w;
      const auto [first, end] = validOutputRange(g.out_w, g.stride_w, offset, g.width);
      columns.push_back({offset, first, end});
    }
    next = std::max(next, last);
  }
  return columns;
}

// ---- max_pool2d ---------------------------------------------------------------------------------

// Writes each window's maximum to `out` and, when kWithIndices, its flat position in the plane to
// `indices` (-1 for a window that holds no input element).
template <class T, bool kWithIndices>
void maxPool(const PoolGeometry& g, const T* input, T* out, int64_t* indices) {
  const KernelColumns columns = kernelColumns(g, g.dilation_w);
  const T lowest = std::numeric_limits<T>::has_infinity ? static_cast<T>(-std::numeric_limits<T>::infinity())
                                                        : std::numeric_limits<T>::lowest();
  for (int64_t p = 0; p < g.planes(); ++p) {
    const T* plane = input + p * g.height * g.width;
    T* out_plane = out + p * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      T* __restrict row = out_plane + oh * g.out_w;
      std::fill(row, row + g.out_w, lowest);
      int64_t* __restrict index_row = nullptr;
      if constexpr (kWithIndices) {
        index_row = indices + (p * g.out_h + oh) * g.out_w;
        std::fill(index_row, index_row + g.out_w, int64_t{-1});
      }
      const auto [kh_first, kh_last] = kernelRows(g, oh, g.dilation_h);
      for (int64_t kh = kh_first; kh < kh_last; ++kh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
        const T* __restrict src = plane + ih * g.width;
        for (const auto& [offset, first, last] : columns) {
          for (int64_t ow = first; ow < last; ++ow) {
            const T x = src[ow * g.stride_w + offset];
            if constexpr (kWithIndices) {
              bool better = x > row[ow] || index_row[ow] < 0;
              if constexpr (is_floating_v<T>) better = better || std::isnan(x);
              if (better) {
                row[ow] = x;
                index_row[ow] = ih * g.width + ow * g.stride_w + offset;
              }
            } else if constexpr (is_floating_v<T>) {
              row[ow] = (x > row[ow] || std::isnan(x)) ? x : row[ow];
            } else {
              row[ow] = x > row[ow] ? x : row[ow];
            }
          }
        }
      }
    }
  }
}

Tensor& maxPoolInto(const char* op, const PoolGeometry& g, const Tensor& self, Tensor& out) {
  if (out.numel() == 0) return out;
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self}, [&](const Tensor& dst) {
    dispatchDtype<kPoolDtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      maxPool<T, false>(g, static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()), nullptr);
    });
  });
  return out;
}

void maxPoolWithIndicesInto(const char* op, const PoolGeometry& g, const Tensor& self, const Tensor& out,
                            const Tensor& indices) {
  if (out.numel() == 0) return;
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  const bool indices_direct = indices.is_contiguous() && !sameMemory(indices, self) &&
                              !sameMemory(indices, out);
  const Tensor index_dst = indices_direct ? indices : scratchTensor(op, indices.sizes(), ScalarType::Long);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self, &indices}, [&](const Tensor& dst) {
    dispatchDtype<kPoolDtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      maxPool<T, true>(g, static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()),
                       index_dst.data_ptr<int64_t>());
    });
  });
  if (!indices_direct) copyIntoCPU(op, indices, index_dst, "indices", "result");
}

// ---- avg_pool2d ---------------------------------------------------------------------------------

// One output index's window along one dimension: its size clipped to the padded input, and the
// number of input elements it covers.
struct WindowExtent {
  int64_t padded_size;
  int64_t input_count;
};

WindowExtent windowExtent(int64_t o, int64_t stride, int64_t pad, int64_t kernel, int64_t size) {
  const int64_t start = o * stride - pad;
  // min(start + kernel, size + pad), with size + pad - start <= size + 2 * pad, which fits.
  const int64_t end = start + std::min(kernel, size + pad - start);
  return {end - start, std::max<int64_t>(0, std::min(end, size) - std::max<int64_t>(start, 0))};
}

// The sum of integer elements wraps around (in unsigned arithmetic, where that is defined) and its
// division truncates toward zero as in PyTorch; INT64_MIN / -1 wraps to INT64_MIN.
int64_t truncatingDivide(int64_t sum, int64_t divisor) {
  if (divisor == -1) return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(sum));
  return sum / divisor;
}

template <class T>
void avgPool(const PoolGeometry& g, const T* input, T* out, bool count_include_pad,
             std::optional<int64_t> divisor_override) {
  using Acc = std::conditional_t<is_floating_v<T>, compute_type_t<T>, uint64_t>;
  const KernelColumns kernel_columns = kernelColumns(g, 1);
  Tensor columns_holder, sums_holder;
  WindowExtent* const columns = scratchArray<WindowExtent>("avg_pool2d", g.out_w, columns_holder);
  for (int64_t ow = 0; ow < g.out_w; ++ow) columns[ow] = windowExtent(ow, g.stride_w, g.pad_w, g.kernel_w, g.width);
  Acc* const sums_row = scratchArray<Acc>("avg_pool2d", g.out_w, sums_holder);

  for (int64_t p = 0; p < g.planes(); ++p) {
    const T* plane = input + p * g.height * g.width;
    T* out_plane = out + p * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      Acc* __restrict sum = sums_row;
      std::fill(sum, sum + g.out_w, Acc(0));
      const auto [kh_first, kh_last] = kernelRows(g, oh, 1);
      for (int64_t kh = kh_first; kh < kh_last; ++kh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh;
        const T* __restrict src = plane + ih * g.width;
        for (const auto& [offset, first, last] : kernel_columns) {
          for (int64_t ow = first; ow < last; ++ow) sum[ow] += static_cast<Acc>(src[ow * g.stride_w + offset]);
        }
      }
      const WindowExtent rows = windowExtent(oh, g.stride_h, g.pad_h, g.kernel_h, g.height);
      T* row = out_plane + oh * g.out_w;
      for (int64_t ow = 0; ow < g.out_w; ++ow) {
        if (rows.input_count == 0 || columns[ow].input_count == 0) {
          row[ow] = T(0);
          continue;
        }
        const int64_t divisor = divisor_override ? *divisor_override
                                : count_include_pad ? rows.padded_size * columns[ow].padded_size
                                                    : rows.input_count * columns[ow].input_count;
        if constexpr (is_floating_v<T>) {
          row[ow] = static_cast<T>(sum[ow] / static_cast<Acc>(divisor));
        } else {
          row[ow] = static_cast<T>(truncatingDivide(static_cast<int64_t>(sum[ow]), divisor));
        }
      }
    }
  }
}

// avg_pool2d's own checks: a non-zero divisor_override, and a window whose size (the default
// divisor, at most kernel_h * kernel_w) fits in int64_t.
void checkAvgPool(const char* op, const PoolGeometry& g, std::optional<int64_t> divisor_override) {
  SY_CHECK(!divisor_override || *divisor_override != 0, op, ": expected 'divisor_override' to be non-zero");
  int64_t window = 0;
  SY_CHECK_VALUE(checkedMul(g.kernel_h, g.kernel_w, &window), op, ": 'kernel_size' ",
                 pairText(g.kernel_h, g.kernel_w), " has more positions than fit in 64 bits");
}

Tensor& avgPoolInto(const char* op, const PoolGeometry& g, const Tensor& self, bool count_include_pad,
                    std::optional<int64_t> divisor_override, Tensor& out) {
  if (out.numel() == 0) return out;
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self}, [&](const Tensor& dst) {
    dispatchDtype<kPoolDtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      avgPool<T>(g, static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()), count_include_pad,
                 divisor_override);
    });
  });
  return out;
}

// `out` in the form `ctx` names: allocated with self's dtype (functional, one dispatched aten::empty),
// or the caller's out=, checked and resized.
void prepareOut(const KernelContext& ctx, const PoolGeometry& g, const Tensor& self, Tensor& out) {
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(g.outputSizes(), TensorOptions(self.scalar_type()).device(kCPU));
    return;
  }
  checkOnCPU(ctx.op, "out", out);
  checkCanCastToOutput(ctx.op, self.scalar_type(), out);
  resizeOutput(out, g.outputSizes());
  checkNoInternalOverlap(ctx.op, out, "out");
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

Tensor& max_pool2d_out_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, Tensor& out, const KernelContext& ctx) {
  const PoolGeometry g = checkPool2d(ctx.op, self, kernel_size, stride, padding, dilation, ceil_mode);
  prepareOut(ctx, g, self, out);
  return maxPoolInto(ctx.op, g, self, out);
}

std::tuple<Tensor&, Tensor&> max_pool2d_with_indices_out_cpu(const Tensor& self, IntArrayRef kernel_size,
                                                             IntArrayRef stride, IntArrayRef padding,
                                                             IntArrayRef dilation, bool ceil_mode, Tensor& out,
                                                             Tensor& indices, const KernelContext& ctx) {
  const char* op = ctx.op;
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  if (ctx.form == OutputForm::Functional) {
    prepareOut(ctx, g, self, out);
    indices = ops::empty(g.outputSizes(), TensorOptions(ScalarType::Long).device(kCPU));
  } else {
    checkOnCPU(op, "indices", indices);
    SY_CHECK(indices.scalar_type() == ScalarType::Long, op, ": expected 'indices' to have dtype Long but got ",
             indices.scalar_type());
    prepareOut(ctx, g, self, out);
    resizeOutput(indices, g.outputSizes());
    checkNoInternalOverlap(op, indices, "indices");
  }
  maxPoolWithIndicesInto(op, g, self, out, indices);
  return {out, indices};
}

Tensor& avg_pool2d_out_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override, Tensor& out,
                           const KernelContext& ctx) {
  const PoolGeometry g = checkPool2d(ctx.op, self, kernel_size, stride, padding, {1, 1}, ceil_mode);
  checkAvgPool(ctx.op, g, divisor_override);
  prepareOut(ctx, g, self, out);
  return avgPoolInto(ctx.op, g, self, count_include_pad, divisor_override, out);
}

}  // namespace native
}  // namespace sy::cpu
