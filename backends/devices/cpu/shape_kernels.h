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
//   cat_ops.cpp       cat(.out), clone(.out) (bound to CPU from backends/devices/cpu/shape_ops.yaml), _to_copy(.out)
//                     (from backends/devices/cpu/creation_ops.yaml).
//   creation_ops.cpp  zeros, ones, full, scalar_tensor, arange, empty_like, zeros_like, ones_like, full_like and
//                     their out= forms: CPU (from backends/devices/cpu/creation_ops.yaml).
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/creation/NativeFunctions.h"
#include "switchyard/ops/shape/NativeFunctions.h"

namespace sy::cpu {

// ---- Views (view_ops.cpp) ------------------------------------------------------------------------

// `shape` with its -1 (at most one) replaced so that the product is `numel`: view's and reshape's
// rule, raising "<op>: shape '[5]' is invalid for input of size 6" and the like.
SizesVector inferSize(const char* op, IntArrayRef shape, int64_t numel);

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

// cat, cat.out, clone and clone.out are bound from backends/devices/cpu/shape_ops.yaml: cat_cpu, cat_out_cpu,
// clone_cpu and clone_out_cpu are declared in sy::cpu::native by the generated header (and named
// sy::cpu::cat_cpu too).
using namespace native;

// ---- Creation (creation_ops.cpp) -----------------------------------------------------------------

// zeros, ones, full, scalar_tensor, arange, empty_like, zeros_like, ones_like, full_like and their
// out= forms (zeros_cpu, zeros_out_cpu, ...), and _to_copy (to_copy_cpu, to_copy_out_cpu, in
// cat_ops.cpp), are bound from backends/devices/cpu/creation_ops.yaml and declared in sy::cpu::native by the
// generated switchyard/ops/creation/NativeFunctions.h.

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
