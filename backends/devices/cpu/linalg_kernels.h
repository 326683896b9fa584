// The CPU kernels of the matrix-product operators (mm, bmm, addmm) as plain C++ functions, plus
// the composite kernels of linear and linear.out, which run on every backend by calling addmm / mm
// through the dispatcher.
//
// The product kernels are declared from backends/devices/cpu/linalg_ops.yaml
// (switchyard/ops/linalg/NativeFunctions.h, in sy::cpu::native) and registered from it, each the
// out variant's kernel serving the functional and in-place forms too; linear's are registered in
// linalg_ops.cpp. Callers go through sy::ops::mm(...) and friends (ops/linalg_ops.h). Each takes
// the operator's arguments in schema order, then its context (dispatcher/kernel_context.h).
#pragma once

#include <optional>

#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/linalg/NativeFunctions.h"

namespace sy::cpu {

// aten::mm.out, bmm.out and addmm.out (which serve mm, bmm, addmm and addmm_ too): generated declarations.
using namespace native;

// aten::linear (CompositeImplicit) and aten::linear.out (CompositeExplicit): input @ weight.T + bias
// over any leading batch dims, through aten::addmm / aten::mm.
Tensor linear_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        const KernelContext& ctx);
Tensor& linear_out_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, Tensor& out,
                             const KernelContext& ctx);

}  // namespace sy::cpu
