// Reductions along one dimension that keep an index, on the CPU: argmax and argmin, and max and min
// along a dim (max.dim_max, min.dim_min: the extreme values and their indices). Each views its input
// as a contiguous [outer, extent, inner] tensor and works along the middle dim; with inner > 1 it
// carries a whole [inner] row of running extrema and indices per step along that dim, so memory is
// read in order either way.
//
// Semantics (PyTorch's): every dtype; Long indices (an out= index tensor must be Long, a values
// tensor must have self's dtype); the first index of the extremum, NaN counting as the extremum
// (max and min alike). argmax/argmin without dim index the flattened tensor in logical order
// (keepdim then keeps every dim as size 1). dim may be negative; a 0-dim tensor takes dim 0 or -1.
// An empty reduction is an error.
#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/devices/cpu/reduction_fold.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// Whether `candidate` replaces `best` as the running maximum (kMax) or minimum: strictly better, or
// the first NaN.
template <class T, bool kMax>
bool argReductionBeats(T candidate, T best) {
  const bool better = kMax ? candidate > best : candidate < best;
  if constexpr (is_floating_v<T>) {
    return better || (candidate != candidate && best == best);
  } else {
    return better;
  }
}

// Indices (and, when `values` is not null, the values) of the extrema of a contiguous
// [outer, extent, inner] tensor along its middle dim.
template <class T, bool kMax>
void argReductionKernel(const T* in, int64_t outer, int64_t extent, int64_t inner, int64_t* indices, T* values) {
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* row = in + o * extent;
      int64_t best = 0;
      for (int64_t r = 1; r < extent; ++r) {
        if (argReductionBeats<T, kMax>(loadElement(row + r), loadElement(row + best))) best = r;
      }
      indices[o] = best;
      if (values != nullptr) values[o] = loadElement(row + best);
    }
    return;
  }
  // The running extrema live in `values` when the caller wants them, else in a row of our own (not
  // std::vector: vector<bool> has no T elements to compare).
  Tensor holder;
  T* own = values == nullptr ? scratchArray<T>("arg reduction", inner, holder) : nullptr;
  for (int64_t o = 0; o < outer; ++o) {
    const T* block = in + o * extent * inner;
    int64_t* block_indices = indices + o * inner;
    T* best = values != nullptr ? values + o * inner : own;
    for (int64_t j = 0; j < inner; ++j) {
      best[j] = loadElement(block + j);
      block_indices[j] = 0;
    }
    for (int64_t r = 1; r < extent; ++r) {
      const T* row = block + r * inner;
      for (int64_t j = 0; j < inner; ++j) {
        const T candidate = loadElement(row + j);
        if (argReductionBeats<T, kMax>(candidate, best[j])) {
          best[j] = candidate;
          block_indices[j] = r;
        }
      }
    }
  }
}

// The result sizes of an index-keeping reduction, plus the [outer, extent, inner] split of self.
struct ArgReductionShape {
  SizesVector result_sizes;
  int64_t outer = 1, extent = 1, inner = 1;
};

ArgReductionShape argReductionShape(const char* op, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  ArgReductionShape shape;
  if (!dim.has_value()) {
    SY_CHECK(self.numel() != 0, op, ": Expected reduction dim to be specified for input.numel() == 0.");
    if (keepdim) shape.result_sizes.assign(static_cast<size_t>(self.dim()), 1);
    shape.extent = self.numel();
    return shape;
  }
  const int64_t d = wrapDim(*dim, self.dim(), op);
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i == d) {
      SY_CHECK(self.size(i) != 0, op, ": Expected reduction dim ", d, " to have non-zero size.");
      shape.extent = self.size(i);
      if (keepdim) shape.result_sizes.push_back(1);
      continue;
    }
    (i < d ? shape.outer : shape.inner) *= self.size(i);
    shape.result_sizes.push_back(self.size(i));
  }
  return shape;
}

// Checks an out= tensor of the result's shape and dtype, resizes it, and says whether the kernel
// can write it directly (contiguous and separate from `input`).
bool prepareArgReductionOut(const char* op, const char* name, const Tensor& out, ScalarType dtype, IntArrayRef sizes) {
  checkOnCPU(op, name, out);
  SY_CHECK(out.scalar_type() == dtype, op, ": expected '", name, "' to have dtype ", dtype, " but got ",
           out.scalar_type());
  resizeOutput(out, sizes);
  checkNoInternalOverlap(op, out, name);
  return out.is_contiguous();
}

