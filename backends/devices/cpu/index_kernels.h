// The CPU kernels of the indexing operators gather and scatter (value form), as plain C++
// functions. Callers normally go through sy::ops:: (ops/index_ops.h); code that must reach a
// kernel without dispatching can call these directly:
//
//   sy::Tensor out = sy::empty({0});
//   sy::cpu::gather_out_cpu(x, /*dim=*/1, index, /*sparse_grad=*/false, out);
//
// Every signature is exactly the operator's C++ signature (arguments in schema order, out= last).
// They are declared from backends/devices/cpu/index_ops.yaml (switchyard/ops/index/NativeFunctions.h, in
// sy::cpu::native) and defined in gather_scatter.cpp.
#pragma once

#include <cstdint>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/index/NativeFunctions.h"

namespace sy::cpu {

using namespace native;

}  // namespace sy::cpu
