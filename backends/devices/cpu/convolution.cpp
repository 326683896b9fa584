// aten::convolution and aten::convolution.out on the CPU: 2-D cross-correlation (what PyTorch calls
// convolution) with stride, zero padding, dilation and groups, for the floating dtypes (Half and
// BFloat16 convolve Float copies and round once).
//
// Semantics: input (N, C_in, H, W), or unbatched (C_in, H, W) giving an unbatched result (PyTorch
// accepts that in conv2d; accepting it here too lets conv2d stay a plain forwarding composite);
// weight (C_out, C_in / groups, kH, kW); optional bias (C_out). Input, weight and bias share one
// floating dtype, which is the result's. stride, padding and dilation are one value or (h, w).
// output_padding only matters for transposed convolutions and is ignored otherwise, as in PyTorch.
// NaN and infinity propagate through the sums as IEEE says. 1-D, 3-D and transposed convolutions
// go to convolution_nd.cpp (convolutionNdOut); this file keeps the 2-D fast path.
//
// Algorithm: per (batch, group), the output positions are processed in tiles. Each tile's input
// patches are unfolded into a (C_in/groups * kH * kW) x tile matrix (im2col, zeros for padding) and
// multiplied by the group's weight rows, four output channels at a time, with the inner loop over
// contiguous output positions so it vectorises. A tile is sized to stay in L2, so the unfolded
// matrix never exists whole. 1x1 convolutions with stride 1 and no padding skip the unfolding and
// read the input directly.
#include <algorithm>
#include <cstring>
#include <vector>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::cpu {
namespace {

using nn_detail::heightWidthPair;
using nn_detail::presentTensor;

struct ConvGeometry {
  bool unbatched = false;
  int64_t batch = 0, in_channels = 0, height = 0, width = 0;
  int64_t out_channels = 0, kernel_h = 0, kernel_w = 0;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
  int64_t groups = 1;
  int64_t out_h = 0, out_w = 0;

