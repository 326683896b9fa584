// The view scatters on the CPU: select_scatter.out and slice_scatter.out (each serving its
// functional form). They are the functional twins of writing through a view: the result is a copy
// of self whose select(dim, index) (or slice(dim, start, end, step)) holds src instead.
//
// Semantics (PyTorch's): the view follows the view operator's rules (wrapped dims, a negative
// index or bounds counted from the end, a slice's bounds clamped), and its errors, prefixed with
// this operator's name; src must have exactly the view's shape and is converted to self's dtype;
// the result has self's shape and dtype, and an out= tensor must have that dtype too (these copy,
// they never convert) and is resized to self's shape. An out sharing memory with self or src is
// written through a temporary, so both are read as they were before the call.
#include <utility>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/backends/devices/cpu/view_copy_kernels.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// The view `make_view(t)` of t, its errors prefixed with `op`.
template <class MakeView>
Tensor scatteredViewOf(const char* op, const Tensor& t, MakeView& make_view) {
  try {
    return make_view(t);
  } catch (const Error& e) {
    ::sy::detail::throwError(e.kind(), str(op, ": ", e.what()));
  }
}

// Writes self into `into` (self's shape), then src into the view of `into`.
template <class MakeView>
void writeScattered(const char* op, const Tensor& into, const Tensor& self, const Tensor& src, MakeView& make_view) {
  copyIntoCPU(op, into, self, "out", "self");
  copyIntoCPU(op, scatteredViewOf(op, into, make_view), src, "out", "src");
}

template <class MakeView>
Tensor& scatterIntoView(const KernelContext& ctx, const Tensor& self, const Tensor& src, Tensor& out,
                        MakeView&& make_view) {
  const char* op = ctx.op;
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "src", src);
  const Tensor view = scatteredViewOf(op, self, make_view);
  SY_CHECK(sameSizes(src.sizes(), view.sizes()), op, ": expected src to have a size equal to the slice of self. src size = ",
           formatSizes(src.sizes()), ", slice size = ", formatSizes(view.sizes()));
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
    writeScattered(op, out, self, src, make_view);
    return out;
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
           " but got ", out.scalar_type(), " (this operator copies; it does not convert)");
  if (sameMemory(out, self) || sameMemory(out, src)) {
    const Tensor staged = scratchTensor(op, self.sizes(), self.scalar_type());
    writeScattered(op, staged, self, src, make_view);
    resizeOutput(out, self.sizes());
    copyIntoCPU(op, out, staged, "out", "result");
    return out;
  }
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out, "out");
  writeScattered(op, out, self, src, make_view);
  return out;
}

}  // namespace

namespace native {

Tensor& select_scatter_out_cpu(const Tensor& self, const Tensor& src, int64_t dim, int64_t index, Tensor& out,
                               const KernelContext& ctx) {
  return scatterIntoView(ctx, self, src, out,
                         [&](const Tensor& t) { return select_int(t, dim, index, views::kSelectInt); });
}

Tensor& slice_scatter_out_cpu(const Tensor& self, const Tensor& src, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step, Tensor& out, const KernelContext& ctx) {
  return scatterIntoView(ctx, self, src, out, [&](const Tensor& t) {
    return slice_Tensor(t, dim, start, end, step, views::kSliceTensor);
  });
}

}  // namespace native
}  // namespace sy::cpu
