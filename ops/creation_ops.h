// sy::ops:: helpers for the creation operators: zeros, ones, full, arange, the *_like family and
// _to_copy. PyTorch's at:: names, argument order and defaults; factories take TensorOptions
// like sy::ops::empty.
//
//   sy::Tensor z = sy::ops::zeros({2, 3});                          // Float
//   sy::Tensor f = sy::ops::full({4}, 7);                           // Long: dtype from the value
//   sy::Tensor r = sy::ops::arange(0, 1, 0.25);                     // Float [0, 0.25, 0.5, 0.75]
//   sy::Tensor o = sy::ops::ones_like(z, sy::ScalarType::Int);      // Int, z's shape
//   sy::Tensor d = sy::ops::_to_copy(z, sy::ScalarType::Double);    // a converted copy
//   sy::ops::full_out(out, {2, 2}, 1.5);                            // returns `out` itself
//
// A note on TensorOptions: it cannot say "no device" (its device defaults to the CPU), so the
// *_like and _to_copy helpers that take it read a CPU device as "keep self's device". To move a
// tensor to the CPU explicitly, use the overload of _to_copy with separate optional arguments.
//
// The operators are defined in backends/devices/cpu/creation_ops.yaml. Their out= helpers (zeros_out, full_out,
// arange_out, empty_like_out, ..., _to_copy_out) are generated into the build tree
// (switchyard/ops/creation/Functions.h); the TensorOptions helpers below are hand-written
// (ops/creation_ops.cpp: `manual_cpp_binding: True`). See Note [The aten:: operators are generated
// from their kernel YAML] in ops/CMakeLists.txt.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/creation/Functions.h"

namespace sy::ops {

// aten::empty.memory_format: an uninitialised contiguous tensor (Float on the CPU by default).
Tensor empty(IntArrayRef size, TensorOptions options = {});
// aten::empty_strided: an uninitialised tensor with the given strides (Float on the CPU by default).
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});

// aten::zeros, aten::ones (and their .out forms): Float unless options name a dtype.
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});

// aten::rand, aten::randn (and their .out forms): uniform in [0, 1) and standard normal numbers from
// the process's generator (sy::manualSeed, ivalue/cpu_generator.h); Float unless options name a
// floating dtype.
Tensor rand(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});

// aten::full (and full.out): every element `fill_value`; the dtype follows the value (Bool, Long or
// Float) unless options name one.
Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options = {});

// aten::scalar_tensor (and scalar_tensor.out): a 0-dim tensor holding `s`; Float unless options name a
// dtype (PyTorch's default dtype, whatever the value), out's dtype for the out= form.
Tensor scalar_tensor(const Scalar& s, TensorOptions options = {});

// aten::arange (.start, .start_step, .out, .start_out): [start, end) in steps of `step`; Long
// when all bounds are integers, else Float, unless options name a dtype.
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options = {});

// aten::empty_like, zeros_like, ones_like, full_like and their out= forms: self's shape, and by
// default self's dtype, device and layout (memory_format Preserve).
Tensor empty_like(const Tensor& self, TensorOptions options = {},
                  std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor zeros_like(const Tensor& self, TensorOptions options = {},
                  std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor ones_like(const Tensor& self, TensorOptions options = {},
                 std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options = {},
                 std::optional<MemoryFormat> memory_format = std::nullopt);

// aten::_to_copy (and _to_copy.out): a copy converted to another dtype and/or device (what
// Tensor.to(...) does when it has to copy). The out= form converts to out's dtype and device.
Tensor _to_copy(const Tensor& self, TensorOptions options = {}, bool non_blocking = false,
                std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<MemoryFormat> memory_format);

}  // namespace sy::ops
