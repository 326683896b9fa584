// quantized_decomposed::choose_qparams.Tensor_out and choose_qparams_per_token_asymmetric.out on the
// CPU: the scale and zero point that map a Float tensor's range (or each row's) onto a quantized
// range, computed as PyTorch's decomposed operators do (torch/ao/quantization/fx/_decomposed.py,
// torch/ao/quantization/utils.py's determine_qparams), in float:
//   - choose_qparams: min and max of the whole input, widened to include 0;
//     scale = max((max - min) / (quant_max - quant_min), eps), zero_point = clamp(quant_min -
//     round(min / scale), quant_min, quant_max); quant_min <= 0 <= quant_max, quant_min < quant_max.
//     Outputs: one-element tensors, scale_out [1] and zero_point_out [1].
//   - choose_qparams_per_token_asymmetric: per row (every dimension but the last), the range
//     [-128, 127], eps = FLT_EPSILON, and the zero point from whichever end of the range loses less
//     (XNNPACK's rule, as PyTorch writes it); outputs of shape input.shape[:-1] + [1].
// scale_out is Double or Float and zero_point_out Long or Int (PyTorch returns Double and Long,
// which the functional forms allocate). The input must be Float, non-empty and free of NaN.
// ExecuTorch's kernel for choose_qparams nudges the zero point by another rule (fbgemm's); where
// the two differ we follow PyTorch's definition.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <tuple>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

struct QparamsRange {
  float min = 0;
  float max = 0;
};

// Min and max of `n` contiguous floats; raises on NaN (a range PyTorch would turn into a NaN scale).
QparamsRange qparamsRangeOf(const char* op, const float* x, int64_t n) {
  QparamsRange r{x[0], x[0]};
  for (int64_t i = 0; i < n; ++i) {
    SY_CHECK_VALUE(!std::isnan(x[i]), op, ": 'input' holds NaN, for which no scale exists");
    r.min = std::min(r.min, x[i]);
    r.max = std::max(r.max, x[i]);
  }
  return r;
}

// Writes `value` into element `i` of the contiguous scale_out or zero_point_out.
void writeQparam(const Tensor& t, int64_t i, double value) {
  switch (t.scalar_type()) {
    case ScalarType::Double: static_cast<double*>(t.data_ptr())[i] = value; break;
    case ScalarType::Float: static_cast<float*>(t.data_ptr())[i] = static_cast<float>(value); break;
    case ScalarType::Long: static_cast<int64_t*>(t.data_ptr())[i] = static_cast<int64_t>(value); break;
    default: static_cast<int32_t*>(t.data_ptr())[i] = static_cast<int32_t>(value); break;
  }
}

// Checks and shapes the two outputs (allocating them for the functional form).
void prepareQparamsOutputs(const char* op, const KernelContext& ctx, IntArrayRef sizes, Tensor& scale_out,
                           Tensor& zero_point_out) {
  if (ctx.form == OutputForm::Functional) {
    scale_out = ops::empty(sizes, TensorOptions(ScalarType::Double).device(kCPU));
    zero_point_out = ops::empty(sizes, TensorOptions(ScalarType::Long).device(kCPU));
  }
  checkOnCPU(op, "scale_out", scale_out);
  checkOnCPU(op, "zero_point_out", zero_point_out);
  const ScalarType s = scale_out.scalar_type();
  const ScalarType z = zero_point_out.scalar_type();
  SY_CHECK_TYPE(s == ScalarType::Double || s == ScalarType::Float, op,
                ": expected 'scale_out' to be a Double or Float tensor, but got ", s);
  SY_CHECK_TYPE(z == ScalarType::Long || z == ScalarType::Int, op,
                ": expected 'zero_point_out' to be a Long or Int tensor, but got ", z);
  SY_CHECK_VALUE(!cpu::sameMemory(scale_out, zero_point_out), op, ": 'scale_out' and 'zero_point_out' share memory");
  cpu::resizeOutput(scale_out, sizes);
  cpu::resizeOutput(zero_point_out, sizes);
  SY_CHECK_VALUE(scale_out.is_contiguous() && zero_point_out.is_contiguous(), op,
                 ": expected 'scale_out' and 'zero_point_out' to be contiguous");
}

// The parameters are computed from a float array: quantized.yaml may declare Float alone.
static_assert(choose_qparams_tensor_out_dtypes == cpu::kFloatDtype &&
                  choose_qparams_per_token_asymmetric_out_dtypes == cpu::kFloatDtype,
              "choose_qparams reads a Float input; widen its loop before its entry in quantized.yaml");

