// quantized_decomposed::mixed_mm.out and mixed_linear.out on the CPU: a floating input times an
// int8 weight dequantized on the fly, as PyTorch's reference (dequantize_per_channel of the
// weight, then aten::mm or aten::linear) and ExecuTorch's kernels compute it, accumulating in float.
//   - mixed_mm: input [m, k] (Float or Half) times weight [k, n] (Char); weight_scales [k] scale
//     the weight's rows: out[i, j] = sum_k input[i, k] * (weight[k, j] - zero_point[k]) * scale[k];
//     out [m, n] has the input's dtype, as weight_scales must.
//   - mixed_linear: input [m, k] times the transpose of weight [n, k]; weight_scales [n] or
//     [n, groups] (each group k / groups columns): out[i, j] = sum_k input[i, k] * (weight[j, k] -
//     zero_point[j, g]) * scale[j, g]; out [m, n] is Float or Half, the `dtype` argument's when given.
//   - weight_zero_points (optional, 0 when absent) has weight_scales' shape.
#include <cstdint>
#include <optional>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

// mixed_mm and mixed_linear share their loops, so their entries declare one set of input dtypes.
constexpr unsigned kMixedInputDtypes = quantized_mixed_mm_out_dtypes;
static_assert(quantized_mixed_linear_out_dtypes == kMixedInputDtypes,
              "mixed_mm.out and mixed_linear.out declare the same dtypes: in quantized.yaml");

struct MixedOperands {
  Tensor input, weight, scales;
  std::optional<Tensor> zero_points;
};

MixedOperands mixedOperands(const char* op, const Tensor& input, const Tensor& weight, const Tensor& weight_scales,
                            const std::optional<Tensor>& weight_zero_points) {
  checkOnCPU(op, "input", input);
  checkOnCPU(op, "weight", weight);
  checkOnCPU(op, "weight_scales", weight_scales);
  cpu::checkDtypeSupported(op, "input", input.scalar_type(), kMixedInputDtypes);
  SY_CHECK_TYPE(weight.scalar_type() == ScalarType::Char, op, ": expected 'weight' to be a Char (int8) tensor, but got ",
                weight.scalar_type());
  SY_CHECK_TYPE(weight_scales.scalar_type() == input.scalar_type(), op, ": expected 'weight_scales' to have the "
                "input's dtype ", input.scalar_type(), ", but got ", weight_scales.scalar_type());
  SY_CHECK_VALUE(input.dim() == 2 && weight.dim() == 2, op, ": expected a 2-D 'input' and a 2-D 'weight', but got ",
                 input.dim(), "-D and ", weight.dim(), "-D");
  MixedOperands m{contiguousOperand(op, "input", input), contiguousOperand(op, "weight", weight),
                  contiguousOperand(op, "weight_scales", weight_scales), std::nullopt};
  if (weight_zero_points) {
    checkOnCPU(op, "weight_zero_points", *weight_zero_points);
    SY_CHECK_VALUE(weight_zero_points->sizes() == weight_scales.sizes(), op,
                   ": expected 'weight_zero_points' to have the shape of 'weight_scales' ",
                   formatSizes(weight_scales.sizes()), ", but it has ", formatSizes(weight_zero_points->sizes()));
    cpu::checkDtypeSupported(op, "weight_zero_points", weight_zero_points->scalar_type(),
                             kQuantizedFloatDtypes | cpu::kIntegralDtypes);
    m.zero_points = contiguousOperand(op, "weight_zero_points", *weight_zero_points);
  }
  return m;
}

// out[i, j] = sum_k input[i, k] * w(k, j), w(k, j) the dequantized weight entry, into `dst` [m, n].
template <class WeightAt>
void mixedProduct(const char* op, const Tensor& input, int64_t m, int64_t k, int64_t n, const Tensor& dst,
                  WeightAt&& weight_at) {
  cpu::dispatchDtype<kMixedInputDtypes>(input.scalar_type(), op, "input", [&](auto in_tag) {
    using X = typename decltype(in_tag)::type;
    cpu::dispatchDtype<kMixedInputDtypes>(dst.scalar_type(), op, "out", [&](auto out_tag) {
      using Y = typename decltype(out_tag)::type;
      const X* x = static_cast<const X*>(input.data_ptr());
      Y* y = static_cast<Y*>(dst.data_ptr());
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          float sum = 0;
          for (int64_t p = 0; p < k; ++p) sum += static_cast<float>(x[i * k + p]) * weight_at(p, j);
          y[i * n + j] = static_cast<Y>(sum);
        }
      }
    });
  });
}

