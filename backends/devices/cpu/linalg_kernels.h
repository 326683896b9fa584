// The CPU kernels of the matrix-product operators (mm, bmm, addmm) as plain C++ functions, plus
// the composite kernels of linear and linear.out, which run on every backend by calling addmm / mm
// through the dispatcher.
//
// The product kernels are declared from backends/devices/cpu/linalg_ops.yaml (switchyard/ops/linalg/NativeFunctions.h,
// in sy::cpu::native) and registered from it; linear's are registered in linalg_ops.cpp. Callers normally go through sy::ops::mm(...) and friends
// (ops/linalg_ops.h). Code that must reach a CPU kernel without dispatching can call one directly:
//
//   sy::Tensor out = sy::empty({2, 5});
//   sy::cpu::mm_out_cpu(a, b, out);
//
// Each signature is exactly the operator's C++ signature (argument order follows the schema, so
// out= comes last): the dispatcher requires every kernel and typed handle of an operator to agree.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/linalg/NativeFunctions.h"

namespace sy::cpu {

// aten::mm, bmm, addmm and their out= and in-place forms: generated declarations.
using namespace native;

// aten::linear (CompositeImplicit) and aten::linear.out (CompositeExplicit): input @ weight.T + bias
// over any leading batch dims, through aten::addmm / aten::mm.
Tensor linear_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias);
Tensor& linear_out_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             Tensor& out);

}  // namespace sy::cpu
