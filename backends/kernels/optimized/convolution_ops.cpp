// The optimized 2-D convolution (aten::convolution, functional and out=; conv2d reaches it through
// its composite) on Float tensors in contiguous layout: per image and group, the input patches are
// unfolded into a matrix (im2col, zeros for the padding) and multiplied by the group's filters with
// OpenBLAS's sgemm (blas_gemm.h). A 1x1 convolution with stride 1 and no padding multiplies the
// input directly. The unfolded matrix is built a band of output rows at a time, so it never takes
// more than kColumnsBudget bytes. Other stride-1 convolutions on a CPU with AVX2 or AVX-512 run the
// direct convolution (direct_convolution.h), which unfolds nothing, when their geometry pays.
//
// Semantics are the portable kernel's (backends/devices/cpu/convolution.cpp): input (N, C, H, W) or
// unbatched (C, H, W), weight (C_out, C / groups, kH, kW), optional bias (C_out), stride, zero
// padding, dilation (one value or (h, w)) and groups. Transposed convolutions, other layouts, an
// out= that is not contiguous or shares memory with an input, arguments the portable kernel would
// reject and sizes too large for BLAS's integers (see Note [BLAS sizes are checked, never
// narrowed]) are handed on to the portable kernel (partial_kernel_decline.h), which raises the
// errors.
#include "NativeFunctions.h"

#include <algorithm>
#include <optional>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/kernels/optimized/blas_gemm.h"
#include "switchyard/backends/kernels/optimized/direct_convolution.h"
#include "switchyard/backends/kernels/optimized/flat_tensors.h"
#include "switchyard/backends/kernels/optimized/partial_kernel_decline.h"
#include "switchyard/backends/kernels/optimized/scratch.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::optimized {
namespace {

constexpr int64_t kColumnsBudget = int64_t{8} << 20;  // bytes of unfolded patches at a time

struct Conv {
  bool unbatched = false;
  int64_t batch = 1, channels = 0, height = 0, width = 0;
  int64_t out_channels = 0, kernel_h = 0, kernel_w = 0, groups = 1;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
  int64_t out_h = 0, out_w = 0;
  // The product per image and group: (out_channels / groups) x depth times depth x positions.
  int64_t filters = 0, depth = 0, positions = 0;
  const Tensor* bias = nullptr;

  bool direct() const {
    return kernel_h == 1 && kernel_w == 1 && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
  }
  SizesVector outputSizes() const {
    if (unbatched) return {out_channels, out_h, out_w};
    return {batch, out_channels, out_h, out_w};
  }
};

// (h, w) from a list of one or two values, each in [low, 2^31): nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> pairOf(IntArrayRef values, int64_t low) {
  if (values.size() != 1 && values.size() != 2) return std::nullopt;
  const int64_t h = values[0], w = values.size() == 2 ? values[1] : values[0];
  if (!fitsBlasInt({h - low, w - low})) return std::nullopt;
  return std::pair{h, w};
}

// The output extent of one spatial dimension, or -1 when the kernel does not fit in the padded
// input. Every operand is below 2^31, so nothing here overflows int64_t.
int64_t outputExtent(int64_t size, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation) {
  const int64_t padded = size + 2 * pad, reach = dilation * (kernel - 1) + 1;
  return padded < reach ? -1 : (padded - reach) / stride + 1;
}

