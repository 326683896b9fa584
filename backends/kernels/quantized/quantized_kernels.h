// What the quantized_decomposed:: kernels (backends/kernels/quantized/*.cpp) share: the dtypes a
// quantized tensor is stored in, the checks of the quantization parameters, PyTorch's arithmetic
// of one element, and the contiguous views the loops read and write. The kernels themselves are
// declared from quantized.yaml (switchyard/ops/quantized/NativeFunctions.h, in
// sy::quantized::native).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/quantized/NativeFunctions.h"

namespace sy::quantized {

using namespace native;

// The dtypes of this library's tensors, as quantized.yaml declares them. A quantized value is
// stored as a plain integer tensor (PyTorch's decomposed representation: the parameters travel as
// arguments), of the integral dtypes or UInt16: what every dequantization and quantized add takes.
// What is quantized (and what dequantization produces): Float and Double.
inline constexpr unsigned kQuantizedStorageDtypes = dequantize_per_tensor_out_dtypes;
inline constexpr unsigned kQuantizedFloatDtypes = quantize_per_tensor_out_dtypes;
static_assert(dequantize_per_tensor_tensor_args_out_dtypes == kQuantizedStorageDtypes &&
                  dequantize_per_channel_out_dtypes == kQuantizedStorageDtypes &&
                  dequantize_per_token_out_dtypes == kQuantizedStorageDtypes &&
                  quantized_add_out_dtypes == kQuantizedStorageDtypes,
              "the dequantizations and quantized add share the storage dtypes: declare them alike in quantized.yaml");
static_assert(quantize_per_tensor_tensor_args_out_dtypes == kQuantizedFloatDtypes &&
                  quantize_per_channel_out_dtypes == kQuantizedFloatDtypes &&
                  quantize_per_token_out_dtypes == kQuantizedFloatDtypes,
              "the quantizations share their input dtypes: declare them alike in quantized.yaml");

// Raises unless `dtype` is a quantized storage dtype and [quant_min, quant_max] lies within its
// range ("quantized_decomposed::quantize_per_tensor.out: quant_max 300 is out of bounds for dtype
// Byte, whose largest value is 255").
void checkQuantizationRange(const char* op, ScalarType dtype, int64_t quant_min, int64_t quant_max);

// The checks of every dequantization: `input` has a quantized storage dtype, the one `dtype` names,
// and quant_min <= quant_max; `out` has the dtype `out_dtype` names, or any floating dtype
// when it is None (the functional form's result is Float).
void checkDequantizationInput(const char* op, const Tensor& input, ScalarType dtype, int64_t quant_min,
                              int64_t quant_max);
void checkDequantizationOutput(const char* op, const Tensor& out, std::optional<ScalarType> out_dtype);

// The one value of the one-element tensor `scale` (Double or Float) or `zero_point` (Long or Int),
// the Tensor_out forms' parameters; raises naming the argument otherwise.
double scaleOfTensor(const char* op, const char* argument, const Tensor& scale);
int64_t zeroPointOfTensor(const char* op, const char* argument, const Tensor& zero_point);

// Element `i` of the parameter tensor `t` (0-dim, 1-D with any stride, or contiguous) as a double:
// per-channel and per-token scales and zero points.
double parameterAt(const Tensor& t, int64_t i);

// Note [Quantization rounds as PyTorch's decomposed operators do]
// quantized_decomposed::quantize_per_tensor is, in PyTorch (torch/ao/quantization/fx/_decomposed.py),
// clamp(round(input * (1.0 / scale)) + zero_point, quant_min, quant_max).to(dtype) on a Float
// input: the reciprocal is taken in double and rounded to float once, the product is a float
// product, torch.round rounds half to even (std::nearbyint in the default rounding mode), and the
// zero point is added in float. ExecuTorch's kernel computes the same thing (its reciprocal is
// 1.0f / float(scale), which differs from ours only when `scale` is not a float). Clamping
// happens in double before the conversion, so a value beyond the integer range (scale 1e-30) is
// clamped rather than converted with undefined behaviour, and NaN becomes quant_min (what
// ExecuTorch's kernel gives on x86, where NaN converts to INT64_MIN before its clamp).
// A Double input is multiplied in double and rounded to float, as ExecuTorch does.
inline float inverseScale(double scale) { return static_cast<float>(1.0 / scale); }

template <class Q>
inline Q quantizeValue(double x, float inverse_scale, int64_t zero_point, int64_t quant_min, int64_t quant_max) {
  const float scaled = static_cast<float>(static_cast<double>(inverse_scale) * x);
  const float shifted = std::nearbyint(scaled) + static_cast<float>(zero_point);
  if (std::isnan(shifted)) return static_cast<Q>(quant_min);
  double q = std::max(static_cast<double>(shifted), static_cast<double>(quant_min));
  q = std::min(q, static_cast<double>(quant_max));
  return static_cast<Q>(static_cast<int64_t>(q));
}

// Dequantization, as ExecuTorch's kernel and PyTorch's (input.to(float32) - zero_point) * scale:
// the difference is taken exactly (in float it is exact for every 8- and 16-bit value), then
// multiplied by the scale rounded to float, in float.
inline float dequantizeValue(int64_t q, int64_t zero_point, float scale) {
  return static_cast<float>(q - zero_point) * scale;
}

// `t` itself when contiguous, else a contiguous copy of it (the uncommon case: strided inputs).
Tensor contiguousOperand(const char* op, const char* argument, const Tensor& t);

// Runs fill(dst) with a contiguous `dst` of out's dtype and shape: `out` itself when it is
// contiguous and shares no memory with `input`, else a temporary then copied into `out`.
template <class Fill>
void fillOutput(const char* op, const Tensor& out, const Tensor& input, Fill&& fill) {
  if (SY_LIKELY(out.is_contiguous() && !cpu::sameMemory(out, input))) {
    fill(out);
    return;
  }
  Tensor staged = sy::empty(out.sizes(), out.scalar_type());
  fill(staged);
  cpu::copyIntoCPU(op, out, staged, "out", "result");
}

// The checks of every quantization's input: on the CPU, Float or Double, and quant_min..quant_max
// within `dtype`'s range.
void checkQuantizeInput(const char* op, const Tensor& input, ScalarType dtype, int64_t quant_min, int64_t quant_max);

// What every elementwise quantize and dequantize form does around its loop: the functional form's
// result allocated with `dtype`, `out` checked (on the CPU, then check_out()), an input that out
// aliases kept (See Note [An out= that is also an input keeps the input's values]), out resized
// to input's sizes, then fill(source, dst) into fillOutput's contiguous destination.
template <class CheckOut, class Fill>
Tensor& writeElementwiseQuantization(const KernelContext& ctx, const Tensor& input, ScalarType dtype, Tensor& out,
                                     CheckOut&& check_out, Fill&& fill) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) out = ops::empty(input.sizes(), TensorOptions(dtype).device(kCPU));
  cpu::checkOnCPU(op, "out", out);
  check_out();
  const Tensor source = contiguousOperand(op, "input", cpu::unaffectedByResizeOf(out, input));
  cpu::resizeOutput(out, input.sizes());
  cpu::checkNoInternalOverlap(op, out);
  fillOutput(op, out, source, [&](const Tensor& dst) { fill(source, dst); });
  return out;
}

// check_out for the quantizing forms: out has the quantized dtype the 'dtype' argument names.
void checkQuantizedOutDtype(const char* op, const Tensor& out, ScalarType dtype);

}  // namespace sy::quantized
