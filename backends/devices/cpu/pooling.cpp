// aten::max_pool2d, aten::max_pool2d_with_indices and aten::avg_pool2d (and their out= forms) on
// the CPU, for Int, Long, Float and Double inputs of shape (N, C, H, W) or unbatched (C, H, W); the
// result has self's dtype.
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
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

using nn_detail::heightWidthPair;
using nn_detail::validOutputRange;

constexpr unsigned kPoolDtypes = kIntegralDtypes | kFloatingDtypes;

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

int64_t pooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  const int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = nn_detail::floorDiv(span, stride) + 1;
  // The last ceil_mode window must start inside the input or the left padding.
  if (ceil_mode && out > 0 && (out - 1) * stride >= in + pad) --out;
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
  g.out_h = pooledSize(g.height, g.kernel_h, g.pad_h, g.stride_h, g.dilation_h, ceil_mode);
  g.out_w = pooledSize(g.width, g.kernel_w, g.pad_w, g.stride_w, g.dilation_w, ceil_mode);
  SY_CHECK(g.out_h > 0 && g.out_w > 0, op, ": the output would be empty (", g.out_h, " x ", g.out_w,
           ") for an input of ", g.height, " x ", g.width, " with kernel_size ", pairText(g.kernel_h, g.kernel_w),
           ", stride ", pairText(g.stride_h, g.stride_w), ", padding ", pairText(g.pad_h, g.pad_w),
           " and dilation ", pairText(g.dilation_h, g.dilation_w));
  return g;
}

// ---- max_pool2d ---------------------------------------------------------------------------------

// Writes each window's maximum to `out` and, when kWithIndices, its flat position in the plane to
// `indices` (-1 for a window that holds no input element).
template <class T, bool kWithIndices>
void maxPool(const PoolGeometry& g, const T* input, T* out, int64_t* indices) {
  // Per kernel column, the output columns whose input column is inside the input.
  std::vector<std::pair<int64_t, int64_t>> valid_columns(static_cast<size_t>(g.kernel_w));
  for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
    valid_columns[kw] = validOutputRange(g.out_w, g.stride_w, kw * g.dilation_w - g.pad_w, g.width);
  }
  const T lowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
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
      for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
        if (ih < 0 || ih >= g.height) continue;
        const T* __restrict src = plane + ih * g.width;
        for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
          const int64_t offset = kw * g.dilation_w - g.pad_w;
          const auto [first, last] = valid_columns[kw];
          for (int64_t ow = first; ow < last; ++ow) {
            const T x = src[ow * g.stride_w + offset];
            if constexpr (kWithIndices) {
              bool better = x > row[ow] || index_row[ow] < 0;
              if constexpr (std::is_floating_point_v<T>) better = better || std::isnan(x);
              if (better) {
                row[ow] = x;
                index_row[ow] = ih * g.width + ow * g.stride_w + offset;
              }
            } else if constexpr (std::is_floating_point_v<T>) {
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
  const Tensor index_dst = indices_direct ? indices : sy::empty(indices.sizes(), ScalarType::Long);
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
  const int64_t end = std::min(start + kernel, size + pad);
  return {end - start, std::max<int64_t>(0, std::min(end, size) - std::max<int64_t>(start, 0))};
}

template <class T>
void avgPool(const PoolGeometry& g, const T* input, T* out, bool count_include_pad,
             std::optional<int64_t> divisor_override) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
  std::vector<std::pair<int64_t, int64_t>> valid_columns(static_cast<size_t>(g.kernel_w));
  for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
    valid_columns[kw] = validOutputRange(g.out_w, g.stride_w, kw - g.pad_w, g.width);
  }
  std::vector<WindowExtent> columns(static_cast<size_t>(g.out_w));
  for (int64_t ow = 0; ow < g.out_w; ++ow) columns[ow] = windowExtent(ow, g.stride_w, g.pad_w, g.kernel_w, g.width);
  std::vector<Acc> sums(static_cast<size_t>(g.out_w));

  for (int64_t p = 0; p < g.planes(); ++p) {
    const T* plane = input + p * g.height * g.width;
    T* out_plane = out + p * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      Acc* __restrict sum = sums.data();
      std::fill(sum, sum + g.out_w, Acc(0));
      for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh;
        if (ih < 0 || ih >= g.height) continue;
        const T* __restrict src = plane + ih * g.width;
        for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
          const int64_t offset = kw - g.pad_w;
          const auto [first, last] = valid_columns[kw];
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
        row[ow] = static_cast<T>(sum[ow] / static_cast<Acc>(divisor));
      }
    }
  }
}

