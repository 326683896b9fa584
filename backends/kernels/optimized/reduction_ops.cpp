// The optimized sum and mean (aten::sum, sum.out, sum.dim_IntList, sum.IntList_out, aten::mean,
// mean.dtype_out, mean.dim, mean.out) on contiguous Float tensors, over reduction_math.h's pairwise
// Float sums; optimized.yaml binds them for Float and the contiguous dim orders of rank 0 to 8.
//
// They take the reductions whose input is a run of consecutive rows, one per result element: every
// dimension reduced, or the reduced dimensions after all the kept ones (ignoring dimensions of size
// 1), e.g. sum(x, {-1}) or mean(x, {1, 2}) of a 3-d x. Anything else (a reduced dimension before a
// kept one, a `dtype` other than Float, an out= that is not a contiguous Float tensor apart from
// self, a dim list the portable kernel rejects) is handed on to the portable kernel
// (partial_kernel_decline.h), which also raises every error. Accuracy and threads: see Note [Float
// sums add blocks pairwise].
#include <optional>

#include "NativeFunctions.h"

#include "switchyard/backends/kernels/optimized/flat_tensors.h"
#include "switchyard/backends/kernels/optimized/partial_kernel_decline.h"
#include "switchyard/backends/kernels/optimized/reduction_math.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::optimized {
namespace {

using DimList = std::optional<IntArrayRef>;
using Dtype = std::optional<ScalarType>;

// A reduction of self's elements as `rows` consecutive runs of `length`, into a result of
// `result_sizes`.
struct RowReduction {
  int64_t rows = 1;
  int64_t length = 1;
  SizesVector result_sizes;
};

// The rows a reduction of `self` over `dims` reads, or nothing when it is not one this file
// takes (including every dim list the portable kernel rejects: out of range, repeated).
std::optional<RowReduction> rowReduction(const Tensor& self, DimList dims, bool keepdim, Dtype dtype) {
  if ((dtype && *dtype != ScalarType::Float) || !isFlatCpuFloat(self)) return std::nullopt;
  const int64_t ndim = self.dim();
  if (ndim > 64) return std::nullopt;
  uint64_t reduced = 0;
  if (!dims || dims->empty()) {
    reduced = ndim == 64 ? ~uint64_t{0} : (uint64_t{1} << ndim) - 1;
  } else {
    const int64_t extent = ndim == 0 ? 1 : ndim;  // a 0-dim tensor takes dim 0 or -1
    for (int64_t dim : *dims) {
      if (dim < -extent || dim >= extent) return std::nullopt;
      const int64_t d = dim < 0 ? dim + extent : dim;
      if ((reduced >> d) & 1u) return std::nullopt;
      reduced |= uint64_t{1} << d;
    }
  }
  RowReduction plan;
  bool reduced_seen = false;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool is_reduced = ((reduced >> d) & 1u) != 0;
    const int64_t size = self.size(d);
    if (size != 1) {
      if (!is_reduced && reduced_seen) return std::nullopt;  // not consecutive rows
      reduced_seen = reduced_seen || is_reduced;
    }
    (is_reduced ? plan.length : plan.rows) *= size;
    if (!is_reduced || keepdim) plan.result_sizes.push_back(is_reduced ? 1 : size);
  }
  return plan;
}

// The sums (or means) into the contiguous Float `out` of the plan's sizes.
void reduceInto(const RowReduction& plan, const Tensor& self, const Tensor& out, bool mean) {
  if (plan.rows == 0) return;
  sumRows(self.data_ptr<float>(), out.data_ptr<float>(), plan.rows, plan.length, mean);
}

template <bool kMean>
const char* operatorName() {
  return kMean ? "aten::mean" : "aten::sum";
}

