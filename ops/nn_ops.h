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
//
// The declarations are generated from backends/devices/cpu/nn_ops.yaml into the build tree
// (switchyard/ops/nn/Functions.h); see Note [The aten:: operators are generated from their kernel YAML]
// in ops/CMakeLists.txt. What each one does:
//   convolution, convolution_out   2-D convolution of an (N, C_in, H, W) or unbatched (C_in, H, W)
//                                  input with a (C_out, C_in / groups, kH, kW) weight;
//                                  transposed=true is not supported
//   conv2d(input, weight, bias = nullopt, stride = {1, 1}, padding = {0, 0}, dilation = {1, 1},
//          groups = 1)             convolution with conv2d's defaults (CompositeImplicit: it calls
//                                  aten::convolution)
//   max_pool2d(self, kernel_size, stride = {}, padding = {0, 0}, dilation = {1, 1}, ceil_mode = false),
//   max_pool2d_out                 the maximum of each (dilated) window; NaN wins
//   max_pool2d_with_indices, max_pool2d_with_indices_out(out, indices, self, ...)
//                                  (the maxima, where each was as a Long flat index h * W + w into
//                                  its input plane); the first maximum in a window wins
//   avg_pool2d(self, kernel_size, stride = {}, padding = {0, 0}, ceil_mode = false,
//              count_include_pad = true, divisor_override = nullopt), avg_pool2d_out
//                                  the mean of each window
//   adaptive_avg_pool2d(self, output_size), adaptive_avg_pool2d_out
//                                  the mean of each of out_h x out_w windows that tile the image
//                                  (Float and Double); adaptive_avg_pool2d is CompositeImplicit: it
//                                  calls aten::_adaptive_avg_pool2d, the same under the name exported
//                                  programs use (and _adaptive_avg_pool2d_out)
//   native_layer_norm(input, normalized_shape, weight, bias, eps), native_layer_norm_out(out0, out1,
//                     out2, ...)   (normalized output, mean, 1 / std) over the trailing
//                                  `normalized_shape` dimensions
//   layer_norm(input, normalized_shape, weight = nullopt, bias = nullopt, eps = 1e-05,
//              cudnn_enable = true)   the normalized output alone (CompositeImplicit: it calls
//                                  aten::native_layer_norm)
//   embedding(weight, indices, padding_idx = -1, scale_grad_by_freq = false, sparse = false),
//   embedding_out                  the rows of the 2-D `weight` picked by `indices` (Int or Long),
//                                  shaped indices.shape + (embedding_dim,)
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/nn/Functions.h"
