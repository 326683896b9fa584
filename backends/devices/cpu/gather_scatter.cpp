// aten::gather, aten::scatter.value, aten::scatter.src and aten::scatter_add (and their out= forms)
// on the CPU, for every dtype.
//
// Semantics, as PyTorch's (for dim = 1 of 2-D tensors):
//   gather:  out[i][j] = self[i][index[i][j]];   out has index's shape and self's dtype
//   scatter: out = self, then out[i][index[i][j]] = value for every (i, j) of index
//   scatter.src: the same with src[i][j] for value; scatter_add adds src[i][j] instead (Bool: or).
//     src has self's dtype, as many dims as index and is at least index's size along every dim;
//     where index names one element twice, scatter.src keeps the last write (row-major order).
//   - `index` is Long and has as many dimensions as self (a 0-dim tensor counts as 1-D);
//   - along every other dimension d, index.size(d) <= self.size(d): index covers a corner of self;
//   - every index value lies in [0, self.size(dim)); negative values are an error, not wrapped;
//   - `out` must have self's dtype and is resized to its result shape when that differs;
//   - `sparse_grad` only tells autograd how to build gather's gradient; the result is the same.
// Inputs are read through their strides; an `out` sharing memory with an input, or not contiguous,
// receives a result computed in a temporary.
#include <string>
#include <type_traits>
#include <vector>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/index_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

int64_t dimAsOneD(const Tensor& t) { return t.dim() == 0 ? 1 : t.dim(); }
int64_t sizeAsOneD(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
int64_t strideAsOneD(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.stride(d); }

SizesVector stridesAsOneD(const Tensor& t) {
  if (t.dim() == 0) return {1};
  return SizesVector(t.strides().begin(), t.strides().end());
}

// Calls visit(index_value, position_offset, src_offset) for every element of `index` in row-major
// order, where position_offset is the element offset, in a tensor with `strides`, of the element at
// the same coordinates with the `dim` coordinate left at 0, and src_offset the offset of the
// element at the same coordinates in a tensor with `src_strides` (0 when those are empty). Raises
// for an index value out of range.
template <class Visit>
void forEachIndex(const char* op, const Tensor& index, int64_t dim, int64_t limit, IntArrayRef strides,
                  IntArrayRef src_strides, Visit&& visit) {
  const int64_t ndim = dimAsOneD(index);
  const int64_t* index_data = index.data_ptr<int64_t>();
  absl::InlinedVector<int64_t, 8> coords(static_cast<size_t>(ndim), 0);
  int64_t index_offset = 0;
  int64_t position = 0;
  int64_t src_position = 0;
  for (int64_t n = 0; n < index.numel(); ++n) {
    const int64_t value = index_data[index_offset];
    SY_CHECK_INDEX(value >= 0 && value < limit, op, ": index ", value, " is out of bounds for dimension ", dim,
             " with size ", limit);
    visit(value, position, src_position);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      const int64_t step = d == dim ? 0 : strides[d];
      const int64_t src_step = src_strides.empty() ? 0 : src_strides[d];
      if (++coords[d] < sizeAsOneD(index, d)) {
        index_offset += strideAsOneD(index, d);
        position += step;
        src_position += src_step;
        break;
      }
      index_offset -= (coords[d] - 1) * strideAsOneD(index, d);
      position -= (coords[d] - 1) * step;
      src_position -= (coords[d] - 1) * src_step;
      coords[d] = 0;
    }
  }
}


// Checks self and index against each other, and every index value, before anything is written;
// returns `dim` wrapped.
int64_t checkIndexArguments(const char* op, const Tensor& self, int64_t dim, const Tensor& index) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "index", index);
  SY_CHECK_TYPE(index.scalar_type() == ScalarType::Long, op, ": expected 'index' to have dtype Long but got ",
           index.scalar_type());
  const int64_t ndim = dimAsOneD(self);
  SY_CHECK(dimAsOneD(index) == ndim, op, ": index tensor must have the same number of dimensions as self tensor (",
           "self is ", self.dim(), "-D, index is ", index.dim(), "-D)");
  const int64_t wrapped = wrapDim(dim, ndim, op, "dim", /*wrap_scalar=*/false);
  if (index.numel() == 0) return wrapped;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d == wrapped) continue;
    SY_CHECK(sizeAsOneD(index, d) <= sizeAsOneD(self, d), op, ": size does not match at dimension ", d,
             ": expected index ", formatSizes(index.sizes()), " to be no larger than self ", formatSizes(self.sizes()),
             " apart from dimension ", wrapped);
  }
  forEachIndex(op, index, wrapped, sizeAsOneD(self, wrapped), stridesAsOneD(index), {},
               [](int64_t, int64_t, int64_t) {});
  return wrapped;
}

