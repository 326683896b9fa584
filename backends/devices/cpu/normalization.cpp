// aten::native_layer_norm and aten::native_layer_norm.out on the CPU, for the floating dtypes (Half and
// BFloat16 normalise Float copies and round once).
//
// Semantics, as PyTorch's: the trailing dimensions of `input` must equal `normalized_shape`; each
// of the M = prod(leading sizes) rows of N = prod(normalized_shape) elements is normalised as
// (x - mean) * rstd, with rstd = 1 / sqrt(biased variance + eps), then scaled by `weight` and
// shifted by `bias` (each optional, of size normalized_shape, input's dtype). The results are the
// normalised tensor (input's shape), the means and the rstds, the latter two shaped like input
// with the normalized dimensions set to 1. A NaN or infinity in a row makes that row's results
// NaN (as the arithmetic says); rows of zero elements (N = 0) get a NaN mean and rstd.
//
// Each row is read three times (sum, squared deviations, output) in memory order; the statistics
// accumulate in double, which keeps Float results accurate for long rows without a Welford loop.
#include <cmath>
#include <optional>
#include <tuple>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::cpu {
namespace {

using nn_detail::presentTensor;

struct LayerNormShape {
  int64_t rows = 1;       // M
  int64_t row_length = 1;  // N
  SizesVector stats_sizes;
};

void checkAffineArgument(const char* op, const char* argument, const Tensor& t, IntArrayRef normalized_shape,
                         ScalarType dtype) {
  checkOnCPU(op, argument, t);
  SY_CHECK(sameSizes(t.sizes(), normalized_shape), op, ": expected '", argument, "' to have size ",
           formatSizes(normalized_shape), " (normalized_shape) but got ", formatSizes(t.sizes()));
  SY_CHECK(t.scalar_type() == dtype, op, ": expected '", argument, "' to have the same dtype as 'input' (", dtype,
           ") but got ", t.scalar_type());
}

LayerNormShape checkLayerNorm(const char* op, const Tensor& input, IntArrayRef normalized_shape, const Tensor* weight,
                              const Tensor* bias) {
  checkOnCPU(op, "input", input);
  SY_CHECK(!normalized_shape.empty(), op, ": expected 'normalized_shape' to have at least one element but got ()");
  const int64_t ndim = input.dim();
  const int64_t normalized_dims = static_cast<int64_t>(normalized_shape.size());
  const int64_t axis = ndim - normalized_dims;
  SY_CHECK(axis >= 0 && sameSizes(input.sizes().subspan(static_cast<size_t>(std::max<int64_t>(axis, 0))),
                                  normalized_shape),
           op, ": expected the trailing dimensions of 'input' to be normalized_shape ", formatSizes(normalized_shape),
           " but got input size ", formatSizes(input.sizes()));
  SY_CHECK(isFloatingType(input.scalar_type()), op,
           ": expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got ", input.scalar_type());
  if (weight != nullptr) checkAffineArgument(op, "weight", *weight, normalized_shape, input.scalar_type());
  if (bias != nullptr) checkAffineArgument(op, "bias", *bias, normalized_shape, input.scalar_type());

  LayerNormShape shape;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d < axis) {
      shape.rows *= input.size(d);
      shape.stats_sizes.push_back(input.size(d));
    } else {
      shape.row_length *= input.size(d);
      shape.stats_sizes.push_back(1);
    }
  }
  return shape;
}

// Sum of a row in double, with four independent partial sums so the adds pipeline.
template <class T, class Term>
double rowSum(const T* row, int64_t n, Term term) {
  double partial[4] = {0, 0, 0, 0};
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    for (int k = 0; k < 4; ++k) partial[k] += term(static_cast<double>(row[j + k]));
  }
  for (; j < n; ++j) partial[0] += term(static_cast<double>(row[j]));
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

template <class T>
void layerNormRows(const LayerNormShape& shape, const T* input, const T* weight, const T* bias, double eps, T* out,
                   T* means, T* rstds) {
  const int64_t n = shape.row_length;
  for (int64_t i = 0; i < shape.rows; ++i) {
    const T* __restrict x = input + i * n;
    const double mean = rowSum(x, n, [](double v) { return v; }) / static_cast<double>(n);
    const double variance =
        rowSum(x, n, [mean](double v) { return (v - mean) * (v - mean); }) / static_cast<double>(n);
    const double rstd = 1.0 / std::sqrt(variance + eps);
    means[i] = static_cast<T>(mean);
    rstds[i] = static_cast<T>(rstd);

    // (x - mean) * rstd rather than x * rstd - mean * rstd: subtracting first keeps the digits of
    // rows whose mean is large relative to their spread.
    const T m = static_cast<T>(mean);
    const T r = static_cast<T>(rstd);
    T* __restrict y = out + i * n;
    if (weight != nullptr && bias != nullptr) {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r * weight[j] + bias[j];
    } else if (weight != nullptr) {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r * weight[j];
    } else if (bias != nullptr) {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r + bias[j];
    } else {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r;
    }
  }
}

