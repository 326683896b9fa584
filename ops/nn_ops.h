// sy::ops:: helpers for the neural-network operators: convolution, pooling, layer norm, embedding.
//
//   sy::Tensor y = sy::ops::conv2d(x, w, b, /*stride=*/{2, 2}, /*padding=*/{1, 1});
//   sy::Tensor p = sy::ops::max_pool2d(y, /*kernel_size=*/{2, 2});
//   sy::Tensor n = sy::ops::layer_norm(p, /*normalized_shape=*/{p.size(-1)});
//   sy::Tensor e = sy::ops::embedding(table, ids);
//   sy::ops::avg_pool2d_out(out, x, {3, 3});       // returns `out` itself
//   sy::Tensor g = sy::ops::adaptive_avg_pool2d(y, {1, 1});  // global average pooling
//
// Every function is one call through the dispatcher, in PyTorch's at:: argument order (out= forms
// take their outputs first) with at::'s defaults. An int[2] argument may be given as one value
// ({2} means {2, 2}); pooling's stride {} means "equal to kernel_size".
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// aten::convolution / aten::convolution.out: 2-D convolution of an (N, C_in, H, W) or unbatched
// (C_in, H, W) input with a (C_out, C_in / groups, kH, kW) weight. transposed=true is not supported.
Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups);
Tensor& convolution_out(Tensor& out, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                        IntArrayRef output_padding, int64_t groups);

// aten::conv2d: convolution with conv2d's defaults (CompositeImplicit: it calls aten::convolution).
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt,
              IntArrayRef stride = {1, 1}, IntArrayRef padding = {0, 0}, IntArrayRef dilation = {1, 1},
              int64_t groups = 1);

// aten::max_pool2d / aten::max_pool2d.out: the maximum of each (dilated) window; NaN wins.
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = {0, 0},
                  IntArrayRef dilation = {1, 1}, bool ceil_mode = false);
Tensor& max_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                       IntArrayRef padding = {0, 0}, IntArrayRef dilation = {1, 1}, bool ceil_mode = false);

// aten::max_pool2d_with_indices / .out: (the maxima, where each was as a Long flat index h * W + w
// into its input plane). The first maximum in a window wins.
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                                                   IntArrayRef padding = {0, 0}, IntArrayRef dilation = {1, 1},
                                                   bool ceil_mode = false);
std::tuple<Tensor&, Tensor&> max_pool2d_with_indices_out(Tensor& out, Tensor& indices, const Tensor& self,
                                                         IntArrayRef kernel_size, IntArrayRef stride = {},
                                                         IntArrayRef padding = {0, 0}, IntArrayRef dilation = {1, 1},
                                                         bool ceil_mode = false);

// aten::avg_pool2d / aten::avg_pool2d.out: the mean of each window.
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = {0, 0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor& avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                       IntArrayRef padding = {0, 0}, bool ceil_mode = false, bool count_include_pad = true,
                       std::optional<int64_t> divisor_override = std::nullopt);

// aten::adaptive_avg_pool2d / .out: the mean of each of out_h x out_w windows that tile the image
// (Float and Double). adaptive_avg_pool2d is CompositeImplicit: it calls aten::_adaptive_avg_pool2d.
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
Tensor& adaptive_avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef output_size);
// aten::_adaptive_avg_pool2d / .out: the same, under the names exported programs use.
Tensor _adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
Tensor& _adaptive_avg_pool2d_out(Tensor& out, const Tensor& self, IntArrayRef output_size);

// aten::native_layer_norm / aten::native_layer_norm.out: (normalized output, mean, 1 / std) over
// the trailing `normalized_shape` dimensions.
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps);
std::tuple<Tensor&, Tensor&, Tensor&> native_layer_norm_out(Tensor& out0, Tensor& out1, Tensor& out2,
                                                            const Tensor& input, IntArrayRef normalized_shape,
                                                            const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& bias, double eps);

// aten::layer_norm: the normalized output alone (CompositeImplicit: it calls aten::native_layer_norm).
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight = std::nullopt,
                  const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-05, bool cudnn_enable = true);

// aten::embedding / aten::embedding.out: the rows of the 2-D `weight` picked by `indices` (Int or
// Long), shaped indices.shape + (embedding_dim,).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1, bool scale_grad_by_freq = false,
                 bool sparse = false);
Tensor& embedding_out(Tensor& out, const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                      bool scale_grad_by_freq = false, bool sparse = false);

}  // namespace sy::ops
