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

// One header per operator family; this file declares the first operators and includes the rest.
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/index_ops.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/nn_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/ops/unary_ops.h"
#include "switchyard/ops/view_copy_ops.h"

namespace sy::ops {

// aten::empty.memory_format: an uninitialised contiguous tensor (Float on the CPU by default).
Tensor empty(IntArrayRef size, TensorOptions options = {});

// aten::acos / aten::acos.out: element-wise arccosine; integral inputs give Float.
Tensor acos(const Tensor& self);
Tensor& acos_out(Tensor& out, const Tensor& self);

// aten::sin / aten::sin.out: element-wise sine; integral inputs give Float.
Tensor sin(const Tensor& self);
Tensor& sin_out(Tensor& out, const Tensor& self);

// aten::add.Tensor / aten::add.out: self + alpha * other, broadcasting, with type promotion.
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

// aten::mul.Tensor / aten::mul.out: self * other, broadcasting, with type promotion.
Tensor mul(const Tensor& self, const Tensor& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);

// aten::copy_: writes `src` (broadcast to self's shape, converted to self's dtype and device)
// into `self` and returns `self`.
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking = false);

}  // namespace sy::ops
