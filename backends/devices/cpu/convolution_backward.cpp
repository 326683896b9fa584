// aten::convolution_backward.out (+ its functional form) on the CPU: the gradients of
// aten::convolution with respect to its input, weight and bias (kernel registered from
// nn_ops.yaml).
//
// Semantics (PyTorch's): for a convolution of 1, 2 or 3 spatial dimensions with stride, zero
// padding, dilation and groups, given grad_output (the convolution's output shape):
// - out0, grad_input, has input's shape: each output position's gradient times the weight, summed
//   into the input positions the kernel read;
// - out1, grad_weight, has weight's shape: each kernel tap's sum of grad_output times the input it
//   read;
// - out2, grad_bias, has out_channels elements: grad_output summed over the batch and positions.
// output_mask says which of the three to compute; the functional form leaves the others undefined
// (as PyTorch does), the out= form leaves those outs untouched. bias_sizes, when given, must be
// [out_channels]. The floating dtypes; transposed convolutions too, with output_padding (See Note
// [A transposed convolution's gradients are a convolution's]). The sums are taken in double and
// rounded once, so they do not depend on the order a faster kernel would add in.
#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

#include "switchyard/backends/devices/cpu/conv_geometry.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/nn/Functions.h"
#include "switchyard/ops/nn/NativeFunctions.h"

namespace sy::cpu {
namespace {

struct Gradients {
  Tensor input, weight, bias;  // Double, contiguous, in scratch memory (read by this call only)
};

// A Double scratch tensor of zeros, for a gradient to accumulate into.
Tensor zeroGradient(const char* op, IntArrayRef sizes) {
  Tensor t = scratchTensor(op, sizes, ScalarType::Double);
  std::fill_n(static_cast<double*>(t.data_ptr()), t.numel(), 0.0);
  return t;
}

// grad_output summed over the batch and the positions, per output channel.
Tensor biasGradient(const char* op, const ConvNdGeometry& g, const Tensor& grad_output) {
  Tensor bias = zeroGradient(op, {g.out_channels});
  const double* go = static_cast<const double*>(grad_output.data_ptr());
  double* gb = static_cast<double*>(bias.data_ptr());
  const int64_t volume = g.outVolume();
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      const double* plane = go + (n * g.out_channels + oc) * volume;
      for (int64_t p = 0; p < volume; ++p) gb[oc] += plane[p];
    }
  }
  return bias;
}

// Adds, for every (sample, output channel, output position, kernel tap) whose input position lies
// inside the input, the products into the input and weight gradients.
Gradients convolutionGradients(const char* op, const ConvNdGeometry& g, const Tensor& grad_output, const Tensor& input,
                               const Tensor& weight) {
  Gradients r{zeroGradient(op, input.sizes()), zeroGradient(op, weight.sizes()), biasGradient(op, g, grad_output)};
  const double* go = static_cast<const double*>(grad_output.data_ptr());
  const double* x = static_cast<const double*>(input.data_ptr());
  const double* w = static_cast<const double*>(weight.data_ptr());
  double* gi = static_cast<double*>(r.input.data_ptr());
  double* gw = static_cast<double*>(r.weight.data_ptr());
  const int64_t in_per_group = g.in_channels / g.groups, out_per_group = g.out_channels / g.groups;
  const int64_t in_volume = g.inVolume(), out_volume = g.outVolume(), kernel_volume = g.kernelVolume();
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      const int64_t group = oc / out_per_group;
      const double* go_plane = go + (n * g.out_channels + oc) * out_volume;
      for (int64_t c = 0; c < in_per_group; ++c) {
        const int64_t ic = group * in_per_group + c;
        const double* x_plane = x + (n * g.in_channels + ic) * in_volume;
        double* gi_plane = gi + (n * g.in_channels + ic) * in_volume;
        const double* w_taps = w + (oc * in_per_group + c) * kernel_volume;
        double* gw_taps = gw + (oc * in_per_group + c) * kernel_volume;
        for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
          for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
            for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
              const double grad = go_plane[(o0 * g.out[1] + o1) * g.out[2] + o2];
              for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
                const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dilation[0];
                if (i0 < 0 || i0 >= g.in[0]) continue;
                for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
                  const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dilation[1];
                  if (i1 < 0 || i1 >= g.in[1]) continue;
                  for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
                    const int64_t i2 = o2 * g.stride[2] - g.pad[2] + k2 * g.dilation[2];
                    if (i2 < 0 || i2 >= g.in[2]) continue;
                    const int64_t tap = (k0 * g.kernel[1] + k1) * g.kernel[2] + k2;
                    const int64_t at = (i0 * g.in[1] + i1) * g.in[2] + i2;
                    gi_plane[at] += grad * w_taps[tap];
                    gw_taps[tap] += grad * x_plane[at];
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return r;
}

// Note [A transposed convolution's gradients are a convolution's]
// A transposed convolution y = T(x, w) is the adjoint of the convolution C(., w) of y-shaped inputs
// with the same stride, padding, dilation and groups (output_padding only makes y's extent one the
// convolution maps back onto x's). So grad_x = C(grad_y, w), and since <grad_y, T(x, w)> equals
// <C(grad_y, w), x>, grad_w is C's weight gradient at input grad_y and output gradient x. The
// weight has the same layout in both views ([x channels, y channels / groups, kernel...]).
Gradients transposedConvolutionGradients(const char* op, const ConvNdGeometry& g, const Tensor& grad_output,
                                         const Tensor& input, const Tensor& weight, IntArrayRef stride,
                                         IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const ConvNdGeometry adjoint =
      checkConvolutionNd(op, grad_output, weight, nullptr, stride, padding, dilation, false, {}, groups);
  SY_CHECK(sameSizes(adjoint.outputSizes(), input.sizes()), op, ": the convolution adjoint to this transposed one maps ",
           formatSizes(grad_output.sizes()), " to ", formatSizes(adjoint.outputSizes()), ", not to the input's ",
           formatSizes(input.sizes()));
  Gradients r;
  r.input = scratchTensor(op, input.sizes(), ScalarType::Double);
  ops::convolution_out(r.input, grad_output, weight, std::nullopt, stride, padding, dilation, false, {}, groups);
  r.weight = convolutionGradients(op, adjoint, input, grad_output, weight).weight;
  r.bias = biasGradient(op, g, grad_output);
  return r;
}

// Gives `out` (allocated for the functional form) the gradient's shape and values in out's dtype.
void writeGradient(const KernelContext& ctx, const char* name, const Tensor& gradient, ScalarType dtype, Tensor& out) {
  if (ctx.form == OutputForm::Functional) out = sy::empty(gradient.sizes(), dtype);
  resizeOutput(out, gradient.sizes());
  checkNoInternalOverlap(ctx.op, out, name);
  if (out.numel() != 0) copyIntoCPU(ctx.op, out, gradient, name, name);
}

}  // namespace

