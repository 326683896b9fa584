// The two tensor operators ExecuTorch's emitter writes into programs itself:
//   executorch_prim::et_view.default(self, size, out): `out` becomes a view of `self` with `size`
//     (one -1 inferred), sharing self's memory: no bytes are copied;
//   executorch_prim::et_copy_index.tensor(copy_to, copy_from, index): copy_from becomes row `index`
//     of copy_to, which grows to index + 1 rows (the loop of torch's map writes rows 0, 1, 2...).
// Both as ExecuTorch's runtime runs them (kernels/prim_ops/et_view.cpp, et_copy_index.cpp).
//
// Note [et_view shares its input's memory]
// ExecuTorch plans no memory for et_view's output: the kernel points the output at its input's
// data. Here the output value's TensorImpl takes the input's storage and offset with the new sizes
// (contiguous strides), so later calls that borrowed the output read the input's bytes, and a run
// allocates nothing. A program gives et_view a contiguous input (its emitter only inserts it where
// a view is free); another one is refused naming the operator, since a view of it would not be
// contiguous.
#include <cstdint>
#include <cstring>
#include <limits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/core/error.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_impl.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {

// See Note [et_view shares its input's memory].
void et_view(const Tensor& self, IntArrayRef size, const Tensor& out, const KernelContext& ctx) {
  checkOnCPU(ctx.op, "self", self);
  checkOnCPU(ctx.op, "out", out);
  SY_CHECK_TYPE(self.scalar_type() == out.scalar_type(), ctx.op, ": self is ", self.scalar_type(), " but out is ",
                out.scalar_type());
  SY_CHECK_VALUE(static_cast<int64_t>(size.size()) == out.dim(), ctx.op, ": ", size.size(),
                 " sizes for an output of ", out.dim(), " dimensions");
  SY_CHECK_VALUE(self.is_contiguous(), ctx.op, ": self of sizes ", formatSizes(self.sizes()), " and strides ",
                 formatSizes(self.strides()), " is not contiguous, so it has no view of another shape");
  SizesVector sizes(size.begin(), size.end());
  int64_t inferred = -1;
  int64_t known = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == -1) {
      SY_CHECK_VALUE(inferred < 0, ctx.op, ": only one size may be -1, in ", formatSizes(size));
      inferred = static_cast<int64_t>(d);
      continue;
    }
    SY_CHECK_VALUE(sizes[d] >= 0, ctx.op, ": size ", sizes[d], " at dimension ", d, " is negative");
    SY_CHECK_VALUE(!__builtin_mul_overflow(known, sizes[d], &known), ctx.op, ": sizes ", formatSizes(size),
                   " overflow 64-bit integers");
  }
  if (inferred >= 0) {
    SY_CHECK_VALUE(known != 0 && self.numel() % known == 0, ctx.op, ": cannot infer the -1 of ", formatSizes(size),
                   " for ", self.numel(), " elements");
    sizes[static_cast<size_t>(inferred)] = self.numel() / known;
    known = self.numel();
  }
  SY_CHECK_VALUE(known == self.numel(), ctx.op, ": sizes ", formatSizes(size), " hold ", known,
                 " elements, but self has ", self.numel());
  TensorImpl* impl = out.unsafeGetTensorImpl();
  impl->set_storage(self.storage());
  impl->set_sizes_and_strides(sizes, checkedContiguousStrides(ctx.op, sizes), self.storage_offset());
}

void et_copy_index(const Tensor& copy_to, const Tensor& copy_from, int64_t index, const KernelContext& ctx) {
  checkOnCPU(ctx.op, "copy_to", copy_to);
  checkOnCPU(ctx.op, "copy_from", copy_from);
  SY_CHECK_TYPE(copy_to.scalar_type() == copy_from.scalar_type(), ctx.op, ": copy_to is ", copy_to.scalar_type(),
                " but copy_from is ", copy_from.scalar_type());
  SY_CHECK_VALUE(index >= 0, ctx.op, ": index ", index, " is negative");
  SY_CHECK_VALUE(copy_to.dim() == copy_from.dim() + 1, ctx.op, ": copy_to has ", copy_to.dim(),
                 " dimensions and copy_from ", copy_from.dim(), "; copy_to must have one more");
  SizesVector grown(copy_to.sizes().begin(), copy_to.sizes().end());
  for (int64_t d = 0; d < copy_from.dim(); ++d) {
    SY_CHECK_VALUE(grown[static_cast<size_t>(d + 1)] == copy_from.size(d), ctx.op, ": copy_to of sizes ",
                   formatSizes(copy_to.sizes()), " cannot hold rows of sizes ", formatSizes(copy_from.sizes()));
  }
  SY_CHECK_VALUE(copy_to.is_contiguous(), ctx.op, ": copy_to is not contiguous");
  SY_CHECK_VALUE(index < std::numeric_limits<int64_t>::max(), ctx.op, ": index ", index, " is too large");
  grown[0] = index + 1;
  resizeOutput(copy_to, grown);  // checked: a planned copy_to refuses to grow past its bytes
  const size_t row_bytes = static_cast<size_t>(copy_from.numel()) * copy_from.element_size();
  char* row = static_cast<char*>(copy_to.data_ptr()) + static_cast<size_t>(index) * row_bytes;
  // A strided copy_from (never one ExecuTorch's emitter writes) is made dense first.
  const Tensor dense = copy_from.is_contiguous() ? copy_from : ops::contiguous(copy_from);
  if (row_bytes != 0) std::memmove(row, dense.data_ptr(), row_bytes);
}

namespace prim {
extern const KernelContext kEtView{"executorch_prim::et_view.default", OutputForm::Out};
extern const KernelContext kEtCopyIndex{"executorch_prim::et_copy_index.tensor", OutputForm::Out};
}  // namespace prim

}  // namespace sy::cpu

// A program's call passes et_view's output as its third and last argument (ExecuTorch's kernel
// reads three values), so the schema has it as an argument the operator writes, returning nothing.
SY_LIBRARY_FRAGMENT(executorch_prim, m) {
  m.def("et_view.default(Tensor self, int[] size, Tensor(a!) out) -> ()");
  m.def("et_copy_index.tensor(Tensor(a!) copy_to, Tensor copy_from, int index) -> ()");
}

SY_LIBRARY_IMPL(executorch_prim, CPU, m) {
  using namespace sy::cpu;
  m.impl(prim::kEtView.op, sy::withContext<&et_view, &prim::kEtView>());
  m.impl(prim::kEtCopyIndex.op, sy::withContext<&et_copy_index, &prim::kEtCopyIndex>());
}
