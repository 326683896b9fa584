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
// in ops/CMakeLists.txt. `switchyard ops` lists the operators and `switchyard ops NAME` shows one's
// schema and kernels; what each computes is described beside its kernel
// (backends/devices/cpu/convolution.cpp, pooling.cpp, adaptive_pooling.cpp, normalization.cpp,
// embedding.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/nn/Functions.h"
