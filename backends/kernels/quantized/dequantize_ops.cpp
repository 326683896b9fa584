// quantized_decomposed::dequantize_per_tensor (.out and .Tensor_out) on the CPU: quantized integers
// back to floating values, x = (q - zero_point) * scale, as PyTorch's decomposed operator and
// ExecuTorch's kernel compute it (See Note [Quantization rounds as PyTorch's decomposed operators
// do]).
//   - `input` has a quantized dtype (Byte, Char, Short, Int, UInt16), which the `dtype` argument
//     must name; quant_min <= quant_max (they describe the input and take no part otherwise);
//   - `out` is Float unless `out_dtype` names another floating dtype (Double, Half, BFloat16),
//     which it must then have; it is resized to input's shape;
//   - the .Tensor_out form takes scale and zero point as one-element tensors (Double or Float;
//     Long or Int).
#include <cstdint>
#include <optional>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

// Dequantizes the contiguous `source` (quantized) into the contiguous floating `dst`.
void dequantizeTensorInto(const char* op, const Tensor& source, double scale, int64_t zero_point, const Tensor& dst) {
  const float s = static_cast<float>(scale);
  const int64_t n = source.numel();
  cpu::dispatchDtype<kQuantizedStorageDtypes>(source.scalar_type(), op, "input", [&](auto q_tag) {
    using Q = typename decltype(q_tag)::type;
    cpu::dispatchDtype<kQuantizedFloatDtypes>(dst.scalar_type(), op, "out", [&](auto out_tag) {
      using Y = typename decltype(out_tag)::type;
      const Q* q = static_cast<const Q*>(source.data_ptr());
      Y* y = static_cast<Y*>(dst.data_ptr());
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<Y>(dequantizeValue(static_cast<int64_t>(q[i]), zero_point, s));
    });
  });
}

Tensor& dequantizePerTensor(const Tensor& input, double scale, int64_t zero_point, int64_t quant_min,
                            int64_t quant_max, ScalarType dtype, std::optional<ScalarType> out_dtype, Tensor& out,
                            const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "input", input);
  checkDequantizationInput(op, input, dtype, quant_min, quant_max);
  const ScalarType result = out_dtype.value_or(ScalarType::Float);
  cpu::checkDtypeSupported(op, "out_dtype", result, kQuantizedFloatDtypes);
  return writeElementwiseQuantization(ctx, input, result, out, [&] { checkDequantizationOutput(op, out, out_dtype); },
                                      [&](const Tensor& source, const Tensor& dst) {
                                        dequantizeTensorInto(op, source, scale, zero_point, dst);
                                      });
}

}  // namespace

void checkDequantizationInput(const char* op, const Tensor& input, ScalarType dtype, int64_t quant_min,
                              int64_t quant_max) {
  cpu::checkDtypeSupported(op, "input", input.scalar_type(), kQuantizedStorageDtypes);
  SY_CHECK_TYPE(input.scalar_type() == dtype, op, ": expected 'input' to have dtype ", dtype,
                " (the 'dtype' argument), but got ", input.scalar_type());
  SY_CHECK_VALUE(quant_min <= quant_max, op, ": quant_min ", quant_min, " is greater than quant_max ", quant_max);
}

void checkDequantizationOutput(const char* op, const Tensor& out, std::optional<ScalarType> out_dtype) {
  const ScalarType expected = out_dtype.value_or(ScalarType::Float);
  if (out_dtype) {
    SY_CHECK_TYPE(out.scalar_type() == expected, op, ": expected 'out' to have dtype ", expected,
                  " (the 'out_dtype' argument), but got ", out.scalar_type());
  } else {
    cpu::checkDtypeSupported(op, "out", out.scalar_type(), kQuantizedFloatDtypes);
  }
}

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

Tensor& dequantize_per_tensor_out(const Tensor& input, double scale, int64_t zero_point, int64_t quant_min,
                                  int64_t quant_max, ScalarType dtype, std::optional<ScalarType> out_dtype, Tensor& out,
                                  const KernelContext& ctx) {
  return dequantizePerTensor(input, scale, zero_point, quant_min, quant_max, dtype, out_dtype, out, ctx);
}

Tensor& dequantize_per_tensor_tensor_args_out(const Tensor& input, const Tensor& scale, const Tensor& zero_point,
                                              int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                              std::optional<ScalarType> out_dtype, Tensor& out,
                                              const KernelContext& ctx) {
  const double s = scaleOfTensor(ctx.op, "scale", scale);
  const int64_t z = zeroPointOfTensor(ctx.op, "zero_point", zero_point);
  return dequantizePerTensor(input, s, z, quant_min, quant_max, dtype, out_dtype, out, ctx);
}

}  // namespace native
}  // namespace sy::quantized