// Writes the three results into out0 (normalised), out1 (means), out2 (rstds), which already have
// their shapes. Each is written directly when it is dense, of input's dtype and aliases no input;
// otherwise through a temporary.
void runLayerNorm(const char* op, const LayerNormShape& shape, const Tensor& input, const Tensor* weight,
                  const Tensor* bias, double eps, const Tensor& out0, const Tensor& out1, const Tensor& out2) {
  // See Note [Accumulating kernels compute reduced floats on Float copies] in elementwise.h.
  checkDtypeSupported(op, "input", input.scalar_type(), native::native_layer_norm_out_cpu_dtypes);
  const ScalarType dtype = computeDtypeOf(input.scalar_type());
  const Tensor dense_input = nn_detail::contiguousCopyIfNeeded(op, "input", input, dtype);
  const Tensor dense_weight =
      weight != nullptr ? nn_detail::contiguousCopyIfNeeded(op, "weight", *weight, dtype) : Tensor();
  const Tensor dense_bias = bias != nullptr ? nn_detail::contiguousCopyIfNeeded(op, "bias", *bias, dtype) : Tensor();
  auto writable = [&](const Tensor& out) {
    bool direct = out.scalar_type() == dtype && out.is_contiguous();
    for (const Tensor* in : {&input, weight, bias}) direct = direct && (in == nullptr || !sameMemory(out, *in));
    return direct ? out : scratchTensor(op, out.sizes(), dtype);
  };
  const Tensor y = writable(out0), means = writable(out1), rstds = writable(out2);

  if (shape.rows > 0) {
    // dtype set: the compute dtype: Half and BFloat16 inputs compute on Float copies.
    dispatchDtype<kFullFloatingDtypes>(dtype, op, "input", [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto data = [](const Tensor& t) { return t.defined() ? static_cast<T*>(t.data_ptr()) : nullptr; };
      layerNormRows<T>(shape, data(dense_input), data(dense_weight), data(dense_bias), eps, data(y), data(means),
                       data(rstds));
    });
  }
  if (!y.is_same(out0)) copyIntoCPU(op, out0, y, "out0", "result");
  if (!means.is_same(out1)) copyIntoCPU(op, out1, means, "out1", "mean");
  if (!rstds.is_same(out2)) copyIntoCPU(op, out2, rstds, "out2", "rstd");
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

// The functional form allocates the three results (one dispatched aten::empty each).
std::tuple<Tensor&, Tensor&, Tensor&> native_layer_norm_out_cpu(const Tensor& input, IntArrayRef normalized_shape,
                                                                const std::optional<Tensor>& weight,
                                                                const std::optional<Tensor>& bias, double eps,
                                                                Tensor& out0, Tensor& out1, Tensor& out2,
                                                                const KernelContext& ctx) {
  const char* op = ctx.op;
  const Tensor* weight_tensor = presentTensor(weight);
  const Tensor* bias_tensor = presentTensor(bias);
  const LayerNormShape shape = checkLayerNorm(op, input, normalized_shape, weight_tensor, bias_tensor);
  if (ctx.form == OutputForm::Functional) {
    const TensorOptions options = TensorOptions(input.scalar_type()).device(kCPU);
    out0 = ops::empty(input.sizes(), options);
    out1 = ops::empty(shape.stats_sizes, options);
    out2 = ops::empty(shape.stats_sizes, options);
    runLayerNorm(op, shape, input, weight_tensor, bias_tensor, eps, out0, out1, out2);
    return {out0, out1, out2};
  }
  const char* names[] = {"out0", "out1", "out2"};
  const Tensor* outs[] = {&out0, &out1, &out2};
  for (int k = 0; k < 3; ++k) {
    checkOnCPU(op, names[k], *outs[k]);
    checkCanCastToOutput(op, input.scalar_type(), *outs[k]);
  }
  resizeOutput(out0, input.sizes());
  resizeOutput(out1, shape.stats_sizes);
  resizeOutput(out2, shape.stats_sizes);
  for (int k = 0; k < 3; ++k) checkNoInternalOverlap(op, *outs[k], names[k]);
  runLayerNorm(op, shape, input, weight_tensor, bias_tensor, eps, out0, out1, out2);
  return {out0, out1, out2};
}

}  // namespace native

namespace {

// aten::layer_norm, CompositeImplicit as in PyTorch: the first result of aten::native_layer_norm.
Tensor layerNormComposite(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                          const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  // cudnn_enable picks a GPU library in PyTorch; there is nothing to pick here.
  return std::get<0>(ops::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace
}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  m.impl("layer_norm", SY_FN(sy::cpu::layerNormComposite));
}