// `input`, contiguous, once it is known to be of one of the kernel's `declared` dtypes (its generated
// `<kernel>_dtypes`), non-empty.
Tensor qparamsFloatInput(const char* op, unsigned declared, const Tensor& input) {
  checkOnCPU(op, "input", input);
  cpu::checkDtypeSupported(op, "input", input.scalar_type(), declared);
  SY_CHECK_VALUE(input.numel() > 0, op, ": 'input' is empty, so it has no range to quantize");
  return contiguousOperand(op, "input", input);
}

}  // namespace

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

std::tuple<Tensor&, Tensor&> choose_qparams_tensor_out(const Tensor& input, int64_t quant_min, int64_t quant_max,
                                                       double eps, ScalarType dtype, Tensor& scale_out,
                                                       Tensor& zero_point_out, const KernelContext& ctx) {
  const char* op = ctx.op;
  cpu::dispatchDtype<kQuantizedStorageDtypes>(dtype, op, "dtype", [](auto) {});
  SY_CHECK_VALUE(quant_min <= 0 && 0 <= quant_max, op, ": the range [quant_min, quant_max] = [", quant_min, ", ",
                 quant_max, "] must include 0");
  SY_CHECK_VALUE(quant_min < quant_max, op, ": quant_min ", quant_min, " must be less than quant_max ", quant_max);
  const Tensor x = qparamsFloatInput(op, choose_qparams_tensor_out_dtypes, input);
  const QparamsRange r = qparamsRangeOf(op, static_cast<const float*>(x.data_ptr()), x.numel());
  const int64_t one[] = {1};
  prepareQparamsOutputs(op, ctx, one, scale_out, zero_point_out);
  const float min_neg = std::min(r.min, 0.0f);
  const float max_pos = std::max(r.max, 0.0f);
  float scale = (max_pos - min_neg) / static_cast<float>(quant_max - quant_min);
  scale = std::max(scale, static_cast<float>(eps));
  const float descaled = std::nearbyint(min_neg / scale);
  int64_t zero_point = quant_min - static_cast<int64_t>(descaled);
  zero_point = std::min(std::max(zero_point, quant_min), quant_max);
  writeQparam(scale_out, 0, static_cast<double>(scale));
  writeQparam(zero_point_out, 0, static_cast<double>(zero_point));
  return {scale_out, zero_point_out};
}

std::tuple<Tensor&, Tensor&> choose_qparams_per_token_asymmetric_out(const Tensor& input, ScalarType dtype,
                                                                     Tensor& scale_out, Tensor& zero_point_out,
                                                                     const KernelContext& ctx) {
  const char* op = ctx.op;
  cpu::dispatchDtype<kQuantizedStorageDtypes>(dtype, op, "dtype", [](auto) {});
  SY_CHECK_INDEX(input.dim() > 0, op, ": 'input' must have at least one dimension (its rows are the tokens)");
  const Tensor x = qparamsFloatInput(op, choose_qparams_per_token_asymmetric_out_dtypes, input);
  SizesVector sizes(input.sizes().begin(), input.sizes().end());
  sizes.back() = 1;
  prepareQparamsOutputs(op, ctx, sizes, scale_out, zero_point_out);
  const int64_t row = input.size(-1);
  const int64_t rows = x.numel() / row;
  const float qmin = -128.0f;
  const float qmax = 127.0f;
  const float* data = static_cast<const float*>(x.data_ptr());
  for (int64_t t = 0; t < rows; ++t) {
    const QparamsRange r = qparamsRangeOf(op, data + t * row, row);
    const float min_neg = std::min(r.min, 0.0f);
    const float max_pos = std::max(r.max, 0.0f);
    const float scale = std::max((max_pos - min_neg) / (qmax - qmin), FLT_EPSILON);
    const float descaled_min = min_neg / scale;
    const float descaled_max = max_pos / scale;
    const float zero_point_from_min_error = qmin + descaled_min;
    const float zero_point_from_max_error = qmax + descaled_max;
    float zero_point = zero_point_from_min_error + zero_point_from_max_error > 0 ? qmin - descaled_min
                                                                                  : qmax - descaled_max;
    zero_point = std::nearbyint(std::min(std::max(zero_point, qmin), qmax));
    writeQparam(scale_out, t, static_cast<double>(scale));
    writeQparam(zero_point_out, t, static_cast<double>(zero_point));
  }
  return {scale_out, zero_point_out};
}

}  // namespace native
}  // namespace sy::quantized
