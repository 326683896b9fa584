// aten::convolution.out on the CPU for what the 2-D kernel in convolution.cpp does not take: 1-D and
// 3-D convolutions, and transposed convolutions of 1, 2 or 3 spatial dimensions, with stride, zero
// padding, dilation, groups and (transposed) output_padding, for Float and Double.
//
// Semantics, as PyTorch's aten::convolution: a convolution of k spatial dimensions has a weight of
// k + 2 dimensions, (C_out, C_in / groups, kernel...) or, transposed, (C_in, C_out / groups,
// kernel...); the input has k + 2 dimensions (N, C_in, spatial...) or k + 1 (unbatched, giving an
// unbatched result). stride, padding, dilation and output_padding take one value for every
// dimension or one each. A convolution's output size is
// (in + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1; a transposed convolution's is
// (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1, and
// output_padding must be smaller than the stride or the dilation (PyTorch's rule). output_padding
// is ignored when not transposed, as in PyTorch.
//
// Algorithm: direct loops over three spatial dimensions (1-D and 2-D problems get leading
// dimensions of size 1), kernel position outside, output (or, transposed, input) positions inside,
// the innermost range cut to the positions that stay inside the input (or output) so it has no
// branch. A transposed convolution scatters each input element times the kernel into the output.
// As in the 2-D kernel (and PyTorch's im2col kernels), the zero padding is multiplied like any
// input: a non-finite weight makes NaN where it meets the padding (0 x inf); the loops skip the
// padding and add those NaNs apart, only for a non-finite weight.
#include <algorithm>
#include <array>
#include <cmath>

#include "switchyard/backends/devices/cpu/conv_geometry.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// out[o] += w * in[i] along one spatial line, for the `o` (forward: output positions) whose
// i = o * stride + offset lies in [0, in_size).
template <class T>
inline void gatherConvNdLine(T* __restrict out, const T* __restrict in, T w, int64_t count, int64_t stride, int64_t offset,
                       int64_t in_size) {
  const auto [first, last] = nn_detail::validOutputRange(count, stride, offset, in_size);
  if (stride == 1) {
    for (int64_t o = first; o < last; ++o) out[o] += w * in[o + offset];
  } else {
    for (int64_t o = first; o < last; ++o) out[o] += w * in[o * stride + offset];
  }
}

// out[i * stride + offset] += w * in[i] for the input positions i whose target lies in the output.
template <class T>
inline void scatterConvNdLine(T* __restrict out, const T* __restrict in, T w, int64_t count, int64_t stride, int64_t offset,
                        int64_t out_size) {
  const auto [first, last] = nn_detail::validOutputRange(count, stride, offset, out_size);
  for (int64_t i = first; i < last; ++i) out[i * stride + offset] += w * in[i];
}

// y[o] += weight * 0 for every output position o whose input position under this kernel offset
// lies in the padding (called for a non-finite weight only, where the product is NaN).
template <class T>
void multiplyConvNdPadding(const ConvNdGeometry& g, T weight, int64_t off_d, int64_t off_h, int64_t off_w, T* y) {
  const T product = weight * T(0);
  auto inside = [](int64_t position, int64_t size) { return position >= 0 && position < size; };
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const bool d_in = inside(od * g.stride[0] + off_d, g.in[0]);
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const bool h_in = inside(oh * g.stride[1] + off_h, g.in[1]);
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
        if (!(d_in && h_in && inside(ow * g.stride[2] + off_w, g.in[2]))) y[o] += product;
      }
    }
  }
}

