// The splitting copies on the CPU: split_copy.Tensor_out, split_with_sizes_copy.out and
// unbind_copy.int_out. Each cuts `self` into pieces along `dim` and writes piece i into out[i]; the
// operators return nothing (`-> ()`): the list of outs is the result. Their functional forms
// (split_copy.Tensor, split_with_sizes_copy, unbind_copy.int: `-> Tensor[]`) get their outs from
// the *_outs functions here (See Note [A list of outs is created by its own function] in
// dispatcher/derived_kernels.h).
//
// Semantics, as PyTorch's split, split_with_sizes and unbind followed by a copy (ExecuTorch's
// portable kernels agree):
//   - `dim` wraps (-1 is the last dimension); a 0-dim self has nothing to split and is an error;
//   - split_copy: pieces of split_size along dim, the last one shorter when split_size does not
//     divide the size (at least one piece, so an empty dimension gives one empty piece);
//     split_size 0 only for an empty dimension;
//   - split_with_sizes_copy: the sizes must be non-negative and add up to self's size at dim;
//   - unbind_copy: one piece per index along dim, with dim removed;
//   - `out` must hold exactly one tensor per piece, each of self's dtype (these copy, they never
//     convert); an out of another shape is resized to its piece's (PyTorch's out= rule);
//   - an out sharing memory with self gets the values self had before the call: self is copied
//     aside first (the only case that allocates).
#include <algorithm>
#include <cstring>
#include <vector>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/view_copy_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/wrap_dim.h"

namespace sy::cpu {
namespace {

// Where the pieces lie along the split dimension: piece i starts at start(i) and is length(i) long.
// `keep_dim` false drops the dimension from each piece's shape (unbind).
struct SplitPieces {
  int64_t count = 0;
  int64_t size = 0;  // split_copy: every piece's length but the last's
  IntArrayRef sizes;  // split_with_sizes_copy: each piece's length
  bool keep_dim = true;
  int64_t length(int64_t i) const {
    if (!sizes.empty()) return sizes[static_cast<size_t>(i)];
    return i + 1 < count ? size : splitLastLength();
  }
  int64_t splitLastLength() const { return total - size * (count - 1); }
  int64_t total = 0;  // self's size at dim
};

// Raises unless self can be split: defined, on the CPU, with a dimension to split.
int64_t splitDim(const char* op, const Tensor& self, int64_t dim) {
  checkOnCPU(op, "self", self);
  SY_CHECK(self.dim() > 0, op, ": expected a tensor with at least one dimension to split, but 'self' is 0-dim");
  return wrapDim(dim, self.dim(), op, "dim");
}

// Checks the list of outs against the pieces: one per piece, on the CPU, of self's dtype.
void checkSplitOuts(const char* op, const Tensor& self, TensorList out, int64_t count) {
  SY_CHECK(static_cast<int64_t>(out.size()) == count, op, ": expected 'out' to hold ", count,
           count == 1 ? " tensor" : " tensors", " (one per piece of 'self'), but it holds ", out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const Tensor& o = out[i];
    SY_CHECK(o.defined(), op, ": 'out[", i, "]' is an undefined tensor");
    if (SY_UNLIKELY(!o.device().is_cpu())) checkOnCPU(op, str("out[", i, "]").c_str(), o);
    SY_CHECK(o.scalar_type() == self.scalar_type(), op, ": expected 'out[", i, "]' to have self's dtype ",
             self.scalar_type(), " but got ", o.scalar_type(), " (this operator copies; it does not convert)");
  }
}

bool sharesMemoryWithSelf(const Tensor& self, TensorList out) {
  for (const Tensor& o : out) {
    if (sameMemory(o, self)) return true;
  }
  return false;
}

// Resizes each out to its piece's shape and copies the piece into it.
void writeSplitPieces(const char* op, const Tensor& self, int64_t dim, const SplitPieces& pieces, TensorList out) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  // Self copied aside when an out shares its memory, so that writing one piece cannot change the next.
  const Tensor source = sharesMemoryWithSelf(self, out) ? sy::empty(self.sizes(), self.scalar_type()) : self;
  if (!source.is_same(self)) copyIntoCPU(op, source, self, "copy", "self");
  SizesVector sizes(source.sizes().begin(), source.sizes().end());
  SizesVector strides(source.strides().begin(), source.strides().end());
  if (!pieces.keep_dim) {
    sizes.erase(sizes.begin() + dim);
    strides.erase(strides.begin() + dim);
  }
  const int64_t dim_stride = source.stride(dim);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= source.size(d);
  for (int64_t d = dim + 1; d < source.dim(); ++d) inner *= source.size(d);
  const size_t element_size = source.element_size();
  const bool dense_source = source.is_contiguous();
  int64_t start = 0;
  for (int64_t i = 0; i < pieces.count; ++i) {
    const Tensor& o = out[static_cast<size_t>(i)];
    const int64_t length = pieces.length(i);
    if (pieces.keep_dim) sizes[dim] = length;
    resizeOutput(o, sizes);
    checkNoInternalOverlap(op, o, "out");
    if (o.numel() != 0) {
      if (dense_source && o.is_contiguous()) {
        // Whole blocks: for each outer index, the piece's `length * inner` elements.
        const size_t block = static_cast<size_t>(length * inner) * element_size;
        const size_t row = static_cast<size_t>(source.size(dim) * inner) * element_size;
        const char* from = static_cast<const char*>(source.data_ptr()) + static_cast<size_t>(start * inner) * element_size;
        char* to = static_cast<char*>(o.data_ptr());
        for (int64_t k = 0; k < outer; ++k) std::memcpy(to + static_cast<size_t>(k) * block, from + static_cast<size_t>(k) * row, block);
      } else {
        const Tensor piece = viewOf(source, sizes, strides, source.storage_offset() + start * dim_stride);
        copyIntoCPU(op, o, piece, "out", "self");
      }
    }
    start += length;
  }
}

// The pieces of each operator, its arguments checked; `d` receives the wrapped dimension.
SplitPieces splitCopyPieces(const char* op, const Tensor& self, int64_t split_size, int64_t dim, int64_t& d) {
  d = splitDim(op, self, dim);
  const int64_t total = self.size(d);
  SY_CHECK(split_size >= 0, op, ": expected 'split_size' to be non-negative, but got ", split_size);
  SY_CHECK(split_size != 0 || total == 0, op, ": 'split_size' can only be 0 if dimension ", d,
           " is empty, but its size is ", total);
  SplitPieces pieces;
  pieces.total = total;
  pieces.size = split_size;
  // ceil(total / split_size) pieces, at least one; computed without overflowing.
  pieces.count = split_size == 0 ? 1 : std::max<int64_t>(total / split_size + (total % split_size != 0), 1);
  return pieces;
}

SplitPieces splitWithSizesPieces(const char* op, const Tensor& self, IntArrayRef split_sizes, int64_t dim, int64_t& d) {
  d = splitDim(op, self, dim);
  int64_t sum = 0;
  for (int64_t s : split_sizes) {
    SY_CHECK(s >= 0, op, ": expected 'split_sizes' to hold only non-negative sizes, but got ", formatSizes(split_sizes));
    SY_CHECK(checkedAdd(sum, s, &sum), op, ": 'split_sizes' ", formatSizes(split_sizes), " add up to more than 64 bits hold");
  }
  SY_CHECK(sum == self.size(d), op, ": expected 'split_sizes' to add up to ", self.size(d),
           " (the size of 'self' at dimension ", d, "), but got ", formatSizes(split_sizes), ", which add up to ", sum);
  SplitPieces pieces;
  pieces.total = sum;
  pieces.sizes = split_sizes;
  pieces.count = static_cast<int64_t>(split_sizes.size());
  return pieces;
}

SplitPieces unbindPieces(const char* op, const Tensor& self, int64_t dim, int64_t& d) {
  d = splitDim(op, self, dim);
  SplitPieces pieces;
  pieces.total = self.size(d);
  pieces.size = 1;
  pieces.count = self.size(d);
  pieces.keep_dim = false;
  return pieces;
}

void writeCheckedSplitPieces(const char* op, const Tensor& self, int64_t d, const SplitPieces& pieces, TensorList out) {
  checkSplitOuts(op, self, out, pieces.count);
  writeSplitPieces(op, self, d, pieces, out);
}

// The functional forms' outs: one empty tensor of self's dtype per piece, which the kernel resizes.
// See Note [A list of outs is created by its own function] in dispatcher/derived_kernels.h.
std::vector<Tensor> freshOuts(const Tensor& self, const SplitPieces& pieces) {
  std::vector<Tensor> outs;
  outs.reserve(static_cast<size_t>(pieces.count));
  for (int64_t i = 0; i < pieces.count; ++i) outs.push_back(sy::empty({0}, self.scalar_type()));
  return outs;
}

}  // namespace