// The out= forms, over a dim list (sum.IntList_out, mean.out).
template <bool kMean>
Tensor& reduceDimsOut(const Tensor& self, DimList dims, bool keepdim, Dtype dtype, Tensor& out) {
  const std::optional<RowReduction> plan = rowReduction(self, dims, keepdim, dtype);
  if (!plan || !isFlatCpuFloat(out) || cpu::sameMemory(out, self)) {
    using Signature = Tensor&(const Tensor&, DimList, bool, Dtype, Tensor&);
    static const auto op =
        Dispatcher::singleton().staticTypedHandle<Signature>(operatorName<kMean>(), kMean ? "out" : "IntList_out");
    return continueAfterPartialKernels(op, self, dims, keepdim, dtype, out);
  }
  cpu::resizeOutput(out, plan->result_sizes);
  reduceInto(*plan, self, out, kMean);
  return out;
}

// The out= forms over every dimension (sum.out, mean.dtype_out).
template <bool kMean>
Tensor& reduceAllOut(const Tensor& self, Dtype dtype, Tensor& out) {
  const std::optional<RowReduction> plan = rowReduction(self, std::nullopt, false, dtype);
  if (!plan || !isFlatCpuFloat(out) || cpu::sameMemory(out, self)) {
    using Signature = Tensor&(const Tensor&, Dtype, Tensor&);
    static const auto op =
        Dispatcher::singleton().staticTypedHandle<Signature>(operatorName<kMean>(), kMean ? "dtype_out" : "out");
    return continueAfterPartialKernels(op, self, dtype, out);
  }
  cpu::resizeOutput(out, plan->result_sizes);
  reduceInto(*plan, self, out, kMean);
  return out;
}

// The functional forms over a dim list (sum.dim_IntList, mean.dim).
template <bool kMean>
Tensor reduceDims(const Tensor& self, DimList dims, bool keepdim, Dtype dtype) {
  const std::optional<RowReduction> plan = rowReduction(self, dims, keepdim, dtype);
  if (!plan) {
    using Signature = Tensor(const Tensor&, DimList, bool, Dtype);
    static const auto op =
        Dispatcher::singleton().staticTypedHandle<Signature>(operatorName<kMean>(), kMean ? "dim" : "dim_IntList");
    return continueAfterPartialKernels(op, self, dims, keepdim, dtype);
  }
  Tensor out = ops::empty(plan->result_sizes, TensorOptions(ScalarType::Float).device(kCPU));
  reduceInto(*plan, self, out, kMean);
  return out;
}

// The functional forms over every dimension (sum, mean).
template <bool kMean>
Tensor reduceAll(const Tensor& self, Dtype dtype) {
  const std::optional<RowReduction> plan = rowReduction(self, std::nullopt, false, dtype);
  if (!plan) {
    using Signature = Tensor(const Tensor&, Dtype);
    static const auto op = Dispatcher::singleton().staticTypedHandle<Signature>(operatorName<kMean>(), "");
    return continueAfterPartialKernels(op, self, dtype);
  }
  Tensor out = ops::empty(plan->result_sizes, TensorOptions(ScalarType::Float).device(kCPU));
  reduceInto(*plan, self, out, kMean);
  return out;
}

}  // namespace

namespace native {

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype, const KernelContext& ctx) {
  return reduceAll<false>(self, dtype);
}
Tensor& sum_out(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return reduceAllOut<false>(self, dtype, out);
}
Tensor sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
               const KernelContext& ctx) {
  return reduceDims<false>(self, dim, keepdim, dtype);
}
Tensor& sum_dim_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                    Tensor& out, const KernelContext& ctx) {
  return reduceDimsOut<false>(self, dim, keepdim, dtype, out);
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype, const KernelContext& ctx) {
  return reduceAll<true>(self, dtype);
}
Tensor& mean_out(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return reduceAllOut<true>(self, dtype, out);
}
Tensor mean_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                const KernelContext& ctx) {
  return reduceDims<true>(self, dim, keepdim, dtype);
}
Tensor& mean_dim_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                     Tensor& out, const KernelContext& ctx) {
  return reduceDimsOut<true>(self, dim, keepdim, dtype, out);
}

}  // namespace native
}  // namespace sy::optimized
