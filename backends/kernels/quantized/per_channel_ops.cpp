// quantized_decomposed::quantize_per_channel / dequantize_per_channel (one scale and zero point per
// index along `axis`) and quantize_per_token / dequantize_per_token (one per row: every dimension
// but the last) on the CPU.
//   - per channel: `scales` (Double or Float) and `zero_points` (Long or Int; optional when
//     dequantizing, then 0) hold input.size(axis) values; `axis` may be negative. Each channel is
//     quantized as quantize_per_tensor quantizes (See Note [Quantization rounds as PyTorch's
//     decomposed operators do]), as PyTorch's decomposed operator and ExecuTorch's kernel do.
//   - per token: `scales` and `zero_points` hold one value per row (their shape is free, e.g.
//     [..., 1]); see Note [Per-token quantization adds the zero point before rounding].
// Quantized dtypes, ranges and outputs are checked as in the per-tensor kernels (quantize_ops.cpp,
// dequantize_ops.cpp).
#include <cstdint>
#include <optional>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

// Note [Per-token quantization adds the zero point before rounding]
// PyTorch defines quantize_per_token as input.mul(1.0 / scales).add(zero_points).round() and
// dequantize_per_token as ((input - zero_points) * scales).to(output_dtype), on tensors: the
// arithmetic is done in the promoted type of input and scales (Double for the Double scales
// choose_qparams_per_token_asymmetric makes) and the zero point is added before rounding, so a
// tie rounds to even after the shift (1.5 with zero point 1 gives round(2.5) = 2, not 3).
// ExecuTorch's kernel reuses its per-channel loop (float, zero point added after rounding); we
// follow PyTorch's definition, which agrees with it away from ties.

// The per-channel geometry of a contiguous tensor: `channels` values along the axis, each
// repeated over `inner` consecutive elements, the pattern repeated `outer` times.
struct ChannelLayout {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};

ChannelLayout channelLayoutOf(const Tensor& input, int64_t axis) {
  ChannelLayout g;
  for (int64_t d = 0; d < axis; ++d) g.outer *= input.size(d);
  g.channels = input.size(axis);
  for (int64_t d = axis + 1; d < input.dim(); ++d) g.inner *= input.size(d);
  return g;
}

// Rows (tokens) of a tensor: every dimension but the last.
ChannelLayout tokenLayoutOf(const Tensor& input) {
  ChannelLayout g;
  g.inner = input.dim() == 0 ? 1 : input.size(-1);
  for (int64_t d = 0; d + 1 < input.dim(); ++d) g.channels *= input.size(d);
  return g;
}

void checkChannelParameters(const char* op, const Tensor& scales, const Tensor* zero_points, int64_t count,
                            const char* what) {
  checkOnCPU(op, "scales", scales);
  // dtype set: a parameter's, not the input's.
  cpu::checkDtypeSupported(op, "scales", scales.scalar_type(), cpu::kFloatingDtypes);
  SY_CHECK_VALUE(scales.numel() == count, op, ": expected 'scales' to have ", count, " values (", what, "), but it has ",
                 scales.numel());
  SY_CHECK_VALUE(scales.dim() <= 1 || scales.is_contiguous(), op, ": expected 'scales' to be contiguous");
  if (zero_points == nullptr) return;
  checkOnCPU(op, "zero_points", *zero_points);
  // dtype set: a parameter's, not the input's.
  cpu::checkDtypeSupported(op, "zero_points", zero_points->scalar_type(), cpu::kAllDtypes & ~cpu::kBoolDtype);
  SY_CHECK_VALUE(zero_points->numel() == count, op, ": expected 'zero_points' to have ", count, " values (", what,
                 "), but it has ", zero_points->numel());
  SY_CHECK_VALUE(zero_points->dim() <= 1 || zero_points->is_contiguous(), op, ": expected 'zero_points' to be contiguous");
}

// One value of a per-token quantization, in double or in float (See Note [Per-token quantization
// adds the zero point before rounding]); clamped in double, NaN to quant_min, as quantizeValue.
template <class Q>
Q quantizeTokenValue(double x, double scale, int64_t zero_point, int64_t quant_min, int64_t quant_max, bool in_double) {
  double shifted = 0;
  if (in_double) {
    shifted = std::nearbyint(x * (1.0 / scale) + static_cast<double>(zero_point));
  } else {
    const float inverse = 1.0f / static_cast<float>(scale);
    shifted = std::nearbyint(static_cast<float>(x) * inverse + static_cast<float>(zero_point));
  }
  if (std::isnan(shifted)) return static_cast<Q>(quant_min);
  shifted = std::min(std::max(shifted, static_cast<double>(quant_min)), static_cast<double>(quant_max));
  return static_cast<Q>(static_cast<int64_t>(shifted));
}