  int64_t inChannelsPerGroup() const { return in_channels / groups; }
  int64_t outChannelsPerGroup() const { return out_channels / groups; }
  // Rows of the unfolded input: one per (input channel of the group, kernel row, kernel column).
  int64_t patchLength() const { return inChannelsPerGroup() * kernel_h * kernel_w; }
  bool readsInputDirectly() const {
    return kernel_h == 1 && kernel_w == 1 && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
  }
  SizesVector outputSizes() const {
    if (unbatched) return {out_channels, out_h, out_w};
    return {batch, out_channels, out_h, out_w};
  }
};

void checkSameDtype(const char* op, const char* argument, const Tensor& t, ScalarType expected) {
  SY_CHECK(t.scalar_type() == expected, op, ": expected '", argument, "' to have the same dtype as 'input' (",
           expected, ") but got ", t.scalar_type());
}

// Every argument check, and the output geometry; raises naming the operator and the argument.
ConvGeometry checkConvolution(const char* op, const Tensor& input, const Tensor& weight, const Tensor* bias,
                              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                              int64_t groups) {
  checkOnCPU(op, "input", input);
  checkOnCPU(op, "weight", weight);
  if (bias != nullptr) checkOnCPU(op, "bias", *bias);
  SY_CHECK(!transposed, op, ": the 2-D path takes no transposed convolution (convolutionNdOut does)");
  SY_CHECK(weight.dim() == 4, op,
           ": only 2-D convolution is supported: expected 'weight' to be a 4-D tensor (out_channels, "
           "in_channels / groups, kH, kW) but got a ",
           weight.dim(), "-D tensor");
  SY_CHECK(input.dim() == 4 || input.dim() == 3, op,
           ": expected 'input' to be a 4-D (N, C, H, W) or 3-D unbatched (C, H, W) tensor but got a ", input.dim(),
           "-D tensor");
  SY_CHECK(isFloatingType(input.scalar_type()), op,
           ": expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got ", input.scalar_type());
  checkSameDtype(op, "weight", weight, input.scalar_type());
  if (bias != nullptr) checkSameDtype(op, "bias", *bias, input.scalar_type());

  ConvGeometry g;
  g.unbatched = input.dim() == 3;
  const int64_t first_spatial = g.unbatched ? 1 : 2;
  g.batch = g.unbatched ? 1 : input.size(0);
  g.in_channels = input.size(first_spatial - 1);
  g.height = input.size(first_spatial);
  g.width = input.size(first_spatial + 1);
  g.out_channels = weight.size(0);
  g.kernel_h = weight.size(2);
  g.kernel_w = weight.size(3);
  std::tie(g.stride_h, g.stride_w) = heightWidthPair(op, "stride", stride);
  std::tie(g.pad_h, g.pad_w) = heightWidthPair(op, "padding", padding);
  std::tie(g.dilation_h, g.dilation_w) = heightWidthPair(op, "dilation", dilation);
  g.groups = groups;

  SY_CHECK(g.stride_h > 0 && g.stride_w > 0, op, ": expected 'stride' to be positive but got (", g.stride_h, ", ",
           g.stride_w, ")");
  SY_CHECK(g.pad_h >= 0 && g.pad_w >= 0, op, ": expected 'padding' to be non-negative but got (", g.pad_h, ", ",
           g.pad_w, ")");
  SY_CHECK(g.dilation_h > 0 && g.dilation_w > 0, op, ": expected 'dilation' to be positive but got (", g.dilation_h,
           ", ", g.dilation_w, ")");
  SY_CHECK(groups > 0, op, ": expected 'groups' to be positive but got ", groups);
  SY_CHECK(g.kernel_h > 0 && g.kernel_w > 0, op, ": expected 'weight' to have a non-empty kernel but got size ",
           formatSizes(weight.sizes()));
  SY_CHECK(g.out_channels % groups == 0, op, ": expected the out_channels of 'weight' (", g.out_channels,
           ") to be divisible by groups (", groups, ")");
  int64_t expected_channels = 0;
  SY_CHECK_VALUE(checkedMul(weight.size(1), groups, &expected_channels), op, ": 'groups' (", groups,
                 ") times the in_channels / groups of 'weight' (", weight.size(1), ") overflows 64-bit sizes");
  SY_CHECK(expected_channels == g.in_channels, op, ": expected 'input' to have ", expected_channels,
           " channels (weight.size(1) = ", weight.size(1), " times groups = ", groups, ") but got ", g.in_channels,
           " channels; input size ", formatSizes(input.sizes()), ", weight size ", formatSizes(weight.sizes()));
  if (bias != nullptr) {
    SY_CHECK(bias->dim() == 1 && bias->size(0) == g.out_channels, op, ": expected 'bias' to be a 1-D tensor with ",
             g.out_channels, " elements (out_channels) but got size ", formatSizes(bias->sizes()));
  }

  // The padded input and the dilated kernel, checked: padding and dilation are arguments (a
  // program's, a model's), and every position the loops compute lies within these two extents.
  int64_t padded_h = 0, padded_w = 0, dilated_h = 0, dilated_w = 0;
  SY_CHECK_VALUE(checkedMul(g.pad_h, 2, &padded_h) && checkedAdd(padded_h, g.height, &padded_h) &&
                     checkedMul(g.pad_w, 2, &padded_w) && checkedAdd(padded_w, g.width, &padded_w),
                 op, ": 'padding' (", g.pad_h, ", ", g.pad_w, ") overflows 64-bit sizes for an input of ", g.height,
                 " x ", g.width);
  SY_CHECK_VALUE(checkedMul(g.dilation_h, g.kernel_h - 1, &dilated_h) && checkedAdd(dilated_h, 1, &dilated_h) &&
                     checkedMul(g.dilation_w, g.kernel_w - 1, &dilated_w) && checkedAdd(dilated_w, 1, &dilated_w),
                 op, ": 'dilation' (", g.dilation_h, ", ", g.dilation_w, ") overflows 64-bit sizes for a kernel of ",
                 g.kernel_h, " x ", g.kernel_w);
  SY_CHECK(padded_h >= dilated_h && padded_w >= dilated_w, op, ": the padded input (", padded_h, " x ", padded_w,
           ") is smaller than the dilated kernel (", dilated_h, " x ", dilated_w, "); input size ",
           formatSizes(input.sizes()), ", weight size ", formatSizes(weight.sizes()));
  g.out_h = (padded_h - dilated_h) / g.stride_h + 1;
  g.out_w = (padded_w - dilated_w) / g.stride_w + 1;
  return g;
}

// out[r][j] = bias[r] + sum_k weight[r][k] * columns[k][j] for Rows rows and `count` columns.
// Several output rows per pass reuse each loaded column element Rows times.
template <int Rows, class T>
void multiplyRows(const T* weight, int64_t depth, const T* columns, int64_t columns_stride, const T* bias, T* out,
                  int64_t out_stride, int64_t count) {
  T* __restrict rows[Rows];
  for (int r = 0; r < Rows; ++r) {
    rows[r] = out + r * out_stride;
    const T initial = bias != nullptr ? bias[r] : T(0);
    std::fill(rows[r], rows[r] + count, initial);
  }
  for (int64_t k = 0; k < depth; ++k) {
    const T* __restrict column = columns + k * columns_stride;
    T factor[Rows];
    for (int r = 0; r < Rows; ++r) factor[r] = weight[r * depth + k];
    for (int64_t j = 0; j < count; ++j) {
      const T x = column[j];
      for (int r = 0; r < Rows; ++r) rows[r][j] += factor[r] * x;
    }
  }
}

template <class T>
void multiplyTile(const T* weight, int64_t out_rows, int64_t depth, const T* columns, int64_t columns_stride,
                  const T* bias, T* out, int64_t out_stride, int64_t count) {
  int64_t r = 0;
  for (; r + 4 <= out_rows; r += 4) {
    multiplyRows<4>(weight + r * depth, depth, columns, columns_stride, bias ? bias + r : nullptr,
                    out + r * out_stride, out_stride, count);
  }
  for (; r < out_rows; ++r) {
    multiplyRows<1>(weight + r * depth, depth, columns, columns_stride, bias ? bias + r : nullptr,
                    out + r * out_stride, out_stride, count);
  }
}

// Unfolds the input patches of output positions [first, first + count) of one group into
// `columns` (patchLength() rows of `count`), with zeros where a patch reaches into the padding.
template <class T>
void unfoldPatches(const ConvGeometry& g, const T* group_input, int64_t first, int64_t count, T* columns) {
  const int64_t plane = g.height * g.width;
  T* row = columns;
  for (int64_t c = 0; c < g.inChannelsPerGroup(); ++c) {
    const T* channel = group_input + c * plane;
    for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
      for (int64_t kw = 0; kw < g.kernel_w; ++kw, row += count) {
        const int64_t w_offset = kw * g.dilation_w - g.pad_w;
        const auto [valid_first, valid_last] = nn_detail::validOutputRange(g.out_w, g.stride_w, w_offset, g.width);
        int64_t position = first;
        for (int64_t j = 0; j < count;) {
          const int64_t oh = position / g.out_w, ow_begin = position % g.out_w;
          const int64_t ow_end = std::min(g.out_w, ow_begin + (count - j));
          T* dst = row + j;  // dst[ow - ow_begin] is this row's element for output column ow
          const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
          if (ih < 0 || ih >= g.height) {
            std::fill(dst, dst + (ow_end - ow_begin), T(0));
          } else {
            const T* src = channel + ih * g.width;  // src[ow * stride_w + w_offset] is the input element
            const int64_t body_begin = std::clamp(valid_first, ow_begin, ow_end);
            const int64_t body_end = std::clamp(valid_last, body_begin, ow_end);
            std::fill(dst, dst + (body_begin - ow_begin), T(0));
            if (body_end > body_begin && g.stride_w == 1) {
              std::copy(src + body_begin + w_offset, src + body_end + w_offset, dst + (body_begin - ow_begin));
            } else {
              for (int64_t ow = body_begin; ow < body_end; ++ow) dst[ow - ow_begin] = src[ow * g.stride_w + w_offset];
            }
            std::fill(dst + (body_end - ow_begin), dst + (ow_end - ow_begin), T(0));
          }
          j += ow_end - ow_begin;
          position += ow_end - ow_begin;
        }
      }
    }
  }
}

