// The sy::ops:: helpers of ops/nn_ops.h. Each calls through a namespace-scope typed handle
// (Dispatcher::staticTypedHandle), exactly like ops/ops.cpp: one dispatch per call. The handle
// signatures must match the kernels' C++ signatures (backends/cpu/nn_kernels.h) exactly.
#include "switchyard/ops/nn_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using OptionalTensor = std::optional<Tensor>;

const auto convolution_op =
    handle<Tensor(const Tensor&, const Tensor&, const OptionalTensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool,
                  IntArrayRef, int64_t)>("aten::convolution", "");
const auto convolution_out_op =
    handle<Tensor&(const Tensor&, const Tensor&, const OptionalTensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool,
                   IntArrayRef, int64_t, Tensor&)>("aten::convolution", "out");
const auto conv2d_op =
    handle<Tensor(const Tensor&, const Tensor&, const OptionalTensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                  int64_t)>("aten::conv2d", "");

const auto max_pool2d_op =
    handle<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool)>("aten::max_pool2d", "");
const auto max_pool2d_out_op =
    handle<Tensor&(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool, Tensor&)>(
        "aten::max_pool2d", "out");
const auto max_pool2d_with_indices_op =
    handle<std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool)>(
        "aten::max_pool2d_with_indices", "");
const auto max_pool2d_with_indices_out_op =
    handle<std::tuple<Tensor&, Tensor&>(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool,
                                        Tensor&, Tensor&)>("aten::max_pool2d_with_indices", "out");
const auto avg_pool2d_op =
    handle<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool, std::optional<int64_t>)>(
        "aten::avg_pool2d", "");
const auto avg_pool2d_out_op =
    handle<Tensor&(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool, std::optional<int64_t>,
                   Tensor&)>("aten::avg_pool2d", "out");
const auto adaptive_avg_pool2d_op = handle<Tensor(const Tensor&, IntArrayRef)>("aten::adaptive_avg_pool2d", "");
const auto adaptive_avg_pool2d_out_op =
    handle<Tensor&(const Tensor&, IntArrayRef, Tensor&)>("aten::adaptive_avg_pool2d", "out");
const auto adaptive_avg_pool2d_primitive_op =
    handle<Tensor(const Tensor&, IntArrayRef)>("aten::_adaptive_avg_pool2d", "");
const auto adaptive_avg_pool2d_primitive_out_op =
    handle<Tensor&(const Tensor&, IntArrayRef, Tensor&)>("aten::_adaptive_avg_pool2d", "out");

const auto native_layer_norm_op =
    handle<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, IntArrayRef, const OptionalTensor&, const OptionalTensor&,
                                              double)>("aten::native_layer_norm", "");
const auto native_layer_norm_out_op =
    handle<std::tuple<Tensor&, Tensor&, Tensor&>(const Tensor&, IntArrayRef, const OptionalTensor&,
                                                 const OptionalTensor&, double, Tensor&, Tensor&, Tensor&)>(
        "aten::native_layer_norm", "out");
const auto layer_norm_op =
    handle<Tensor(const Tensor&, IntArrayRef, const OptionalTensor&, const OptionalTensor&, double, bool)>(
        "aten::layer_norm", "");

const auto embedding_op = handle<Tensor(const Tensor&, const Tensor&, int64_t, bool, bool)>("aten::embedding", "");
const auto embedding_out_op =
    handle<Tensor&(const Tensor&, const Tensor&, int64_t, bool, bool, Tensor&)>("aten::embedding", "out");

}  // namespace

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups) {
  return convolution_op.call(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
}
Tensor& convolution_out(Tensor& out, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                        IntArrayRef output_padding, int64_t groups) {
  return convolution_out_op.call(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups,
                                 out);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv2d_op.call(input, weight, bias, stride, padding, dilation, groups);
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_op.call(self, kernel_size, stride, padding, dilation, ceil_mode);
}
Tensor& max_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                       IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_out_op.call(self, kernel_size, stride, padding, dilation, ceil_mode, out);
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_with_indices_op.call(self, kernel_size, stride, padding, dilation, ceil_mode);
}
std::tuple<Tensor&, Tensor&> max_pool2d_with_indices_out(Tensor& out, Tensor& indices, const Tensor& self,
                                                         IntArrayRef kernel_size, IntArrayRef stride,
                                                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_with_indices_out_op.call(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
}
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool2d_op.call(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
}
Tensor& avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                       IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override) {
  return avg_pool2d_out_op.call(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
                                out);
}
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool2d_op.call(self, output_size);
}
Tensor& adaptive_avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool2d_out_op.call(self, output_size, out);
}
Tensor _adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool2d_primitive_op.call(self, output_size);
}
Tensor& _adaptive_avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool2d_primitive_out_op.call(self, output_size, out);
}

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps) {
  return native_layer_norm_op.call(input, normalized_shape, weight, bias, eps);
}
std::tuple<Tensor&, Tensor&, Tensor&> native_layer_norm_out(Tensor& out0, Tensor& out1, Tensor& out2,
                                                            const Tensor& input, IntArrayRef normalized_shape,
                                                            const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& bias, double eps) {
  return native_layer_norm_out_op.call(input, normalized_shape, weight, bias, eps, out0, out1, out2);
}
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  return layer_norm_op.call(input, normalized_shape, weight, bias, eps, cudnn_enable);
}

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  return embedding_op.call(weight, indices, padding_idx, scale_grad_by_freq, sparse);
}
Tensor& embedding_out(Tensor& out, const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                      bool scale_grad_by_freq, bool sparse) {
  return embedding_out_op.call(weight, indices, padding_idx, scale_grad_by_freq, sparse, out);
}

}  // namespace sy::ops
