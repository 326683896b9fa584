// The C++ convenience API for the aten:: operators: one function per operator call, with
// PyTorch's at:: names and argument order (out= variants take `out` first).
//
//   sy::Tensor x = sy::ones({2, 3});
//   sy::Tensor y = sy::ops::add(sy::ops::sin(x), x, /*alpha=*/2);
//   sy::Tensor out = sy::ops::empty({2, 3});
//   sy::ops::acos_out(out, x);                   // returns `out` itself
//   sy::Tensor z = sy::ops::empty({4}, sy::TensorOptions(sy::ScalarType::Long));
//
// Every function is a call through the dispatcher (so tracing, profiling and backend fallbacks
// see it), using a typed handle looked up once. Out and in-place forms return the caller's own
// Tensor object, never a copy of the handle.
#pragma once

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

// One header per operator family. Code that calls a few operators (a kernel, a fallback) includes
// the family headers it uses; this umbrella is for applications and the public switchyard.h.
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/index_ops.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/nn_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/ops/unary_ops.h"
#include "switchyard/ops/view_copy_ops.h"