namespace native {

void split_copy_Tensor_out_cpu(const Tensor& self, int64_t split_size, int64_t dim, TensorList out,
                               const KernelContext& ctx) {
  int64_t d = 0;
  const SplitPieces pieces = splitCopyPieces(ctx.op, self, split_size, dim, d);
  writeCheckedSplitPieces(ctx.op, self, d, pieces, out);
}

std::vector<Tensor> split_copy_Tensor_outs(const Tensor& self, int64_t split_size, int64_t dim, const KernelContext& ctx) {
  int64_t d = 0;
  return freshOuts(self, splitCopyPieces(ctx.op, self, split_size, dim, d));
}

void split_with_sizes_copy_out_cpu(const Tensor& self, IntArrayRef split_sizes, int64_t dim, TensorList out,
                                   const KernelContext& ctx) {
  int64_t d = 0;
  const SplitPieces pieces = splitWithSizesPieces(ctx.op, self, split_sizes, dim, d);
  writeCheckedSplitPieces(ctx.op, self, d, pieces, out);
}

std::vector<Tensor> split_with_sizes_copy_outs(const Tensor& self, IntArrayRef split_sizes, int64_t dim,
                                               const KernelContext& ctx) {
  int64_t d = 0;
  return freshOuts(self, splitWithSizesPieces(ctx.op, self, split_sizes, dim, d));
}

void unbind_copy_int_out_cpu(const Tensor& self, int64_t dim, TensorList out, const KernelContext& ctx) {
  int64_t d = 0;
  const SplitPieces pieces = unbindPieces(ctx.op, self, dim, d);
  writeCheckedSplitPieces(ctx.op, self, d, pieces, out);
}

std::vector<Tensor> unbind_copy_int_outs(const Tensor& self, int64_t dim, const KernelContext& ctx) {
  int64_t d = 0;
  return freshOuts(self, unbindPieces(ctx.op, self, dim, d));
}

}  // namespace native
}  // namespace sy::cpu