// The geometry of a call the kernel takes, or nullopt.
std::optional<Conv> planConvolution(const Tensor& input, const Tensor& weight, const Tensor* bias, IntArrayRef stride,
                                    IntArrayRef padding, IntArrayRef dilation, bool transposed, int64_t groups) {
  if (transposed || !isFlatCpuFloat(input) || !isFlatCpuFloat(weight) || weight.dim() != 4) return std::nullopt;
  if (input.dim() != 3 && input.dim() != 4) return std::nullopt;
  const auto s = pairOf(stride, 1), p = pairOf(padding, 0), d = pairOf(dilation, 1);
  if (!s || !p || !d || groups < 1) return std::nullopt;
  Conv c;
  c.unbatched = input.dim() == 3;
  const int64_t first = c.unbatched ? 0 : 1;
  c.batch = c.unbatched ? 1 : input.size(0);
  c.channels = input.size(first);
  c.height = input.size(first + 1);
  c.width = input.size(first + 2);
  c.out_channels = weight.size(0);
  c.kernel_h = weight.size(2);
  c.kernel_w = weight.size(3);
  c.groups = groups;
  std::tie(c.stride_h, c.stride_w) = *s;
  std::tie(c.pad_h, c.pad_w) = *p;
  std::tie(c.dilation_h, c.dilation_w) = *d;
  if (c.kernel_h < 1 || c.kernel_w < 1 || c.out_channels % groups != 0 || c.channels % groups != 0 ||
      weight.size(1) != c.channels / groups) {
    return std::nullopt;
  }
  if (!fitsBlasInt({c.height, c.width, c.kernel_h, c.kernel_w})) return std::nullopt;
  c.out_h = outputExtent(c.height, c.kernel_h, c.stride_h, c.pad_h, c.dilation_h);
  c.out_w = outputExtent(c.width, c.kernel_w, c.stride_w, c.pad_w, c.dilation_w);
  if (c.out_h < 0 || c.out_w < 0) return std::nullopt;
  // out_h * out_w can exceed the input's size (padding), so it and the output's size are checked.
  int64_t positions = 0;
  if (__builtin_mul_overflow(c.out_h, c.out_w, &positions)) return std::nullopt;
  c.positions = positions;
  c.filters = c.out_channels / groups;
  c.depth = weight.size(1) * c.kernel_h * c.kernel_w;  // a factor of weight.numel(): no overflow
  if (!fitsBlasInt({c.filters, c.depth, c.positions})) return std::nullopt;
  if (bias != nullptr) {
    if (!isFlatCpuFloat(*bias) || bias->dim() != 1 || bias->size(0) != c.out_channels) return std::nullopt;
    c.bias = bias;
  }
  int64_t planes = 0, outputs = 0;
  if (__builtin_mul_overflow(c.batch, c.out_channels, &planes) || __builtin_mul_overflow(planes, c.positions, &outputs)) {
    return std::nullopt;
  }
  return c;
}

// Rows [row_first, row_first + rows) of the output's positions, unfolded from one group's input
// into `columns` (depth rows of rows * out_w).
void unfold(const Conv& c, const float* group_input, int64_t row_first, int64_t rows, float* columns) {
  const int64_t span = rows * c.out_w;
  const int64_t channels = c.channels / c.groups;
  float* dst = columns;
  for (int64_t ch = 0; ch < channels; ++ch) {
    const float* plane = group_input + ch * c.height * c.width;
    for (int64_t kh = 0; kh < c.kernel_h; ++kh) {
      for (int64_t kw = 0; kw < c.kernel_w; ++kw, dst += span) {
        const int64_t w_offset = kw * c.dilation_w - c.pad_w;
        const auto [lo, hi] = cpu::nn_detail::validOutputRange(c.out_w, c.stride_w, w_offset, c.width);
        for (int64_t r = 0; r < rows; ++r) {
          float* out = dst + r * c.out_w;
          const int64_t ih = (row_first + r) * c.stride_h - c.pad_h + kh * c.dilation_h;
          if (ih < 0 || ih >= c.height) {
            std::fill(out, out + c.out_w, 0.0f);
            continue;
          }
          const float* in = plane + ih * c.width;  // in[ow * stride_w + w_offset] is column ow's input
          std::fill(out, out + lo, 0.0f);
          if (c.stride_w == 1) {
            std::copy(in + lo + w_offset, in + hi + w_offset, out + lo);
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) out[ow] = in[ow * c.stride_w + w_offset];
          }
          std::fill(out + hi, out + c.out_w, 0.0f);
        }
      }
    }
  }
}

struct UnfoldedPatches {};  // scratchFloats' purpose

// One group's geometry for the direct convolution, when it runs it: stride 1, not a 1x1 product
// without padding (which reads the input directly), an AVX2 or AVX-512 CPU, a geometry that pays.
std::optional<DirectGeometry> directGeometry(const Conv& c) {
  if (c.direct() || c.stride_h != 1 || c.stride_w != 1 || !directAvailable()) return std::nullopt;
  const DirectGeometry g{c.channels / c.groups, c.height, c.width, c.filters, c.kernel_h, c.kernel_w,
                         c.pad_h, c.pad_w, c.dilation_h, c.dilation_w};
  if (!directPays(g)) return std::nullopt;
  return g;
}

