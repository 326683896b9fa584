// The copying operators on the CPU: cat (+ cat.out), clone (+ clone.out), copy (+ copy.out) and
// _to_copy (+ _to_copy.out).
//
// cat semantics (PyTorch's):
//   - `dim` wraps against the first tensor that takes part; 0-dim tensors are an error;
//   - 1-D tensors with no elements (shape [0]) are skipped when checking shapes, so they can be
//     concatenated with anything (a legacy rule many programs rely on);
//   - the result dtype is the promotion of every input's dtype (Int with Float gives Float);
//     an out= tensor must be able to hold it (canCast), and is resized when its shape is wrong;
//   - an out= tensor that shares memory with an input is written through a temporary, so the
//     inputs are read intact.
// clone copies `self` into new memory laid out as memory_format asks (see allocateLike in
// shape_kernels.h: by default a transposed tensor stays transposed); clone.out keeps out's own
// layout unless out has to be resized, and, like PyTorch's generated out= wrappers, converts to
// out's dtype.
// copy (the functional form of copy_) gives a tensor of self's shape and dtype holding src,
// broadcast to that shape and converted to self's dtype; copy.out writes that into out, converted
// again to out's dtype when it differs (as PyTorch's generated out= form does).
// _to_copy is the copy behind Tensor.to(dtype/device): it allocates with aten::empty on the
// target device and copies with aten::copy_, both through the dispatcher, so another device's
// backend takes over any transfer. _to_copy.out converts to out's dtype and device the same way.
#include <cstring>
#include <string>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

// PyTorch's legacy rule: a 1-D empty tensor takes part in dtype promotion but not in shape checks.
bool skippedByCat(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

std::string tensorArgumentName(size_t index) { return str("tensors[", index, "]"); }

struct CatPlan {
  SizesVector sizes;  // of the result
  int64_t dim = 0;    // wrapped
  ScalarType dtype = ScalarType::Undefined;
};

CatPlan planCat(const char* op, TensorList tensors, int64_t dim) {
  SY_CHECK(!tensors.empty(), op, ": expected a non-empty list of Tensors");
  CatPlan plan;
  const Tensor* reference = nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    checkOnCPU(op, tensorArgumentName(i).c_str(), t);
    SY_CHECK(t.dim() > 0, op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    plan.dtype = plan.dtype == ScalarType::Undefined ? t.scalar_type() : promoteTypes(plan.dtype, t.scalar_type());
    if (reference == nullptr && !skippedByCat(t)) reference = &t;
  }
  if (reference == nullptr) {  // every input is a skipped [0] tensor: so is the result
    plan.sizes = {0};
    return plan;
  }
  const int64_t ndim = reference->dim();
  plan.dim = wrapDim(dim, ndim, op, "dim", /*wrap_scalar=*/false);
  plan.sizes.assign(reference->sizes().begin(), reference->sizes().end());
  int64_t concatenated = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skippedByCat(t)) continue;
    SY_CHECK(t.dim() == ndim, op, ": Tensors must have same number of dimensions: got ", ndim, " and ", t.dim(),
             " (for tensor number ", i, " in the list)");
    for (int64_t d = 0; d < ndim; ++d) {
      SY_CHECK(d == plan.dim || t.size(d) == plan.sizes[d], op, ": Sizes of tensors must match except in dimension ",
               plan.dim, ". Expected size ", plan.sizes[d], " but got size ", t.size(d), " for tensor number ", i,
               " in the list.");
    }
    SY_CHECK_VALUE(checkedAdd(concatenated, t.size(plan.dim), &concatenated), op, ": the sizes of the tensors in dimension ",
                   plan.dim, " add up to more than 64 bits hold (at tensor number ", i, " in the list)");
  }
  plan.sizes[plan.dim] = concatenated;
  return plan;
}

// The common case as whole-block copies: for each outer index, every input's slab in turn, so
// the destination is written front to back.
void writeDenseCat(const Tensor& dst, TensorList tensors, int64_t dim) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= dst.size(d);
  for (int64_t d = dim + 1; d < dst.dim(); ++d) inner *= dst.size(d);
  const size_t element_size = dst.element_size();
  char* out = static_cast<char*>(dst.data_ptr());
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& t : tensors) {
      if (skippedByCat(t)) continue;
      const size_t slab = static_cast<size_t>(t.size(dim) * inner) * element_size;
      if (slab == 0) continue;
      std::memcpy(out, static_cast<const char*>(t.data_ptr()) + static_cast<size_t>(o) * slab, slab);
      out += slab;
    }
  }
}

