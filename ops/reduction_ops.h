// sy::ops:: helpers for the reduction operators (sum, mean, amax, argmax) and for softmax and
// log_softmax, in PyTorch's at:: argument order and with at::'s defaults (out= forms take `out`
// first and return it).
//
//   sy::Tensor x = sy::tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
//   sy::Tensor total = sy::ops::sum(x);                             // 0-dim, 21
//   sy::Tensor rows = sy::ops::sum(x, {1}, /*keepdim=*/true);        // (2, 1)
//   sy::Tensor counts = sy::ops::sum(bools);                        // Long, as in PyTorch
//   sy::Tensor m = sy::ops::mean(x, {0});                           // (3,)
//   sy::Tensor peak = sy::ops::amax(x, {-1});                       // (2,)
//   sy::Tensor where = sy::ops::argmax(x, /*dim=*/1);               // Long (2,)
//   sy::Tensor p = sy::ops::softmax(x, /*dim=*/-1);                 // rows sum to 1
//   sy::ops::sum_out(out, x, {0});                                  // returns `out` itself
//
// Every function is one call through the dispatcher. Semantics (dtypes, NaN, empty reductions)
// are described in backends/cpu/reduction_ops.cpp and softmax_ops.cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {

// An optional list of dims that also takes a braced list, like at::OptionalIntArrayRef:
// sum(x, {0, 1}), sum(x, std::nullopt, true), sum(x, dims_vector). It refers to the caller's
// values, which live until the end of the full expression of the call.
class OptionalIntArrayRef {
 public:
  // All implicit, like at::OptionalIntArrayRef's, so a call reads sum(x, {0}).
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}                                               // NOLINT
  OptionalIntArrayRef(IntArrayRef dims) : dims_(dims) {}                               // NOLINT
  OptionalIntArrayRef(std::initializer_list<int64_t> dims)                             // NOLINT
      : dims_(IntArrayRef(dims.begin(), dims.size())) {}
  OptionalIntArrayRef(const std::vector<int64_t>& dims) : dims_(IntArrayRef(dims)) {}  // NOLINT
  OptionalIntArrayRef(std::optional<IntArrayRef> dims) : dims_(dims) {}                // NOLINT
  const std::optional<IntArrayRef>& get() const { return dims_; }

 private:
  std::optional<IntArrayRef> dims_;
};

// aten::sum / aten::sum.out: the sum of every element (0-dim). Bool and integral inputs sum to
// Long unless `dtype` says otherwise.
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);

// aten::sum.dim_IntList / aten::sum.IntList_out: the sum over `dim` (every dim when None or empty).
Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt);

// aten::mean / aten::mean.dtype_out: the mean of every element (0-dim); floating dtypes only.
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor& mean_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);

// aten::mean.dim / aten::mean.out: the mean over `dim` (every dim when None or empty).
Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor& mean_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);

// aten::amax / aten::amax.out: the maximum over `dim` (every dim when empty); NaN wins.
Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor& amax_out(Tensor& out, const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);

// aten::argmax / aten::argmax.out: the (first) index of the maximum along `dim`, or in the
// flattened tensor when dim is None; NaN counts as the maximum. Long.
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor& argmax_out(Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);

// aten::_softmax / aten::_log_softmax and their out= forms: the kernels' entry points.
Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor& _softmax_out(Tensor& out, const Tensor& self, int64_t dim, bool half_to_float);
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor& _log_softmax_out(Tensor& out, const Tensor& self, int64_t dim, bool half_to_float);

// aten::softmax.int / aten::log_softmax.int and their .int_out forms: self converted to `dtype`
// when given, then _softmax / _log_softmax.
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& log_softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);

}  // namespace sy::ops