// One (input channel plane, kernel, output channel plane) product: forward gathers, transposed
// scatters, over the three spatial dimensions.
template <class T>
void convolveConvNdPlane(const ConvNdGeometry& g, const T* x, const T* w, T* y) {
  const int64_t in_row = g.in[2], in_slice = g.in[1] * g.in[2];
  const int64_t out_row = g.out[2], out_slice = g.out[1] * g.out[2];
  for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
    for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
      for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
        const T weight = w[(kd * g.kernel[1] + kh) * g.kernel[2] + kw];
        const int64_t off_d = kd * g.dilation[0] - g.pad[0];
        const int64_t off_h = kh * g.dilation[1] - g.pad[1];
        const int64_t off_w = kw * g.dilation[2] - g.pad[2];
        if (!g.transposed) {
          if (!std::isfinite(weight)) multiplyConvNdPadding(g, weight, off_d, off_h, off_w, y);
          const auto [d0, d1] = nn_detail::validOutputRange(g.out[0], g.stride[0], off_d, g.in[0]);
          const auto [h0, h1] = nn_detail::validOutputRange(g.out[1], g.stride[1], off_h, g.in[1]);
          for (int64_t od = d0; od < d1; ++od) {
            const int64_t id = od * g.stride[0] + off_d;
            for (int64_t oh = h0; oh < h1; ++oh) {
              const int64_t ih = oh * g.stride[1] + off_h;
              gatherConvNdLine(y + od * out_slice + oh * out_row, x + id * in_slice + ih * in_row, weight, g.out[2],
                         g.stride[2], off_w, g.in[2]);
            }
          }
        } else {
          const auto [d0, d1] = nn_detail::validOutputRange(g.in[0], g.stride[0], off_d, g.out[0]);
          const auto [h0, h1] = nn_detail::validOutputRange(g.in[1], g.stride[1], off_h, g.out[1]);
          for (int64_t id = d0; id < d1; ++id) {
            const int64_t od = id * g.stride[0] + off_d;
            for (int64_t ih = h0; ih < h1; ++ih) {
              const int64_t oh = ih * g.stride[1] + off_h;
              scatterConvNdLine(y + od * out_slice + oh * out_row, x + id * in_slice + ih * in_row, weight, g.in[2],
                          g.stride[2], off_w, g.out[2]);
            }
          }
        }
      }
    }
  }
}

template <class T>
void convolveNd(const ConvNdGeometry& g, const T* input, const T* weight, const T* bias, T* out) {
  const int64_t in_per_group = g.in_channels / g.groups, out_per_group = g.out_channels / g.groups;
  const int64_t in_volume = g.inVolume(), out_volume = g.outVolume(), kernel_volume = g.kernelVolume();
  for (int64_t n = 0; n < g.batch; ++n) {
    T* sample_out = out + n * g.out_channels * out_volume;
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      std::fill(sample_out + oc * out_volume, sample_out + (oc + 1) * out_volume, bias != nullptr ? bias[oc] : T(0));
    }
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      for (int64_t ic = 0; ic < in_per_group; ++ic) {
        const int64_t in_channel = grp * in_per_group + ic;
        const T* x = input + (n * g.in_channels + in_channel) * in_volume;
        for (int64_t oc = 0; oc < out_per_group; ++oc) {
          const int64_t out_channel = grp * out_per_group + oc;
          // Forward weight: (C_out, C_in / groups, kernel); transposed: (C_in, C_out / groups, kernel).
          const int64_t w_index = g.transposed ? in_channel * out_per_group + oc : out_channel * in_per_group + ic;
          convolveConvNdPlane(g, x, weight + w_index * kernel_volume, sample_out + out_channel * out_volume);
        }
      }
    }
  }
}

}  // namespace

Tensor& convolutionNdOut(const char* op, OutputForm form, const Tensor& input, const Tensor& weight, const Tensor* bias,
                         IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                         IntArrayRef output_padding, int64_t groups, Tensor& out) {
  const ConvNdGeometry g =
      checkConvolutionNd(op, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
  if (form == OutputForm::Functional) {
    out = ops::empty(g.outputSizes(), TensorOptions(input.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
    checkCanCastToOutput(op, input.scalar_type(), out);
    resizeOutput(out, g.outputSizes());
    checkNoInternalOverlap(op, out, "out");
  }
  if (out.numel() == 0) return out;
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
      convolveNd<T>(g, static_cast<const T*>(dense_input.data_ptr()), static_cast<const T*>(dense_weight.data_ptr()),
                    dense_bias.defined() ? static_cast<const T*>(dense_bias.data_ptr()) : nullptr,
                    static_cast<T*>(dst.data_ptr()));
    });
  });
  return out;
}

}  // namespace sy::cpu