void checkOutDtype(const char* op, const Tensor& self, const Tensor& out) {
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
           " but got ", out.scalar_type());
}

// True when the kernel may write `out` directly: contiguous and sharing no memory with an input.
bool writableInPlace(const Tensor& out, std::initializer_list<const Tensor*> inputs) {
  if (!out.is_contiguous()) return false;
  for (const Tensor* input : inputs) {
    if (sameMemory(out, *input)) return false;
  }
  return true;
}

void gatherInto(const char* op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& dst) {
  if (index.numel() == 0) return;
  const SizesVector self_strides = stridesAsOneD(self);
  dispatchDtype<native::gather_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = static_cast<const T*>(self.data_ptr());
    T* out = static_cast<T*>(dst.data_ptr());
    int64_t n = 0;
    forEachIndex(op, index, dim, sizeAsOneD(self, dim), self_strides, {}, [&](int64_t value, int64_t position, int64_t) {
      out[n++] = loadElement(src + position + value * self_strides[dim]);
    });
  });
}

void scatterValueInto(const char* op, int64_t dim, const Tensor& index, const Scalar& value, const Tensor& dst) {
  if (index.numel() == 0) return;
  const SizesVector dst_strides = stridesAsOneD(dst);
  // The value converted as a Scalar operand is (a per-thread 0-dim tensor: no allocation per call).
  const Tensor converted = wrappedScalarOperand(value, dst.scalar_type());
  dispatchDtype<native::scatter_value_out_cpu_dtypes>(dst.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = *static_cast<const T*>(converted.data_ptr());
    T* out = static_cast<T*>(dst.data_ptr());
    forEachIndex(op, index, dim, sizeAsOneD(dst, dim), dst_strides, {},
                 [&](int64_t i, int64_t position, int64_t) { out[position + i * dst_strides[dim]] = v; });
  });
}

// Checks scatter's src against self and index (after checkIndexArguments).
void checkScatterSource(const char* op, const Tensor& self, const Tensor& index, const Tensor& src) {
  checkOnCPU(op, "src", src);
  SY_CHECK(src.scalar_type() == self.scalar_type(), op, ": expected 'src' to have self's dtype ", self.scalar_type(),
           " but got ", src.scalar_type());
  const int64_t ndim = dimAsOneD(index);
  SY_CHECK(dimAsOneD(src) == ndim, op, ": index tensor must have the same number of dimensions as src tensor (",
           "src is ", src.dim(), "-D, index is ", index.dim(), "-D)");
  if (index.numel() == 0) return;
  for (int64_t d = 0; d < ndim; ++d) {
    SY_CHECK(sizeAsOneD(index, d) <= sizeAsOneD(src, d), op, ": size does not match at dimension ", d,
             ": expected index ", formatSizes(index.sizes()), " to be no larger than src ", formatSizes(src.sizes()));
  }
}

// scatter.src_out and scatter_add.out share their loop, so their entries declare one set of dtypes.
constexpr unsigned kScatterSourceDtypes = native::scatter_src_out_cpu_dtypes;
static_assert(native::scatter_add_out_cpu_dtypes == kScatterSourceDtypes,
              "scatter.src_out and scatter_add.out declare the same dtypes: in index_ops.yaml");

