// sy::ops:: helpers for the shape and view operators, and the copies that go with them
// (contiguous, clone, cat). PyTorch's at:: names, argument order and defaults.
//
//   sy::Tensor x = sy::ops::view(sy::ops::arange(6), {2, 3});   // arange: creation_ops.h
//   sy::Tensor t = sy::ops::transpose(x, 0, 1);        // a view: shares x's memory
//   sy::Tensor row = sy::ops::select(x, 0, -1);        // the last row, also a view
//   sy::Tensor every_other = sy::ops::slice(x, 1, 0, std::nullopt, 2);
//   sy::Tensor dense = sy::ops::contiguous(t);         // a copy, because t is not contiguous
//   sy::Tensor both = sy::ops::cat({x, x}, /*dim=*/1); // [2, 6]
//
// Views (view, reshape when it can, permute, transpose, unsqueeze, squeeze, expand, slice,
// select) share storage with their input: writing through one is visible through the other.
// Every function is one call through the dispatcher.
//
// The declarations are generated from backends/devices/cpu/shape_ops.yaml into the build tree
// (switchyard/ops/shape/Functions.h); see Note [The aten:: operators are generated from
// their kernel YAML] in ops/CMakeLists.txt. `switchyard ops` lists the operators and `switchyard
// ops NAME` shows one's schema and kernels; what each computes is described beside its kernel
// (backends/devices/cpu/view_ops.cpp, cat_ops.cpp, copy.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape/Functions.h"

namespace sy::ops {

// aten::resize_, with PyTorch's C++ signature (ops/aten_schemas.cpp says why it is hand-written).
const Tensor& resize_(const Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format = std::nullopt);

}  // namespace sy::ops