template <class T>
void convolve(const ConvGeometry& g, const T* input, const T* weight, const T* bias, T* out) {
  const int64_t positions = g.out_h * g.out_w;
  const int64_t depth = g.patchLength();
  const int64_t in_per_group = g.inChannelsPerGroup() * g.height * g.width;
  const int64_t out_rows = g.outChannelsPerGroup();
  // Tiles of output positions whose unfolded patches take about 256 KiB.
  constexpr int64_t kTileBytes = int64_t{1} << 18;
  const int64_t tile = std::clamp<int64_t>(kTileBytes / std::max<int64_t>(1, depth * int64_t(sizeof(T))), 32, 1024);
  Tensor columns_holder;
  T* const columns =
      g.readsInputDirectly() ? nullptr : scratchArray<T>("convolution", depth * std::min(tile, positions), columns_holder);

  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* group_input = input + (n * g.groups + grp) * in_per_group;
      const T* group_weight = weight + grp * out_rows * depth;
      const T* group_bias = bias != nullptr ? bias + grp * out_rows : nullptr;
      T* group_out = out + (n * g.groups + grp) * out_rows * positions;
      for (int64_t first = 0; first < positions; first += tile) {
        const int64_t count = std::min(tile, positions - first);
        if (g.readsInputDirectly()) {
          multiplyTile(group_weight, out_rows, depth, group_input + first, positions, group_bias, group_out + first,
                       positions, count);
        } else {
          unfoldPatches(g, group_input, first, count, columns);
          multiplyTile(group_weight, out_rows, depth, columns, count, group_bias, group_out + first, positions,
                       count);
        }
      }
    }
  }
}

