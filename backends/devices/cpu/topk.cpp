// topk.values (+ topk) on the CPU: the k largest (or smallest) elements of self along `dim`, with
// their indices along it.
//
// Semantics (PyTorch's): 0 <= k <= the size of dim (1 for a 0-dim self); `values` has self's dtype
// and self's shape with dim of size k, `indices` is Long of the same shape. NaN counts as larger
// than every number (first when largest, last when smallest). Bool is refused, as by PyTorch's and
// ExecuTorch's kernels.
//
// Note [topk orders ties by index, sorted or not]
// PyTorch leaves the order of equal elements, and the whole order when sorted=False, unspecified
// (its CPU kernel partially sorts with a comparator that ignores the index, so ties come out in
// whatever order the sort left them). Here the order is always total: by value, then by ascending
// index. So the result is sorted whatever `sorted` says, and equal values (0.0 and -0.0 are equal,
// as two NaNs are) keep their order in self: the first k of PyTorch's stable sort, which is what
// the oracle compares with (conformance/oracle/cases/reduction_cases.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/reduction/NativeFunctions.h"

namespace sy::cpu {
namespace {

// Checks an out= argument of topk: on the CPU, of `dtype`; then resizes it and checks it has no
// internal overlap.
void prepareTopkOut(const char* op, const char* name, const Tensor& out, ScalarType dtype, IntArrayRef sizes) {
  checkOnCPU(op, name, out);
  SY_CHECK(out.scalar_type() == dtype, op, ": expected '", name, "' to have dtype ", dtype, " but got ",
           out.scalar_type());
  resizeOutput(out, sizes);
  checkNoInternalOverlap(op, out, name);
}

// An element of a row being ranked: its value and its index along dim (plain data, so a long row
// can live in scratch memory).
template <class T>
struct Ranked {
  T value;
  int64_t index;
};

// True when element a (value, index) comes before element b in topk's total order. See Note [topk
// orders ties by index, sorted or not].
template <class T>
bool topkBefore(const Ranked<T>& a, const Ranked<T>& b, bool largest) {
  if constexpr (is_floating_v<T>) {
    const bool a_nan = std::isnan(static_cast<compute_type_t<T>>(a.value));
    const bool b_nan = std::isnan(static_cast<compute_type_t<T>>(b.value));
    if (a_nan != b_nan) return largest ? a_nan : b_nan;
    if (a_nan) return a.index < b.index;
  }
  if (a.value != b.value) return largest ? a.value > b.value : a.value < b.value;
  return a.index < b.index;
}

// Rows of up to this many elements are ranked in a buffer on the stack; longer ones in scratch
// memory (See Note [Kernel scratch is reused, not allocated]).
constexpr int64_t kTopkInlineRow = 64;

template <class T>
void topkRows(const Tensor& self, int64_t dim, int64_t k, bool largest, const Tensor& values, const Tensor& indices) {
  const int64_t ndim = self.dim();
  if (ndim == 0) k = 1;  // PyTorch copies a 0-dim self whatever k (0 or 1) is
  const int64_t extent = ndim == 0 ? 1 : self.size(dim);
  const int64_t self_step = ndim == 0 ? 0 : self.stride(dim);
  const int64_t values_step = ndim == 0 ? 0 : values.stride(dim);
  const int64_t indices_step = ndim == 0 ? 0 : indices.stride(dim);
  Ranked<T> inline_row[kTopkInlineRow];
  Tensor long_row;
  Ranked<T>* row = extent > kTopkInlineRow ? scratchArray<Ranked<T>>("topk", extent, long_row) : inline_row;
  const T* in = static_cast<const T*>(self.data_ptr());
  T* out_values = static_cast<T*>(values.data_ptr());
  int64_t* out_indices = static_cast<int64_t*>(indices.data_ptr());
  // An odometer over every dimension but `dim`, moving the three base offsets together.
  SizesVector index(static_cast<size_t>(ndim), 0);
  int64_t self_base = 0, values_base = 0, indices_base = 0;
  const int64_t rows = extent == 0 ? 0 : self.numel() / extent;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < extent; ++i) row[i] = {in[self_base + i * self_step], i};
    std::partial_sort(row, row + k, row + extent,
                      [largest](const auto& a, const auto& b) { return topkBefore<T>(a, b, largest); });
    for (int64_t j = 0; j < k; ++j) {
      out_values[values_base + j * values_step] = row[j].value;
      out_indices[indices_base + j * indices_step] = row[j].index;
    }
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (d == dim) continue;
      self_base += self.stride(d);
      values_base += values.stride(d);
      indices_base += indices.stride(d);
      if (++index[d] < self.size(d)) break;
      self_base -= index[d] * self.stride(d);
      values_base -= index[d] * values.stride(d);
      indices_base -= index[d] * indices.stride(d);
      index[d] = 0;
    }
  }
}

}  // namespace

namespace native {

std::tuple<Tensor&, Tensor&> topk_values_cpu(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted,
                                             Tensor& values, Tensor& indices, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkDtypeSupported(op, "self", self.scalar_type(), native::topk_values_cpu_dtypes);
  const int64_t d = wrapDim(dim, self.dim(), op, "dim");
  const int64_t extent = self.dim() == 0 ? 1 : self.size(d);
  SY_CHECK_INDEX(k >= 0 && k <= extent, op, ": selected index k out of range (k is ", k, ", and dimension ", d,
                 " has size ", extent, ")");
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) sizes[d] = k;
  if (ctx.form == OutputForm::Functional) {
    values = ops::empty(sizes, TensorOptions(self.scalar_type()).device(kCPU));
    indices = ops::empty(sizes, TensorOptions(ScalarType::Long).device(kCPU));
  } else {
    SY_CHECK(!sameMemory(values, indices), op, ": 'values' and 'indices' must not share memory");
  }
  // An out that shares memory with self would be written while self is still being read.
  Tensor source = readableInputOf(op, self, values);
  source = readableInputOf(op, source, indices);
  if (ctx.form != OutputForm::Functional) {
    prepareTopkOut(op, "values", values, self.scalar_type(), sizes);
    prepareTopkOut(op, "indices", indices, ScalarType::Long, sizes);
  }
  (void)sorted;  // See Note [topk orders ties by index, sorted or not].
  if (values.numel() == 0) return {values, indices};
  dispatchDtype<native::topk_values_cpu_dtypes>(source.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) topkRows<T>(source, d, k, largest, values, indices);
  });
  return {values, indices};
}

}  // namespace native
}  // namespace sy::cpu