namespace native {

std::tuple<Tensor&, Tensor&, Tensor&> convolution_backward_out_cpu(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight, std::optional<IntArrayRef> bias_sizes,
    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
    int64_t groups, const std::vector<bool>& output_mask, Tensor& out0, Tensor& out1, Tensor& out2,
    const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(output_mask.size() == 3, op, ": expected 'output_mask' to have 3 values but got ", output_mask.size());
  checkOnCPU(op, "grad_output", grad_output);
  checkDtypeSupported(op, "input", input.scalar_type(), convolution_backward_out_cpu_dtypes);
  const ConvNdGeometry g =
      checkConvolutionNd(op, input, weight, nullptr, stride, padding, dilation, transposed, output_padding, groups);
  SY_CHECK(grad_output.scalar_type() == input.scalar_type(), op, ": expected 'grad_output' to have the dtype of 'input' (",
           input.scalar_type(), ") but got ", grad_output.scalar_type());
  SY_CHECK(sameSizes(grad_output.sizes(), g.outputSizes()), op, ": expected 'grad_output' to have the convolution's "
           "output size ", formatSizes(g.outputSizes()), " but got ", formatSizes(grad_output.sizes()));
  if (bias_sizes.has_value()) {
    SY_CHECK(bias_sizes->size() == 1 && (*bias_sizes)[0] == g.out_channels, op, ": expected 'bias_sizes' to be (",
             g.out_channels, ",), the out_channels, but got ", formatSizes(*bias_sizes));
  }
  const ScalarType dtype = input.scalar_type();
  Tensor* outs[3] = {&out0, &out1, &out2};
  const char* names[3] = {"out0", "out1", "out2"};
  for (int i = 0; i < 3; ++i) {
    if (!output_mask[i] || ctx.form == OutputForm::Functional) continue;
    checkOnCPU(op, names[i], *outs[i]);
    SY_CHECK(outs[i]->scalar_type() == dtype, op, ": expected '", names[i], "' to have the dtype of 'input' (", dtype,
             ") but got ", outs[i]->scalar_type());
  }
  // Double copies first: an out= may be one of the inputs, and is resized only after they are read.
  const Tensor go = contiguousCopyIfNeeded(op, "grad_output", grad_output, ScalarType::Double);
  const Tensor x = contiguousCopyIfNeeded(op, "input", input, ScalarType::Double);
  const Tensor w = contiguousCopyIfNeeded(op, "weight", weight, ScalarType::Double);
  const Gradients gradients =
      transposed ? transposedConvolutionGradients(op, g, go, x, w, stride, padding, dilation, groups)
                 : convolutionGradients(op, g, go, x, w);
  const Tensor* results[3] = {&gradients.input, &gradients.weight, &gradients.bias};
  for (int i = 0; i < 3; ++i) {
    if (output_mask[i]) writeGradient(ctx, names[i], *results[i], dtype, *outs[i]);
  }
  return {out0, out1, out2};
}

}  // namespace native
}  // namespace sy::cpu
