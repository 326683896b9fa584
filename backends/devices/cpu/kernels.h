// The CPU kernels of the aten:: operators, as plain C++ functions.
//
// They are registered with the dispatcher from backends/devices/cpu/*.yaml by the generator, or in the file that
// defines each one (SY_LIBRARY_IMPL(aten, CPU, m)); callers normally go through sy::ops::*. Each
// takes its operator's arguments in schema order (so out= comes last) and then the operator's
// context (dispatcher/kernel_context.h), which names the operator in its errors and says which form
// runs: an operator with an out variant has one kernel, the out variant's, which also serves its
// functional and in-place forms. Code that must reach a CPU kernel without dispatching (a
// backend's plumbing, a benchmark of the kernel alone) passes the context itself:
//
//   constexpr sy::KernelContext kAcosOut{"aten::acos.out", sy::OutputForm::Out};
//   sy::Tensor out = sy::empty({2, 3});
//   sy::cpu::acos_out_cpu(x, out, kAcosOut);
#pragma once

#include <optional>

#include "switchyard/dispatcher/kernel_context.h"
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
                               std::optional<MemoryFormat> memory_format, const KernelContext& ctx);

// The kernels bound from backends/devices/cpu/*.yaml: declared in sy::cpu::native
// (switchyard/ops/<family>/NativeFunctions.h), reachable as sy::cpu::acos_out_cpu.
using namespace native;

// aten::copy_ (copy.cpp, bound from backends/devices/cpu/shape_ops.yaml):
// sy::cpu::copy_cpu(self, src, non_blocking, ctx).

}  // namespace sy::cpu