void checkDivisorOverride(const char* op, std::optional<int64_t> divisor_override) {
  SY_CHECK(!divisor_override || *divisor_override != 0, op, ": expected 'divisor_override' to be non-zero");
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

Tensor allocatePoolResult(const PoolGeometry& g, const Tensor& self) {
  return ops::empty(g.outputSizes(), TensorOptions(self.scalar_type()).device(kCPU));
}

void prepareOut(const char* op, const PoolGeometry& g, const Tensor& self, const Tensor& out) {
  checkOnCPU(op, "out", out);
  checkCanCastToOutput(op, self.scalar_type(), out);
  resizeOutput(out, g.outputSizes());
  checkNoInternalOverlap(op, out, "out");
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

// The functional kernels call the out= implementation directly, so each costs two dispatches
// (itself and its aten::empty).
Tensor max_pool2d_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                      IntArrayRef dilation, bool ceil_mode) {
  constexpr const char* op = "aten::max_pool2d";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  Tensor out = allocatePoolResult(g, self);
  maxPoolInto(op, g, self, out);
  return out;
}

Tensor& max_pool2d_out_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, Tensor& out) {
  constexpr const char* op = "aten::max_pool2d.out";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  prepareOut(op, g, self, out);
  return maxPoolInto(op, g, self, out);
}

std::tuple<Tensor, Tensor> max_pool2d_with_indices_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                       IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  constexpr const char* op = "aten::max_pool2d_with_indices";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  Tensor out = allocatePoolResult(g, self);
  Tensor indices = ops::empty(g.outputSizes(), TensorOptions(ScalarType::Long).device(kCPU));
  maxPoolWithIndicesInto(op, g, self, out, indices);
  return {out, indices};
}

std::tuple<Tensor&, Tensor&> max_pool2d_with_indices_out_cpu(const Tensor& self, IntArrayRef kernel_size,
                                                             IntArrayRef stride, IntArrayRef padding,
                                                             IntArrayRef dilation, bool ceil_mode, Tensor& out,
                                                             Tensor& indices) {
  constexpr const char* op = "aten::max_pool2d_with_indices.out";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, dilation, ceil_mode);
  checkOnCPU(op, "indices", indices);
  SY_CHECK(indices.scalar_type() == ScalarType::Long, op, ": expected 'indices' to have dtype Long but got ",
           indices.scalar_type());
  prepareOut(op, g, self, out);
  resizeOutput(indices, g.outputSizes());
  checkNoInternalOverlap(op, indices, "indices");
  maxPoolWithIndicesInto(op, g, self, out, indices);
  return {out, indices};
}

Tensor avg_pool2d_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                      bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  constexpr const char* op = "aten::avg_pool2d";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, {1, 1}, ceil_mode);
  checkDivisorOverride(op, divisor_override);
  Tensor out = allocatePoolResult(g, self);
  avgPoolInto(op, g, self, count_include_pad, divisor_override, out);
  return out;
}

Tensor& avg_pool2d_out_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override,
                           Tensor& out) {
  constexpr const char* op = "aten::avg_pool2d.out";
  const PoolGeometry g = checkPool2d(op, self, kernel_size, stride, padding, {1, 1}, ceil_mode);
  checkDivisorOverride(op, divisor_override);
  prepareOut(op, g, self, out);
  return avgPoolInto(op, g, self, count_include_pad, divisor_override, out);
}

}  // namespace native
}  // namespace sy::cpu