// Writes the convolution into `out`, which already has the output shape.
void runConvolution(const char* op, const ConvGeometry& g, const Tensor& input, const Tensor& weight,
                    const Tensor* bias, const Tensor& out) {
  if (out.numel() == 0) return;
  // See Note [Accumulating kernels compute reduced floats on Float copies] in elementwise.h.
  checkDtypeSupported(op, "input", input.scalar_type(), native::convolution_out_cpu_dtypes);
  const ScalarType dtype = computeDtypeOf(input.scalar_type());
  const Tensor dense_input = nn_detail::contiguousCopyIfNeeded(op, "input", input, dtype);
  const Tensor dense_weight = nn_detail::contiguousCopyIfNeeded(op, "weight", weight, dtype);
  const Tensor dense_bias = bias != nullptr ? nn_detail::contiguousCopyIfNeeded(op, "bias", *bias, dtype) : Tensor();
  nn_detail::computeIntoDenseOutput(op, out, dtype, {&input, &weight, bias}, [&](const Tensor& dst) {
    // dtype set: the compute dtype: Half and BFloat16 inputs compute on Float copies.
    dispatchDtype<kFullFloatingDtypes>(dtype, op, "input", [&](auto tag) {
      using T = typename decltype(tag)::type;
      convolve<T>(g, static_cast<const T*>(dense_input.data_ptr()), static_cast<const T*>(dense_weight.data_ptr()),
                  dense_bias.defined() ? static_cast<const T*>(dense_bias.data_ptr()) : nullptr,
                  static_cast<T*>(dst.data_ptr()));
    });
  });
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

Tensor& convolution_out_cpu(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                            IntArrayRef output_padding, int64_t groups, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const Tensor* bias_tensor = presentTensor(bias);
  if (transposed || weight.dim() != 4) {
    return convolutionNdOut(op, ctx.form, input, weight, bias_tensor, stride, padding, dilation, transposed,
                            output_padding, groups, out);
  }
  const ConvGeometry g = checkConvolution(op, input, weight, bias_tensor, stride, padding, dilation, transposed, groups);
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(g.outputSizes(), TensorOptions(input.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
    checkCanCastToOutput(op, input.scalar_type(), out);
    resizeOutput(out, g.outputSizes());
    checkNoInternalOverlap(op, out, "out");
  }
  runConvolution(op, g, input, weight, bias_tensor, out);
  return out;
}

}  // namespace native

namespace {

// aten::conv2d, CompositeImplicit as in PyTorch: aten::convolution with conv2d's arguments,
// dispatched, so every backend, tracer and fallback sees the primitive.
Tensor conv2dComposite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                       IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  // output_padding only means something for transposed convolutions; zeros, as PyTorch's conv2d passes.
  return ops::convolution(input, weight, bias, stride, padding, dilation, /*transposed=*/false,
                          /*output_padding=*/{0, 0}, groups);
}

}  // namespace
}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  m.impl("conv2d", SY_FN(sy::cpu::conv2dComposite));
}
