// The kernels of the shape, view, copy and creation operators, as plain C++ functions, plus the
// layout helper that empty_like, clone and _to_copy share.
//
// Callers normally go through sy::ops:: (ops/shape_ops.h, ops/creation_ops.h). Code that must
// reach a kernel without dispatching can call these directly:
//
//   sy::Tensor row = sy::cpu::select_int(x, /*dim=*/0, /*index=*/1);   // a view of x
//   sy::Tensor out = sy::empty({0});
//   sy::cpu::cat_out_cpu({a, b}, /*dim=*/0, out);
//
// Every signature is exactly the operator's C++ signature (the dispatcher requires all kernels and
// typed handles of an operator to agree): arguments in schema order, so out= comes last.
//
// Where each one lives and which key it is registered for:
//   view_ops.cpp      view, reshape, permute, transpose.int, unsqueeze, squeeze(.dim, .dims), expand,
//                     slice.Tensor, select.int: CompositeExplicit (metadata only, any strided
//                     backend); reshape and contiguous: CompositeImplicit (they may copy).
//   cat_ops.cpp       cat(.out), clone(.out), _to_copy(.out): CPU.
//   creation_ops.cpp  zeros, ones, full, scalar_tensor, arange, empty_like, zeros_like, ones_like, full_like and
//                     their out= forms: CPU.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

// ---- Views (view_ops.cpp) ------------------------------------------------------------------------

Tensor view(const Tensor& self, IntArrayRef size);
Tensor reshape(const Tensor& self, IntArrayRef shape);
Tensor permute(const Tensor& self, IntArrayRef dims);
Tensor transpose_int(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self);
Tensor squeeze_dim(const Tensor& self, int64_t dim);
Tensor squeeze_dims(const Tensor& self, IntArrayRef dim);
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit);
Tensor slice_Tensor(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                    int64_t step);
Tensor select_int(const Tensor& self, int64_t dim, int64_t index);
Tensor contiguous(const Tensor& self, MemoryFormat memory_format);

// ---- Copies (cat_ops.cpp) ------------------------------------------------------------------------

Tensor cat_cpu(TensorList tensors, int64_t dim);
Tensor& cat_out_cpu(TensorList tensors, int64_t dim, Tensor& out);
Tensor clone_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format);
Tensor& clone_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out);

Tensor to_copy_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                   std::optional<MemoryFormat> memory_format);
Tensor& to_copy_out_cpu(const Tensor& self, bool non_blocking, std::optional<MemoryFormat> memory_format,
                        Tensor& out);

// ---- Creation (creation_ops.cpp) -----------------------------------------------------------------

Tensor zeros_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory);
Tensor& zeros_out_cpu(IntArrayRef size, Tensor& out);
Tensor ones_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory);
Tensor& ones_out_cpu(IntArrayRef size, Tensor& out);
Tensor full_cpu(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory);
Tensor& full_out_cpu(IntArrayRef size, const Scalar& fill_value, Tensor& out);
Tensor scalar_tensor_cpu(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory);
Tensor& scalar_tensor_out_cpu(const Scalar& s, Tensor& out);

Tensor arange_cpu(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory);
Tensor arange_start_cpu(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory);
Tensor arange_start_step_cpu(const Scalar& start, const Scalar& end, const Scalar& step,
                             std::optional<ScalarType> dtype, std::optional<Layout> layout,
                             std::optional<Device> device, std::optional<bool> pin_memory);
Tensor& arange_out_cpu(const Scalar& end, Tensor& out);
Tensor& arange_start_out_cpu(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out);

Tensor empty_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory,
                      std::optional<MemoryFormat> memory_format);
Tensor& empty_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out);
Tensor zeros_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory,
                      std::optional<MemoryFormat> memory_format);
Tensor& zeros_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out);
Tensor ones_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory,
                     std::optional<MemoryFormat> memory_format);
Tensor& ones_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out);
Tensor full_like_cpu(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                     std::optional<MemoryFormat> memory_format);
Tensor& full_like_out_cpu(const Tensor& self, const Scalar& fill_value, std::optional<MemoryFormat> memory_format,
                          Tensor& out);

// ---- Layout helpers shared by the copying kernels (creation_ops.cpp) -----------------------------

// A new tensor of self's shape, `dtype`, on `device`, allocated with one aten::empty dispatch and
// laid out as `memory_format` asks (PyTorch's empty_like rules):
//   Preserve (or none): self's own strides when self is non-overlapping and dense (a transposed
//     tensor stays transposed), else contiguous;
//   Contiguous: row-major;  ChannelsLast: NHWC strides, self must be 4-D.
// `op` names the operator in errors.
Tensor allocateLike(const char* op, const Tensor& self, ScalarType dtype, Device device,
                    std::optional<MemoryFormat> memory_format);

// Raises unless `memory_format` is absent or one the out= forms accept (Contiguous, Preserve, or
// ChannelsLast for a 4-D `self`).
void checkMemoryFormatFor(const char* op, const Tensor& self, std::optional<MemoryFormat> memory_format);

}  // namespace sy::cpu
