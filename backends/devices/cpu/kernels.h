// The CPU kernels of the aten:: operators, as plain C++ functions.
//
// They are registered with the dispatcher from backends/devices/cpu/*.yaml by the generator, or in the file that
// defines each one (SY_LIBRARY_IMPL(aten, CPU, m)); callers normally go through sy::ops::*. Code
// that must reach a CPU kernel without dispatching (a backend fallback's last resort, a benchmark
// of the kernel alone) can call these directly:
//
//   sy::Tensor out = sy::empty({2, 3});
//   sy::cpu::acos_out_cpu(x, out);
//
// Each signature is exactly the operator's C++ signature (the dispatcher requires every kernel and
// every typed<> handle of an operator to agree): argument order follows the schema, so out= comes last.
#pragma once

#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/binary/NativeFunctions.h"
#include "switchyard/ops/shape/NativeFunctions.h"
#include "switchyard/ops/unary/NativeFunctions.h"

namespace sy::cpu {

// aten::empty.memory_format (empty.cpp; registered there by hand, so that the dispatcher's
// trampoline inlines it: every functional operator allocates through it)
Tensor empty_memory_format_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                               std::optional<Device> device, std::optional<bool> pin_memory,
                               std::optional<MemoryFormat> memory_format);

// aten::acos, aten::sin, aten::add, aten::mul and the other kernels generated from backends/devices/cpu/*.yaml:
// declared in sy::cpu::native (switchyard/ops/<family>/NativeFunctions.h), reachable as
// sy::cpu::acos_cpu.
using namespace native;

// aten::copy_ (copy.cpp, bound from backends/devices/cpu/shape_ops.yaml): sy::cpu::copy_cpu(self, src, non_blocking).

}  // namespace sy::cpu
