// aten::index_select (and its out= form) on the CPU, for every dtype.
//
// Semantics, as PyTorch's: out = self with dimension `dim` replaced by the entries `index` names,
// out.select(dim, i) == self.select(dim, index[i]).
//   - `index` is Long or Int, 1-D or 0-dim (one entry); `dim` may be negative; a 0-dim self is
//     indexed as a 1-element 1-D tensor, and its result is 0-dim whatever the index's shape;
//   - every index value lies in [0, self.size(dim)) (negative values are an error, not wrapped),
//     checked before anything is written;
//   - `out` must have self's dtype and is resized to the result shape.
// Inputs are read through their strides; an `out` sharing memory with an input, or not contiguous,
// receives a result computed in a temporary.
#include <cstdint>
#include <cstring>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/index_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// The `i`th entry of the 1-D or 0-dim `index`, of dtype Long or Int.
int64_t indexEntry(const Tensor& index, int64_t i) {
  const int64_t offset = index.dim() == 0 ? 0 : i * index.stride(0);
  return index.scalar_type() == ScalarType::Long ? index.data_ptr<int64_t>()[offset]
                                                 : static_cast<int64_t>(index.data_ptr<int32_t>()[offset]);
}

SizesVector resultSizes(const Tensor& self, int64_t dim, const Tensor& index) {
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  if (self.dim() == 0) return sizes;  // PyTorch's result keeps a 0-dim self's shape
  sizes[static_cast<size_t>(dim)] = index.numel();
  return sizes;
}

// Copies the selected entries into the contiguous `dst`, element by element (any dtype: bytes).
void selectInto(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& dst) {
  if (dst.numel() == 0) return;
  const int64_t ndim = self.dim() == 0 ? 1 : self.dim();
  const size_t element = self.element_size();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* out = static_cast<char*>(dst.data_ptr());
  // self viewed as [outer, size(dim), inner] over its strides, the outer and inner parts walked
  // with an odometer each.
  SizesVector sizes(static_cast<size_t>(ndim), 1), strides(static_cast<size_t>(ndim), 1);
  for (int64_t d = 0; d < self.dim(); ++d) {
    sizes[static_cast<size_t>(d)] = self.size(d);
    strides[static_cast<size_t>(d)] = self.stride(d);
  }
  sizes[static_cast<size_t>(dim)] = index.numel();
  SizesVector coords(static_cast<size_t>(ndim), 0);
  for (int64_t n = 0; n < dst.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t c = coords[static_cast<size_t>(d)];
      offset += (d == dim ? indexEntry(index, c) : c) * strides[static_cast<size_t>(d)];
    }
    std::memcpy(out + n * static_cast<int64_t>(element), src + offset * static_cast<int64_t>(element), element);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++coords[static_cast<size_t>(d)] < sizes[static_cast<size_t>(d)]) break;
      coords[static_cast<size_t>(d)] = 0;
    }
  }
}

}  // namespace

// ---- The kernel (registered from backends/devices/cpu/index_ops.yaml) ----------------------------

namespace native {

Tensor& index_select_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, Tensor& out,
                             const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "index", index);
  checkDtypeSupported(op, "self", self.scalar_type(), index_select_out_cpu_dtypes);
  SY_CHECK_TYPE(index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int, op,
                ": index_select(): Expected dtype int32 or int64 for index, but got ", index.scalar_type());
  SY_CHECK_INDEX(index.dim() <= 1, op, ": index_select(): Index is supposed to be a vector, but got a ", index.dim(),
                 "-D index");
  const int64_t d = wrapDim(dim, self.dim(), op, "dim");
  const int64_t limit = self.dim() == 0 ? 1 : self.size(d);
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t value = indexEntry(index, i);
    SY_CHECK_INDEX(value >= 0 && value < limit, op, ": index out of range in self: index ", value,
                   " is out of bounds for dimension ", d, " with size ", limit);
  }
  const SizesVector sizes = resultSizes(self, d, index);
  if (ctx.form == OutputForm::Functional) out = ops::empty(sizes, TensorOptions(self.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK_TYPE(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ",
                self.scalar_type(), " but got ", out.scalar_type());
  // See Note [An out= that is also an input keeps the input's values].
  const Tensor source = unaffectedByResizeOf(out, self);
  const Tensor positions = unaffectedByResizeOf(out, index);
  resizeOutput(out, sizes);
  checkNoInternalOverlap(op, out);
  if (out.is_contiguous() && !sameMemory(out, source) && !sameMemory(out, positions)) {
    selectInto(source, d, positions, out);
    return out;
  }
  Tensor staged = sy::empty(sizes, self.scalar_type());
  selectInto(source, d, positions, staged);
  copyIntoCPU(op, out, staged, "out", "result");
  return out;
}

}  // namespace native
}  // namespace sy::cpu
