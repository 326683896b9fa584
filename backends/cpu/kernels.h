// The CPU kernels of the aten:: operators, as plain C++ functions.
//
// They are registered with the dispatcher from ops/*.yaml by the generator, or in the file that
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
#include "switchyard/ops/unary/NativeFunctions.h"

namespace sy::cpu {

// aten::empty.memory_format (empty.cpp)
Tensor empty_memory_format_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                               std::optional<Device> device, std::optional<bool> pin_memory,
                               std::optional<MemoryFormat> memory_format);

// aten::acos, aten::sin and the other unary kernels: declared from ops/unary_ops.yaml in
// sy::cpu::native (switchyard/ops/unary/NativeFunctions.h), reachable as sy::cpu::acos_cpu.
using namespace native;

// aten::add, aten::mul and their out= forms (binary_ops.cpp)
Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
Tensor mul_cpu(const Tensor& self, const Tensor& other);
Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out);

// aten::copy_ (copy.cpp)
Tensor& copy_cpu(Tensor& self, const Tensor& src, bool non_blocking);

}  // namespace sy::cpu
