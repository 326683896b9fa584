// quantized_decomposed::add.out on the CPU: the sum of two quantized tensors, requantized:
// out = quantize(dequantize(a) + dequantize(b)) with each operand's own scale, zero point and
// range, as PyTorch's reference pattern (dequantize_per_tensor of both, aten::add, then
// quantize_per_tensor) and ExecuTorch's kernel compute it, in float (See Note [Quantization rounds
// as PyTorch's decomposed operators do]).
//   - `a`, `b` and `out` have one quantized dtype (Byte, Char, Short, Int, UInt16) and `a` and
//     `b` one shape (no broadcasting, as ExecuTorch's kernel); `out` is resized to it;
//   - each [quant_min, quant_max] lies within the dtype's range.
#include <cstdint>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"

namespace sy::quantized {
namespace native {

Tensor& quantized_add_out(const Tensor& a, double a_scale, int64_t a_zero_point, int64_t a_quant_min,
                          int64_t a_quant_max, const Tensor& b, double b_scale, int64_t b_zero_point,
                          int64_t b_quant_min, int64_t b_quant_max, double out_scale, int64_t out_zero_point,
                          int64_t out_quant_min, int64_t out_quant_max, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  cpu::checkOnCPU(op, "a", a);
  cpu::checkOnCPU(op, "b", b);
  cpu::checkOnCPU(op, "out", out);
  const ScalarType dtype = a.scalar_type();
  cpu::checkDtypeSupported(op, "a", dtype, kQuantizedStorageDtypes);
  SY_CHECK_TYPE(b.scalar_type() == dtype && out.scalar_type() == dtype, op,
                ": expected 'a', 'b' and 'out' to have one dtype, but got ", dtype, ", ", b.scalar_type(), " and ",
                out.scalar_type());
  SY_CHECK_VALUE(a.sizes() == b.sizes(), op, ": expected 'a' and 'b' to have one shape, but got ", formatSizes(a.sizes()), " and ",
                 formatSizes(b.sizes()));
  checkQuantizationRange(op, dtype, a_quant_min, a_quant_max);
  checkQuantizationRange(op, dtype, b_quant_min, b_quant_max);
  checkQuantizationRange(op, dtype, out_quant_min, out_quant_max);
  // See Note [An out= that is also an input keeps the input's values].
  const Tensor lhs = contiguousOperand(op, "a", cpu::unaffectedByResizeOf(out, a));
  const Tensor rhs = contiguousOperand(op, "b", cpu::unaffectedByResizeOf(out, b));
  cpu::resizeOutput(out, a.sizes());
  cpu::checkNoInternalOverlap(op, out);
  const float sa = static_cast<float>(a_scale);
  const float sb = static_cast<float>(b_scale);
  const float inverse = inverseScale(out_scale);
  const int64_t n = lhs.numel();
  auto fill = [&](const Tensor& dst) {
    cpu::dispatchDtype<kQuantizedStorageDtypes>(dtype, op, "a", [&](auto tag) {
      using Q = typename decltype(tag)::type;
      const Q* x = static_cast<const Q*>(lhs.data_ptr());
      const Q* y = static_cast<const Q*>(rhs.data_ptr());
      Q* z = static_cast<Q*>(dst.data_ptr());
      for (int64_t i = 0; i < n; ++i) {
        const float sum = dequantizeValue(x[i], a_zero_point, sa) + dequantizeValue(y[i], b_zero_point, sb);
        z[i] = quantizeValue<Q>(sum, inverse, out_zero_point, out_quant_min, out_quant_max);
      }
    });
  };
  // Reading both operands before writing makes an out that is `a` or `b` itself safe; a partial
  // overlap goes through a temporary.
  if (out.is_contiguous() && !cpu::partiallyOverlaps(out, lhs) && !cpu::partiallyOverlaps(out, rhs)) {
    fill(out);
  } else {
    Tensor staged = sy::empty(out.sizes(), dtype);
    fill(staged);
    cpu::copyIntoCPU(op, out, staged, "out", "result");
  }
  return out;
}

}  // namespace native
}  // namespace sy::quantized