void shapeMixedOutput(const char* op, Tensor& out, const MixedOperands& operands, int64_t m, int64_t n) {
  checkOnCPU(op, "out", out);
  const int64_t sizes[] = {m, n};
  cpu::resizeOutput(out, sizes);
  cpu::checkNoInternalOverlap(op, out);
}

}  // namespace

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

Tensor& quantized_mixed_mm_out(const Tensor& input, const Tensor& weight, const Tensor& weight_scales,
                               const std::optional<Tensor>& weight_zero_points, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const MixedOperands o = mixedOperands(op, input, weight, weight_scales, weight_zero_points);
  const int64_t m = input.size(0), k = input.size(1), n = weight.size(1);
  SY_CHECK_VALUE(weight.size(0) == k, op, ": 'input' [", m, ", ", k, "] cannot be multiplied by 'weight' [",
                 weight.size(0), ", ", n, "]");
  SY_CHECK_VALUE(weight_scales.dim() == 1 && weight_scales.size(0) == k, op,
                 ": expected 'weight_scales' to hold one scale per row of 'weight' ([", k, "]), but it has shape ",
                 formatSizes(weight_scales.sizes()));
  if (ctx.form == OutputForm::Functional) {
    const int64_t sizes[] = {m, n};
    out = ops::empty(sizes, TensorOptions(input.scalar_type()).device(kCPU));
  }
  SY_CHECK_TYPE(out.scalar_type() == input.scalar_type(), op, ": expected 'out' to have the input's dtype ",
                input.scalar_type(), ", but got ", out.scalar_type());
  shapeMixedOutput(op, out, o, m, n);
  const int8_t* w = static_cast<const int8_t*>(o.weight.data_ptr());
  fillOutput(op, out, input, [&](const Tensor& dst) {
    mixedProduct(op, o.input, m, k, n, dst, [&](int64_t p, int64_t j) {
      const float zero_point = o.zero_points ? static_cast<float>(parameterAt(*o.zero_points, p)) : 0.0f;
      return (static_cast<float>(w[p * n + j]) - zero_point) * static_cast<float>(parameterAt(o.scales, p));
    });
  });
  return out;
}

Tensor& quantized_mixed_linear_out(const Tensor& input, const Tensor& weight, const Tensor& weight_scales,
                                   const std::optional<Tensor>& weight_zero_points, std::optional<ScalarType> dtype,
                                   Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  const MixedOperands o = mixedOperands(op, input, weight, weight_scales, weight_zero_points);
  const int64_t m = input.size(0), k = input.size(1), n = weight.size(0);
  SY_CHECK_VALUE(weight.size(1) == k, op, ": 'input' [", m, ", ", k, "] cannot be multiplied by the transpose of "
                 "'weight' [", n, ", ", weight.size(1), "]");
  SY_CHECK_VALUE((weight_scales.dim() == 1 || weight_scales.dim() == 2) && weight_scales.size(0) == n, op,
                 ": expected 'weight_scales' to hold one row of scales per row of 'weight' ([", n,
                 "] or [", n, ", groups]), but it has shape ", formatSizes(weight_scales.sizes()));
  const int64_t groups = weight_scales.dim() == 2 ? weight_scales.size(1) : 1;
  SY_CHECK_VALUE(groups > 0 && k % groups == 0, op, ": ", groups, " groups of scales do not divide the ", k,
                 " columns of 'weight'");
  const int64_t group_size = k / groups;
  if (dtype) cpu::checkDtypeSupported(op, "dtype", *dtype, kMixedInputDtypes);
  if (ctx.form == OutputForm::Functional) {
    const int64_t sizes[] = {m, n};
    out = ops::empty(sizes, TensorOptions(dtype.value_or(input.scalar_type())).device(kCPU));
  }
  if (dtype) {
    SY_CHECK_TYPE(out.scalar_type() == *dtype, op, ": expected 'out' to have dtype ", *dtype,
                  " (the 'dtype' argument), but got ", out.scalar_type());
  } else {
    cpu::checkDtypeSupported(op, "out", out.scalar_type(), kMixedInputDtypes);
  }
  shapeMixedOutput(op, out, o, m, n);
  const int8_t* w = static_cast<const int8_t*>(o.weight.data_ptr());
  fillOutput(op, out, input, [&](const Tensor& dst) {
    mixedProduct(op, o.input, m, k, n, dst, [&](int64_t p, int64_t j) {
      const int64_t q = j * groups + p / group_size;
      const float zero_point = o.zero_points ? static_cast<float>(parameterAt(*o.zero_points, q)) : 0.0f;
      return (static_cast<float>(w[j * k + p]) - zero_point) * static_cast<float>(parameterAt(o.scales, q));
    });
  });
  return out;
}

}  // namespace native
}  // namespace sy::quantized