// Writes (kAdd: adds) src's elements into `dst` where index sends them.
template <bool kAdd>
void scatterSourceInto(const char* op, int64_t dim, const Tensor& index, const Tensor& src, const Tensor& dst) {
  if (index.numel() == 0) return;
  const SizesVector dst_strides = stridesAsOneD(dst);
  const SizesVector src_strides = stridesAsOneD(src);
  dispatchDtype<kScatterSourceDtypes>(dst.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = static_cast<const T*>(src.data_ptr());
    T* out = static_cast<T*>(dst.data_ptr());
    forEachIndex(op, index, dim, sizeAsOneD(dst, dim), dst_strides, src_strides,
                 [&](int64_t i, int64_t position, int64_t src_position) {
                   T& target = out[position + i * dst_strides[dim]];
                   const T v = loadElement(from + src_position);
                   if constexpr (!kAdd) {
                     target = v;
                   } else if constexpr (std::is_same_v<T, bool>) {
                     target = target || v;
                   } else {
                     target = static_cast<T>(target + v);
                   }
                 });
  });
}

// scatter.src_out (kAdd false) or scatter_add.out in the form `ctx` names.
template <bool kAdd>
Tensor& scatterSourceOut(const KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                         const Tensor& src, Tensor& out) {
  const char* op = ctx.op;
  const int64_t d = checkIndexArguments(op, self, dim, index);
  checkScatterSource(op, self, index, src);
  if (ctx.form == OutputForm::Functional)
    out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  checkOutDtype(op, self, out);
  const Tensor source = unaffectedByResizeOf(out, self);
  const Tensor positions = unaffectedByResizeOf(out, index);
  const Tensor values = unaffectedByResizeOf(out, src);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out);
  if (writableInPlace(out, {&positions, &values})) {
    copyIntoCPU(op, out, source, "out", "self");
    scatterSourceInto<kAdd>(op, d, positions, values, out);
    return out;
  }
  Tensor staged = scratchTensor(op, self.sizes(), self.scalar_type());
  copyIntoCPU(op, staged, source, "result", "self");
  scatterSourceInto<kAdd>(op, d, positions, values, staged);
  copyIntoCPU(op, out, staged, "out", "result");
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/index_ops.yaml) ---------------------------

namespace native {

Tensor& gather_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad, Tensor& out,
                       const KernelContext& ctx) {
  const char* op = ctx.op;
  const int64_t d = checkIndexArguments(op, self, dim, index);
  if (ctx.form == OutputForm::Functional)
    out = ops::empty(index.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  checkOutDtype(op, self, out);
  // See Note [An out= that is also an input keeps the input's values].
  const Tensor source = unaffectedByResizeOf(out, self);
  const Tensor positions = unaffectedByResizeOf(out, index);
  resizeOutput(out, index.sizes());
  checkNoInternalOverlap(op, out);
  if (writableInPlace(out, {&source, &positions})) {
    gatherInto(op, source, d, positions, out);
    return out;
  }
  Tensor staged = scratchTensor(op, index.sizes(), self.scalar_type());
  gatherInto(op, source, d, positions, staged);
  copyIntoCPU(op, out, staged, "out", "result");
  return out;
}

Tensor& scatter_value_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, Tensor& out,
                              const KernelContext& ctx) {
  const char* op = ctx.op;
  const int64_t d = checkIndexArguments(op, self, dim, index);
  if (ctx.form == OutputForm::Functional)
    out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  checkOutDtype(op, self, out);
  const Tensor source = unaffectedByResizeOf(out, self);
  const Tensor positions = unaffectedByResizeOf(out, index);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out);
  if (writableInPlace(out, {&positions})) {
    copyIntoCPU(op, out, source, "out", "self");
    scatterValueInto(op, d, positions, value, out);
    return out;
  }
  Tensor staged = scratchTensor(op, self.sizes(), self.scalar_type());
  copyIntoCPU(op, staged, source, "result", "self");
  scatterValueInto(op, d, positions, value, staged);
  copyIntoCPU(op, out, staged, "out", "result");
  return out;
}

Tensor& scatter_src_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, Tensor& out,
                            const KernelContext& ctx) {
  return scatterSourceOut<false>(ctx, self, dim, index, src, out);
}
Tensor& scatter_add_out_cpu(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, Tensor& out,
                            const KernelContext& ctx) {
  return scatterSourceOut<true>(ctx, self, dim, index, src, out);
}

}  // namespace native
}  // namespace sy::cpu
