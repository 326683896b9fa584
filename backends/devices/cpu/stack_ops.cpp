// stack (+ stack.out) on the CPU: tensors of one shape joined along a new dimension `dim`.
//
// Semantics (PyTorch's, which are cat's of the tensors each unsqueezed at dim):
//   - the list must not be empty, and every tensor must have the first one's shape;
//   - `dim` wraps against the result's rank, one more than the inputs' (-1 is a new last dimension);
//   - the result dtype is the promotion of every input's dtype (Int with Float gives Float); an
//     out= tensor must be able to hold it (canCast), and is resized when its shape is wrong;
//   - an out= tensor that shares memory with an input is written through a temporary, so the
//     inputs are read intact.
#include <cstring>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

struct StackPlan {
  SizesVector sizes;  // of the result
  int64_t dim = 0;    // wrapped against the result's rank
  ScalarType dtype = ScalarType::Undefined;
};

StackPlan planStack(const char* op, TensorList tensors, int64_t dim) {
  SY_CHECK(!tensors.empty(), op, ": expected a non-empty list of Tensors");
  const Tensor& first = tensors[0];
  StackPlan plan;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    SY_CHECK(t.defined(), op, ": 'tensors[", i, "]' is an undefined tensor");
    if (SY_UNLIKELY(!t.device().is_cpu())) checkOnCPU(op, str("tensors[", i, "]").c_str(), t);
    SY_CHECK(sameSizes(t.sizes(), first.sizes()), op, ": stack expects each tensor to be equal size, but got ",
             formatSizes(first.sizes()), " at entry 0 and ", formatSizes(t.sizes()), " at entry ", i);
    plan.dtype = i == 0 ? t.scalar_type() : promoteTypes(plan.dtype, t.scalar_type());
  }
  plan.dim = wrapDim(dim, first.dim() + 1, op, "dim");
  plan.sizes.assign(first.sizes().begin(), first.sizes().end());
  plan.sizes.insert(plan.sizes.begin() + plan.dim, static_cast<int64_t>(tensors.size()));
  return plan;
}

// Writes the stacked tensors into `dst`, which has the planned shape and shares no memory with them.
void writeStack(const char* op, const Tensor& dst, TensorList tensors, int64_t dim) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  if (dst.numel() == 0) return;
  bool dense = dst.is_contiguous();
  for (const Tensor& t : tensors) dense = dense && t.is_contiguous() && t.scalar_type() == dst.scalar_type();
  if (dense) {
    // For each outer index, each input's block of `inner` elements in turn: dst front to back.
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= dst.size(d);
    for (int64_t d = dim + 1; d < dst.dim(); ++d) inner *= dst.size(d);
    const size_t block = static_cast<size_t>(inner) * dst.element_size();
    char* to = static_cast<char*>(dst.data_ptr());
    for (int64_t o = 0; o < outer; ++o) {
      for (const Tensor& t : tensors) {
        std::memcpy(to, static_cast<const char*>(t.data_ptr()) + static_cast<size_t>(o) * block, block);
        to += block;
      }
    }
    return;
  }
  SizesVector sizes(dst.sizes().begin(), dst.sizes().end());
  SizesVector strides(dst.strides().begin(), dst.strides().end());
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor part = viewOf(dst, sizes, strides, dst.storage_offset() + static_cast<int64_t>(i) * dst.stride(dim));
    copyIntoCPU(op, part, tensors[i], "out", "tensors");
  }
}

bool stackSharesMemory(const Tensor& out, TensorList tensors) {
  for (const Tensor& t : tensors) {
    if (sameMemory(out, t)) return true;
  }
  return false;
}

}  // namespace

// The kernel backends/devices/cpu/shape_ops.yaml binds; it serves aten::stack too.
namespace native {

Tensor& stack_out_cpu(TensorList tensors, int64_t dim, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const StackPlan plan = planStack(op, tensors, dim);
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(plan.sizes, TensorOptions(plan.dtype).device(kCPU));
    writeStack(op, out, tensors, plan.dim);
    return out;
  }
  checkOnCPU(op, "out", out);
  checkCanCastToOutput(op, plan.dtype, out);
  if (stackSharesMemory(out, tensors)) {
    const Tensor staged = sy::empty(plan.sizes, plan.dtype);
    writeStack(op, staged, tensors, plan.dim);
    resizeOutput(out, plan.sizes);
    copyIntoCPU(op, out, staged, "out", "result");
    return out;
  }
  resizeOutput(out, plan.sizes);
  checkNoInternalOverlap(op, out, "out");
  writeStack(op, out, tensors, plan.dim);
  return out;
}

}  // namespace native
}  // namespace sy::cpu
