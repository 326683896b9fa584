// The CPU kernels of the neural-network operators (convolution, pooling, layer norm, embedding),
// as plain C++ functions, plus the few helpers those kernels share.
//
// The kernels are bound to the CPU key from backends/devices/cpu/nn_ops.yaml, each the out
// variant's kernel serving the functional form too, and defined in convolution.cpp, pooling.cpp,
// adaptive_pooling.cpp, normalization.cpp and embedding.cpp; callers go through sy::ops::*
// (ops/nn_ops.h). Each takes the operator's arguments in schema order (out= last), then its context
// (dispatcher/kernel_context.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <optional>
#include <tuple>
#include <utility>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/core/element_traits.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/nn/NativeFunctions.h"

namespace sy::cpu {

// aten::convolution and aten::convolution.out (convolution.cpp)
// The kernels' declarations are generated from backends/devices/cpu/nn_ops.yaml, in sy::cpu::native (a kernel_name
// sy::cpu::max_pool2d_cpu binds sy::cpu::native::max_pool2d_cpu, as in ExecuTorch);
// sy::cpu::max_pool2d_cpu names them too.
using namespace native;

// aten::convolution.out for 1-D and 3-D convolutions and every transposed one (convolution_nd.cpp);
// the 2-D kernel hands them on. `out` is allocated when `form` is Functional.
Tensor& convolutionNdOut(const char* op, OutputForm form, const Tensor& input, const Tensor& weight, const Tensor* bias,
                         IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                         IntArrayRef output_padding, int64_t groups, Tensor& out);

namespace nn_detail {

using ::sy::cpu::contiguousCopyIfNeeded;  // elementwise.h

// The optional tensor argument when it is present and defined (PyTorch treats an undefined
// Tensor like None).
inline const Tensor* presentTensor(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? &*t : nullptr;
}


// Runs compute(dst) with a contiguous `dst` of dtype `compute_dtype` and out's shape: `out` itself
// when it already is one and shares no memory with an input, else a temporary whose values are
// then converted into `out` (an out= view, another dtype, or an alias of an input).
template <class Compute>
void computeIntoDenseOutput(const char* op, const Tensor& out, ScalarType compute_dtype,
                            std::initializer_list<const Tensor*> inputs, Compute&& compute) {
  bool direct = out.scalar_type() == compute_dtype && out.is_contiguous();
  // Unlike elementwise operators, these kernels read neighbourhoods of their inputs, so even an
  // exactly aliased `out` must not be written in place.
  for (const Tensor* input : inputs) direct = direct && (input == nullptr || !sameMemory(out, *input));
  if (direct) {
    compute(out);
    return;
  }
  Tensor staged = scratchTensor(op, out.sizes(), compute_dtype);
  compute(staged);
  copyIntoCPU(op, out, staged, "out", "result");
}

// A (height, width) pair from an int[2] argument that may also be given as one value for both.
// `empty_value` is used for an empty list (pooling's stride=[] means "same as kernel_size").
inline std::pair<int64_t, int64_t> heightWidthPair(const char* op, const char* argument, IntArrayRef values,
                                                   std::optional<std::pair<int64_t, int64_t>> empty_value = {}) {
  if (values.empty() && empty_value) return *empty_value;
  SY_CHECK(values.size() == 1 || values.size() == 2, op, ": expected '", argument,
           "' to be a single int or a list of two ints (height, width) but got ", values.size(), " values");
  return values.size() == 1 ? std::pair{values[0], values[0]} : std::pair{values[0], values[1]};
}

// Floor and ceiling of a / b for any a and a positive b, exact and without overflow.
inline int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return a % b != 0 && a < 0 ? q - 1 : q;
}
inline int64_t ceilDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return a % b != 0 && a > 0 ? q + 1 : q;
}

// The output positions o in [0, count) whose input position o * stride + offset falls inside
// [0, size) (stride positive, count and size non-negative): the half-open range [first, last).
// Lets the kernels split a row into a padded head, a branch-free body and a padded tail. Exact for
// every offset and stride an argument can give: computed in unsigned 64-bit arithmetic, where
// each magnitude below is under 2^63 and each sum under 2^64.
inline std::pair<int64_t, int64_t> validOutputRange(int64_t count, int64_t stride, int64_t offset, int64_t size) {
  const uint64_t step = static_cast<uint64_t>(stride);
  uint64_t first = 0, last = 0;
  if (offset < 0) {
    const uint64_t before = static_cast<uint64_t>(-(offset + 1)) + 1;  // -offset, even for INT64_MIN
    first = before / step + (before % step != 0 ? 1 : 0);
    last = size <= 0 ? 0 : (static_cast<uint64_t>(size - 1) + before) / step + 1;
  } else if (offset < size) {
    last = static_cast<uint64_t>(size - 1 - offset) / step + 1;
  }
  const uint64_t limit = static_cast<uint64_t>(count);
  first = std::min(first, limit);
  last = std::max(first, std::min(last, limit));
  return {static_cast<int64_t>(first), static_cast<int64_t>(last)};
}

// Note [Interpolated integers are rounded to nearest]
// The sampling kernels (bilinear upsampling, grid_sampler_2d) take ExecuTorch's REALHBF16. A sample
// is a weighted sum: for an integral tensor it is computed in double (exact for every Int) and
// stored rounded to nearest, ties to even, and clamped to the type's range. ExecuTorch's kernels
// truncate a float sum instead, which turns an image of 3s into 2s wherever the weights' rounding
// leaves 2.9999998; rounding keeps a constant image constant. Half and BFloat16 compute in float
// and round once (See Note [Reduced-precision floats compute in float] in core/half.h).
template <class T>
using InterpolationType = std::conditional_t<std::is_integral_v<T>, double, compute_type_t<T>>;

template <class T, class A>
T storeInterpolated(A value) {
  if constexpr (std::is_integral_v<T>) {
    // max + 1 is a power of two, exact as a double; NaN cannot arise from finite integers.
    constexpr double kLow = static_cast<double>(std::numeric_limits<T>::lowest());
    constexpr double kHigh = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    const double rounded = std::nearbyint(static_cast<double>(value));
    if (!(rounded >= kLow)) return std::numeric_limits<T>::lowest();
    if (rounded >= kHigh) return std::numeric_limits<T>::max();
    return static_cast<T>(rounded);
  } else {
    return static_cast<T>(value);
  }
}

}  // namespace nn_detail
}  // namespace sy::cpu