// Quantizes `source` into `dst` (both contiguous) channel by channel. Per token (`per_token`),
// with PyTorch's per-token arithmetic (See Note [Per-token quantization adds the zero point
// before rounding]).
void quantizeChannelsInto(const char* op, const Tensor& source, const ChannelLayout& g, const Tensor& scales,
                          const Tensor& zero_points, int64_t quant_min, int64_t quant_max, bool per_token,
                          const Tensor& dst) {
  const bool in_double = per_token && (scales.scalar_type() == ScalarType::Double || source.scalar_type() == ScalarType::Double);
  cpu::dispatchDtype<kQuantizedFloatDtypes>(source.scalar_type(), op, "input", [&](auto in_tag) {
    using X = typename decltype(in_tag)::type;
    cpu::dispatchDtype<kQuantizedStorageDtypes>(dst.scalar_type(), op, "out", [&](auto q_tag) {
      using Q = typename decltype(q_tag)::type;
      const X* x = static_cast<const X*>(source.data_ptr());
      Q* q = static_cast<Q*>(dst.data_ptr());
      for (int64_t o = 0; o < g.outer; ++o) {
        for (int64_t c = 0; c < g.channels; ++c) {
          const double scale = parameterAt(scales, c);
          const int64_t zero_point = static_cast<int64_t>(parameterAt(zero_points, c));
          const int64_t base = (o * g.channels + c) * g.inner;
          if (!per_token) {
            // PyTorch's 1.0 / scales[i] is taken in the scales' dtype.
            const float inverse = scales.scalar_type() == ScalarType::Float ? 1.0f / static_cast<float>(scale)
                                                                            : inverseScale(scale);
            for (int64_t i = 0; i < g.inner; ++i) {
              q[base + i] = quantizeValue<Q>(static_cast<double>(x[base + i]), inverse, zero_point, quant_min, quant_max);
            }
          } else {
            for (int64_t i = 0; i < g.inner; ++i) {
              q[base + i] = quantizeTokenValue<Q>(static_cast<double>(x[base + i]), scale, zero_point, quant_min,
                                                  quant_max, in_double);
            }
          }
        }
      }
    });
  });
}

// Dequantizes `source` into `dst` (both contiguous) channel by channel: (q - zero_point) * scale in
// float as dequantize_per_tensor does, or per token in the scales' dtype (PyTorch's tensor
// arithmetic: Double scales compute in double).
void dequantizeChannelsInto(const char* op, const Tensor& source, const ChannelLayout& g, const Tensor& scales,
                            const std::optional<Tensor>& zero_points, bool per_token, const Tensor& dst) {
  const bool in_double = per_token && scales.scalar_type() == ScalarType::Double;
  cpu::dispatchDtype<kQuantizedStorageDtypes>(source.scalar_type(), op, "input", [&](auto q_tag) {
    using Q = typename decltype(q_tag)::type;
    cpu::dispatchDtype<kQuantizedFloatDtypes>(dst.scalar_type(), op, "out", [&](auto out_tag) {
      using Y = typename decltype(out_tag)::type;
      const Q* q = static_cast<const Q*>(source.data_ptr());
      Y* y = static_cast<Y*>(dst.data_ptr());
      for (int64_t o = 0; o < g.outer; ++o) {
        for (int64_t c = 0; c < g.channels; ++c) {
          const double scale = parameterAt(scales, c);
          const int64_t zero_point = zero_points ? static_cast<int64_t>(parameterAt(*zero_points, c)) : 0;
          const int64_t base = (o * g.channels + c) * g.inner;
          const float scale_f = static_cast<float>(scale);
          for (int64_t i = 0; i < g.inner; ++i) {
            const int64_t v = static_cast<int64_t>(q[base + i]);
            y[base + i] = in_double ? static_cast<Y>(static_cast<double>(v - zero_point) * scale)
                                    : static_cast<Y>(dequantizeValue(v, zero_point, scale_f));
          }
        }
      }
    });
  });
}