// argmax, argmin, max.dim and min.dim share their loop, so their entries declare one set of dtypes.
constexpr unsigned kArgReductionDtypes = native::argmax_out_cpu_dtypes;
static_assert(native::argmin_out_cpu_dtypes == kArgReductionDtypes && native::max_dim_max_cpu_dtypes == kArgReductionDtypes &&
                  native::min_dim_min_cpu_dtypes == kArgReductionDtypes,
              "argmax.out, argmin.out, max.dim_max and min.dim_min declare the same dtypes: in reduction_ops.yaml");

// argmax/argmin (values undefined) or max/min along a dim into `indices` (and `values`): the whole
// out= operation once the outs are allocated or checked by the caller's form.
template <bool kMax>
void argReductionInto(const char* op, const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor* values,
                      Tensor& indices, const char* indices_name) {
  checkOnCPU(op, "self", self);
  checkKnownDtype<kArgReductionDtypes>(op, "self", self.scalar_type());
  const ArgReductionShape shape = argReductionShape(op, self, dim, keepdim);
  Tensor source = unaffectedByResizeOf(indices, self);
  if (values != nullptr) source = unaffectedByResizeOf(*values, source);
  bool direct = prepareArgReductionOut(op, indices_name, indices, ScalarType::Long, shape.result_sizes);
  if (values != nullptr) {
    direct = prepareArgReductionOut(op, "values", *values, self.scalar_type(), shape.result_sizes) && direct;
  }
  if (indices.numel() == 0) return;
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", source);
  direct = direct && !sameMemory(indices, input) && (values == nullptr || !sameMemory(*values, input));
  const Tensor indices_dst = direct ? indices : scratchTensor(op, indices.sizes(), ScalarType::Long);
  Tensor values_dst;
  if (values != nullptr) values_dst = direct ? *values : scratchTensor(op, values->sizes(), self.scalar_type());
  dispatchDtype<kArgReductionDtypes>(input.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    argReductionKernel<T, kMax>(static_cast<const T*>(input.data_ptr()), shape.outer, shape.extent, shape.inner,
                                static_cast<int64_t*>(indices_dst.data_ptr()),
                                values != nullptr ? static_cast<T*>(values_dst.data_ptr()) : nullptr);
  });
  if (!direct) {
    copyIntoCPU(op, indices, indices_dst, indices_name, "result");
    if (values != nullptr) copyIntoCPU(op, *values, values_dst, "values", "result");
  }
}

// argmax or argmin in the form `ctx` names: the functional form allocates `out` (Long) first.
template <bool kMax>
Tensor& argExtremumInto(const KernelContext& ctx, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                        Tensor& out) {
  if (ctx.form == OutputForm::Functional) {
    checkOnCPU(ctx.op, "self", self);
    const ArgReductionShape shape = argReductionShape(ctx.op, self, dim, keepdim);
    out = ops::empty(shape.result_sizes, TensorOptions(ScalarType::Long).device(kCPU));
  }
  argReductionInto<kMax>(ctx.op, self, dim, keepdim, nullptr, out, "out");
  return out;
}

// max or min along `dim` in the form `ctx` names: the functional form allocates both results.
template <bool kMax>
std::tuple<Tensor&, Tensor&> dimExtremumInto(const KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim,
                                             Tensor& values, Tensor& indices) {
  if (ctx.form == OutputForm::Functional) {
    checkOnCPU(ctx.op, "self", self);
    const ArgReductionShape shape = argReductionShape(ctx.op, self, dim, keepdim);
    values = ops::empty(shape.result_sizes, TensorOptions(self.scalar_type()).device(kCPU));
    indices = ops::empty(shape.result_sizes, TensorOptions(ScalarType::Long).device(kCPU));
  }
  argReductionInto<kMax>(ctx.op, self, dim, keepdim, &values, indices, "indices");
  return {values, indices};
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& argmax_out_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out,
                       const KernelContext& ctx) {
  return argExtremumInto<true>(ctx, self, dim, keepdim, out);
}
Tensor& argmin_out_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out,
                       const KernelContext& ctx) {
  return argExtremumInto<false>(ctx, self, dim, keepdim, out);
}
std::tuple<Tensor&, Tensor&> max_dim_max_cpu(const Tensor& self, int64_t dim, bool keepdim, Tensor& max,
                                             Tensor& max_values, const KernelContext& ctx) {
  return dimExtremumInto<true>(ctx, self, dim, keepdim, max, max_values);
}
std::tuple<Tensor&, Tensor&> min_dim_min_cpu(const Tensor& self, int64_t dim, bool keepdim, Tensor& min,
                                             Tensor& min_indices, const KernelContext& ctx) {
  return dimExtremumInto<false>(ctx, self, dim, keepdim, min, min_indices);
}

}  // namespace native
}  // namespace sy::cpu