// Writes the concatenation into `dst`, which has the planned shape and shares no memory with the
// inputs. Any strides and dtypes.
void writeCat(const char* op, const Tensor& dst, TensorList tensors, int64_t dim) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  if (dst.numel() == 0) return;
  bool dense = dst.is_contiguous();
  for (const Tensor& t : tensors) {
    dense = dense && (skippedByCat(t) || (t.is_contiguous() && t.scalar_type() == dst.scalar_type()));
  }
  if (dense) return writeDenseCat(dst, tensors, dim);
  int64_t offset = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skippedByCat(t) || t.size(dim) == 0) continue;
    const int64_t length = t.size(dim);
    const Tensor part = slice_Tensor(dst, dim, offset, offset + length, 1, views::kSliceTensor);  // a view; no dispatch
    copyIntoCPU(op, part, t, "out", tensorArgumentName(i).c_str());
    offset += length;
  }
}

bool sharesMemoryWithAny(const Tensor& out, TensorList tensors) {
  if (out.storage().get() == nullptr) return false;
  for (const Tensor& t : tensors) {
    if (t.storage().get() == out.storage().get()) return true;
  }
  return false;
}

Tensor& catInto(const char* op, TensorList tensors, int64_t dim, Tensor& out) {
  checkOnCPU(op, "out", out);
  const CatPlan plan = planCat(op, tensors, dim);
  checkCanCastToOutput(op, plan.dtype, out);
  if (sharesMemoryWithAny(out, tensors)) {
    Tensor staged = sy::empty(plan.sizes, plan.dtype);
    writeCat(op, staged, tensors, plan.dim);
    resizeOutput(out, plan.sizes);
    copyIntoCPU(op, out, staged, "out", "result");
    return out;
  }
  resizeOutput(out, plan.sizes);
  writeCat(op, out, tensors, plan.dim);
  return out;
}

}  // namespace

// The kernels backends/devices/cpu/shape_ops.yaml (cat, clone) and backends/devices/cpu/creation_ops.yaml (_to_copy) bind.
namespace native {

Tensor& cat_out_cpu(TensorList tensors, int64_t dim, Tensor& out, const KernelContext& ctx) {
  if (ctx.form == OutputForm::Functional) {
    const CatPlan plan = planCat(ctx.op, tensors, dim);
    out = ops::empty(plan.sizes, TensorOptions(plan.dtype).device(kCPU));
    writeCat(ctx.op, out, tensors, plan.dim);
    return out;
  }
  return catInto(ctx.op, tensors, dim, out);
}

// The functional form's result keeps self's layout (allocateLike), the out= form's is contiguous.
Tensor& clone_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out,
                      const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  if (ctx.form == OutputForm::Functional) {
    out = allocateLike(op, self, self.scalar_type(), kCPU, memory_format);
  } else {
    checkOnCPU(op, "out", out);
    checkMemoryFormatFor(op, self, memory_format);
    resizeOutput(out, self.sizes());
  }
  copyIntoCPU(op, out, self, "out", "self");
  return out;
}

Tensor& copy_out_cpu(const Tensor& self, const Tensor& src, bool non_blocking, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "src", src);
  const SizesVector shape = broadcastShapes(op, {{"self", self.sizes()}, {"src", src.sizes()}});
  SY_CHECK(sameSizes(shape, self.sizes()), op, ": src of shape ", formatSizes(src.sizes()),
           " cannot be broadcast to self's shape ", formatSizes(self.sizes()));
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
  }
  if (out.scalar_type() != self.scalar_type()) {
    // Converted to self's dtype first, as the functional copy's result is, then to out's.
    const Tensor staged = sy::empty(self.sizes(), self.scalar_type());
    copyIntoCPU(op, staged, src, "result", "src");
    resizeOutput(out, self.sizes());
    copyIntoCPU(op, out, staged, "out", "result");
    return out;
  }
  const Tensor source = unaffectedByResizeOf(out, src);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out, "out");
  copyIntoCPU(op, out, source, "out", "src");
  return out;
}

Tensor& to_copy_out_cpu(const Tensor& self, bool non_blocking, std::optional<MemoryFormat> memory_format, Tensor& out,
                        const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  SY_CHECK(out.defined(), op, ": argument 'out' is an undefined tensor");
  checkMemoryFormatFor(op, self, memory_format);
  resizeOutput(out, self.sizes());
  ops::copy_(out, self, non_blocking);
  return out;
}

Tensor to_copy_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                   std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
  Tensor out = allocateLike(op, self, dtype.value_or(self.scalar_type()), device.value_or(self.device()),
                            memory_format);
  ops::copy_(out, self, non_blocking);
  return out;
}

}  // namespace native
}  // namespace sy::cpu