// The checks and the loop every quantizing form shares, after its parameters were checked.
Tensor& quantizeByChannel(const Tensor& input, const ChannelLayout& g, const Tensor& scales, const Tensor& zero_points,
                          int64_t quant_min, int64_t quant_max, ScalarType dtype, bool per_token, Tensor& out,
                          const KernelContext& ctx) {
  const char* op = ctx.op;
  return writeElementwiseQuantization(ctx, input, dtype, out, [&] { checkQuantizedOutDtype(op, out, dtype); },
                                      [&](const Tensor& source, const Tensor& dst) {
                                        quantizeChannelsInto(op, source, g, scales, zero_points, quant_min, quant_max,
                                                             per_token, dst);
                                      });
}

Tensor& dequantizeByChannel(const Tensor& input, const ChannelLayout& g, const Tensor& scales,
                            const std::optional<Tensor>& zero_points, std::optional<ScalarType> out_dtype, bool per_token,
                            Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const ScalarType result = out_dtype.value_or(ScalarType::Float);
  cpu::checkDtypeSupported(op, "out_dtype", result, kQuantizedFloatDtypes);
  return writeElementwiseQuantization(ctx, input, result, out, [&] { checkDequantizationOutput(op, out, out_dtype); },
                                      [&](const Tensor& source, const Tensor& dst) {
                                        dequantizeChannelsInto(op, source, g, scales, zero_points, per_token, dst);
                                      });
}

int64_t channelAxis(const char* op, const Tensor& input, int64_t axis) {
  SY_CHECK_INDEX(input.dim() > 0, op, ": per-channel quantization needs a tensor of at least one dimension, but 'input' is 0-dim");
  return wrapDim(axis, input.dim(), op, "axis");
}

}  // namespace

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

Tensor& quantize_per_channel_out(const Tensor& input, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                                 int64_t quant_min, int64_t quant_max, ScalarType dtype, Tensor& out,
                                 const KernelContext& ctx) {
  checkQuantizeInput(ctx.op, input, dtype, quant_min, quant_max);
  const ChannelLayout g = channelLayoutOf(input, channelAxis(ctx.op, input, axis));
  checkChannelParameters(ctx.op, scales, &zero_points, g.channels, "one per index along 'axis'");
  return quantizeByChannel(input, g, scales, zero_points, quant_min, quant_max, dtype, false, out, ctx);
}

Tensor& dequantize_per_channel_out(const Tensor& input, const Tensor& scales, const std::optional<Tensor>& zero_points,
                                   int64_t axis, int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                   std::optional<ScalarType> out_dtype, Tensor& out, const KernelContext& ctx) {
  checkOnCPU(ctx.op, "input", input);
  checkDequantizationInput(ctx.op, input, dtype, quant_min, quant_max);
  const ChannelLayout g = channelLayoutOf(input, channelAxis(ctx.op, input, axis));
  checkChannelParameters(ctx.op, scales, zero_points ? &*zero_points : nullptr, g.channels, "one per index along 'axis'");
  return dequantizeByChannel(input, g, scales, zero_points, out_dtype, false, out, ctx);
}

Tensor& quantize_per_token_out(const Tensor& input, const Tensor& scales, const Tensor& zero_points, int64_t quant_min,
                               int64_t quant_max, ScalarType dtype, Tensor& out, const KernelContext& ctx) {
  checkQuantizeInput(ctx.op, input, dtype, quant_min, quant_max);
  const ChannelLayout g = tokenLayoutOf(input);
  checkChannelParameters(ctx.op, scales, &zero_points, g.channels, "one per row of 'input'");
  return quantizeByChannel(input, g, scales, zero_points, quant_min, quant_max, dtype, true, out, ctx);
}

Tensor& dequantize_per_token_out(const Tensor& input, const Tensor& scales, const Tensor& zero_points, int64_t quant_min,
                                 int64_t quant_max, ScalarType dtype, ScalarType output_dtype, Tensor& out,
                                 const KernelContext& ctx) {
  checkOnCPU(ctx.op, "input", input);
  checkDequantizationInput(ctx.op, input, dtype, quant_min, quant_max);
  const ChannelLayout g = tokenLayoutOf(input);
  checkChannelParameters(ctx.op, scales, &zero_points, g.channels, "one per row of 'input'");
  return dequantizeByChannel(input, g, scales, zero_points, output_dtype, true, out, ctx);
}

}  // namespace native
}  // namespace sy::quantized
