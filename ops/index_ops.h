// sy::ops:: helpers for the indexing operators gather and scatter (value form). PyTorch's at::
// names and argument order; out= forms take `out` first.
//
//   sy::Tensor x = sy::tensor<float>({1, 2, 3, 4}, {2, 2});
//   sy::Tensor picks = sy::tensor<int64_t>({1, 0}, {2, 1});
//   sy::ops::gather(x, 1, picks);               // [[2], [3]]: row i's element picks[i][0]
//   sy::ops::scatter(x, 1, picks, 0.0);         // [[1, 0], [0, 4]]: those elements set to 0
//
// `index` is Long, has self's number of dimensions and is no larger than self along every other
// dimension; its values must lie in [0, self.size(dim)). Every function is one dispatch.
//
// The declarations are generated from backends/devices/cpu/index_ops.yaml into the build tree
// (switchyard/ops/index/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt.
#pragma once

#include <cstdint>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/index/Functions.h"
