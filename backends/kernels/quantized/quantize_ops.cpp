// quantized_decomposed::quantize_per_tensor (.out and .Tensor_out) on the CPU: floating values to
// their quantized integers, q = clamp(round_half_to_even(x * (1 / scale)) + zero_point, quant_min,
// quant_max), as PyTorch's decomposed operator and ExecuTorch's kernel compute it (See Note
// [Quantization rounds as PyTorch's decomposed operators do]).
//   - `input` is Float or Double (Half and BFloat16 compute in float); `dtype` is the quantized
//     dtype (Byte, Char, Short, Int, UInt16) and [quant_min, quant_max] must lie within its range;
//   - `out` must have dtype `dtype` and is resized to input's shape;
//   - the .Tensor_out form takes scale and zero point as one-element tensors (Double or Float;
//     Long or Int).
#include <cstdint>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

// Quantizes the contiguous `source` into the contiguous `dst` (of the quantized dtype).
void quantizeTensorInto(const char* op, const Tensor& source, double scale, int64_t zero_point, int64_t quant_min,
                        int64_t quant_max, const Tensor& dst) {
  const float inverse = inverseScale(scale);
  const int64_t n = source.numel();
  cpu::dispatchDtype<kQuantizedFloatDtypes>(source.scalar_type(), op, "input", [&](auto in_tag) {
    using X = typename decltype(in_tag)::type;
    cpu::dispatchDtype<kQuantizedStorageDtypes>(dst.scalar_type(), op, "out", [&](auto q_tag) {
      using Q = typename decltype(q_tag)::type;
      const X* x = static_cast<const X*>(source.data_ptr());
      Q* q = static_cast<Q*>(dst.data_ptr());
      for (int64_t i = 0; i < n; ++i) {
        q[i] = quantizeValue<Q>(static_cast<double>(x[i]), inverse, zero_point, quant_min, quant_max);
      }
    });
  });
}

Tensor& quantizePerTensor(const Tensor& input, double scale, int64_t zero_point, int64_t quant_min, int64_t quant_max,
                          ScalarType dtype, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkQuantizeInput(op, input, dtype, quant_min, quant_max);
  return writeElementwiseQuantization(ctx, input, dtype, out, [&] { checkQuantizedOutDtype(op, out, dtype); },
                                      [&](const Tensor& source, const Tensor& dst) {
                                        quantizeTensorInto(op, source, scale, zero_point, quant_min, quant_max, dst);
                                      });
}

}  // namespace

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

Tensor& quantize_per_tensor_out(const Tensor& input, double scale, int64_t zero_point, int64_t quant_min,
                                int64_t quant_max, ScalarType dtype, Tensor& out, const KernelContext& ctx) {
  return quantizePerTensor(input, scale, zero_point, quant_min, quant_max, dtype, out, ctx);
}

Tensor& quantize_per_tensor_tensor_args_out(const Tensor& input, const Tensor& scale, const Tensor& zero_point,
                                            int64_t quant_min, int64_t quant_max, ScalarType dtype, Tensor& out,
                                            const KernelContext& ctx) {
  const double s = scaleOfTensor(ctx.op, "scale", scale);
  const int64_t z = zeroPointOfTensor(ctx.op, "zero_point", zero_point);
  return quantizePerTensor(input, s, z, quant_min, quant_max, dtype, out, ctx);
}

}  // namespace native
}  // namespace sy::quantized