void runConvolution(const Conv& c, const float* input, const float* weight, float* out) {
  if (c.batch * c.out_channels * c.positions == 0) return;
  const int64_t group_input = (c.channels / c.groups) * c.height * c.width;
  if (const std::optional<DirectGeometry> g = directGeometry(c)) {
    const float* bias = c.bias != nullptr ? c.bias->data_ptr<float>() : nullptr;
    for (int64_t n = 0; n < c.batch; ++n) {
      for (int64_t group = 0; group < c.groups; ++group) {
        directConvolution(*g, input + (n * c.groups + group) * group_input, weight + group * c.filters * c.depth,
                          bias != nullptr ? bias + group * c.filters : nullptr,
                          out + (n * c.out_channels + group * c.filters) * c.positions);
      }
    }
    return;
  }
  const int64_t band_rows = std::clamp<int64_t>(
      kColumnsBudget / std::max<int64_t>(1, c.depth * c.out_w * int64_t(sizeof(float))), 1, c.out_h);
  // See Note [A warm optimized kernel allocates nothing].
  float* columns = c.direct() ? nullptr : scratchFloats<UnfoldedPatches>(size_t(c.depth * band_rows * c.out_w));
  const float* bias = c.bias != nullptr ? c.bias->data_ptr<float>() : nullptr;
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t g = 0; g < c.groups; ++g) {
      const float* in = input + (n * c.groups + g) * group_input;
      const BlasMatrix filters{weight + g * c.filters * c.depth, false, std::max<int64_t>(c.depth, 1)};
      float* dst = out + (n * c.out_channels + g * c.filters) * c.positions;
      if (bias != nullptr) {
        for (int64_t f = 0; f < c.filters; ++f) {
          std::fill(dst + f * c.positions, dst + (f + 1) * c.positions, bias[g * c.filters + f]);
        }
      }
      const float beta = bias != nullptr ? 1.0f : 0.0f;
      if (c.direct()) {
        sgemm(c.filters, c.positions, c.depth, 1.0f, filters, BlasMatrix{in, false, c.positions}, beta, dst,
              c.positions);
        continue;
      }
      for (int64_t row = 0; row < c.out_h; row += band_rows) {
        const int64_t rows = std::min(band_rows, c.out_h - row);
        unfold(c, in, row, rows, columns);
        sgemm(c.filters, rows * c.out_w, c.depth, 1.0f, filters, BlasMatrix{columns, false, rows * c.out_w},
              beta, dst + row * c.out_w, c.positions);
      }
    }
  }
}

using ConvolutionOut = Tensor&(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntArrayRef, IntArrayRef,
                               IntArrayRef, bool, IntArrayRef, int64_t, Tensor&);
using Convolution = Tensor(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntArrayRef, IntArrayRef,
                           IntArrayRef, bool, IntArrayRef, int64_t);

}  // namespace

namespace native {

Tensor& convolution_out(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                        IntArrayRef output_padding, int64_t groups, Tensor& out, const KernelContext& ctx) {
  const Tensor* b = cpu::nn_detail::presentTensor(bias);
  const std::optional<Conv> c = planConvolution(input, weight, b, stride, padding, dilation, transposed, groups);
  const bool direct_out = c && isFlatCpuFloat(out) && !cpu::sameMemory(out, input) && !cpu::sameMemory(out, weight) &&
                          (b == nullptr || !cpu::sameMemory(out, *b));
  if (!direct_out) {
    static const auto op = Dispatcher::singleton().staticTypedHandle<ConvolutionOut>("aten::convolution", "out");
    return continueAfterPartialKernels(op, input, weight, bias, stride, padding, dilation, transposed, output_padding,
                                       groups, out);
  }
  const SizesVector sizes = c->outputSizes();
  if (!sameSizes(out.sizes(), sizes)) cpu::resizeOutput(out, sizes);
  runConvolution(*c, input.data_ptr<float>(), weight.data_ptr<float>(), out.data_ptr<float>());
  return out;
}

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups, const KernelContext& ctx) {
  const std::optional<Conv> c =
      planConvolution(input, weight, cpu::nn_detail::presentTensor(bias), stride, padding, dilation, transposed, groups);
  if (!c) {
    static const auto op = Dispatcher::singleton().staticTypedHandle<Convolution>("aten::convolution", "");
    return continueAfterPartialKernels(op, input, weight, bias, stride, padding, dilation, transposed, output_padding,
                                       groups);
  }
  Tensor out = ops::empty(c->outputSizes(), TensorOptions(ScalarType::Float).device(kCPU));
  runConvolution(*c, input.data_ptr<float>(), weight.data_ptr<float>(), out.data_ptr<float>());
  return out;
}

}  // namespace native
}  // namespace sy::optimized
