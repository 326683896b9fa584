// The kernels of the shape, view, copy and creation operators, as plain C++ functions, plus the
// layout helper that empty_like, clone and _to_copy share.
//
// Callers go through sy::ops:: (ops/shape_ops.h, ops/creation_ops.h). Each kernel takes its
// operator's arguments in schema order (so out= comes last), then the operator's context
// (dispatcher/kernel_context.h). A kernel here that needs a view without dispatching calls the view
// kernel with the context it is registered with:
//
//   const sy::Tensor row = sy::cpu::select_int(x, /*dim=*/0, /*index=*/1, sy::cpu::views::kSelectInt);
//
// Where each one lives and which key it is registered for:
//   view_ops.cpp      the views: CompositeExplicit (metadata only, any strided backend); reshape and
//                     contiguous: CompositeImplicit (they may copy).
//   cat_ops.cpp       cat.out, clone.out (bound to CPU from backends/devices/cpu/shape_ops.yaml, each
//                     serving its functional form too), _to_copy(.out) (from creation_ops.yaml).
//   creation_ops.cpp  the factories and the *_like operators: CPU (from
//                     backends/devices/cpu/creation_ops.yaml).
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/dispatcher/kernel_context.h"
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

Tensor view(const Tensor& self, IntArrayRef size, const KernelContext& ctx);
Tensor reshape(const Tensor& self, IntArrayRef shape, const KernelContext& ctx);
Tensor permute(const Tensor& self, IntArrayRef dims, const KernelContext& ctx);
Tensor transpose_int(const Tensor& self, int64_t dim0, int64_t dim1, const KernelContext& ctx);
Tensor unsqueeze(const Tensor& self, int64_t dim, const KernelContext& ctx);
Tensor squeeze(const Tensor& self, const KernelContext& ctx);
Tensor squeeze_dim(const Tensor& self, int64_t dim, const KernelContext& ctx);
Tensor squeeze_dims(const Tensor& self, IntArrayRef dim, const KernelContext& ctx);
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit, const KernelContext& ctx);
Tensor slice_Tensor(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                    int64_t step, const KernelContext& ctx);
Tensor select_int(const Tensor& self, int64_t dim, int64_t index, const KernelContext& ctx);
Tensor contiguous(const Tensor& self, MemoryFormat memory_format, const KernelContext& ctx);

// The contexts the view kernels are registered with (view_ops.cpp).
namespace views {
extern const KernelContext kView, kReshape, kPermute, kTransposeInt, kUnsqueeze, kSqueeze, kSqueezeDim, kSqueezeDims,
    kExpand, kSliceTensor, kSelectInt, kContiguous;
}  // namespace views

// ---- Copies (cat_ops.cpp) ------------------------------------------------------------------------

// cat.out and clone.out are bound from backends/devices/cpu/shape_ops.yaml: cat_out_cpu and
// clone_out_cpu are declared in sy::cpu::native by the generated header (and named sy::cpu::cat_out_cpu too).
using namespace native;

// ---- Creation (creation_ops.cpp) -----------------------------------------------------------------

// The factories and *_like operators and their out= forms (zeros_cpu, zeros_out_cpu, ...), and
// _to_copy (to_copy_cpu, to_copy_out_cpu, in cat_ops.cpp), are bound from
// backends/devices/cpu/creation_ops.yaml and declared in sy::cpu::native by the generated
// switchyard/ops/creation/NativeFunctions.h; a factory's functional form takes other arguments than
// its out= form, so each has a kernel of its own.

// ---- Layout helpers shared by the copying kernels (creation_ops.cpp) -----------------------------

// A new tensor of self's shape, `dtype`, on `device`, allocated with one aten::empty dispatch and
// laid out as `memory_format` asks (PyTorch's empty_like rules):
//   Preserve (or none): self's own strides when self is non-overlapping and dense (a transposed
//     tensor stays transposed), else contiguous;
//   Contiguous: row-major;  ChannelsLast: NHWC strides, self must be 4-D.
// `op` names the operator in errors.
Tensor allocateLike(const char* op, const Tensor& self, ScalarType dtype, Device device,
                    std::optional<MemoryFormat> memory_format);

// Sets every element of the CPU tensor `t` (any strides) to `value`, converted to t's dtype; raises
// naming `op` and `argument` when the dtype cannot hold it (creation_ops.cpp; fill_ops.cpp uses it).
void fillTensorWith(const char* op, const Tensor& t, const Scalar& value, const char* argument);

// Raises unless `memory_format` is absent or one the out= forms accept (Contiguous, Preserve, or
// ChannelsLast for a 4-D `self`).
void checkMemoryFormatFor(const char* op, const Tensor& self, std::optional<MemoryFormat> memory_format);

}  // namespace sy::cpu
