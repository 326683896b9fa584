// quantized_decomposed::embedding_byte, embedding_2bit and embedding_4bit (.out and .dtype_out) on
// the CPU: rows of a quantized embedding table, dequantized. out[..., j] = (w[index, j] -
// zero_point) * scale, with one scale (and zero point) per row of the table, or per group of
// columns when weight_scales is 2-D ([rows, groups], each group weight_dim / groups columns wide);
// as PyTorch's reference (dequantize_per_channel of the table, then aten::embedding) and
// ExecuTorch's kernels compute it, in float.
//   - embedding_byte: `weight` is Byte or Char, [rows, dim];
//   - embedding_4bit / embedding_2bit: `weight` is Byte, [rows, dim * bits / 8], each byte holding
//     two (four) values stored with an offset of 8 (2): 4-bit values high nibble first, 2-bit
//     values lowest bits first, as ExecuTorch packs them;
//   - `weight_scales` and `weight_zero_points` (optional: 0) are floating ([rows] or [rows,
//     groups]); `indices` is Long or Int, any shape, each in [0, rows);
//   - `out` ([*indices.shape, dim]) is Float, Half or BFloat16: the `dtype` argument's when given.
#include <cstdint>
#include <optional>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::quantized {
namespace {

using cpu::checkOnCPU;

constexpr unsigned kEmbeddingOutDtypes = 1u << static_cast<int>(ScalarType::Float) |
                                         1u << static_cast<int>(ScalarType::Half) |
                                         1u << static_cast<int>(ScalarType::BFloat16);

struct EmbeddingTable {
  int64_t rows = 0;
  int64_t dim = 0;         // values per row, unpacked
  int64_t groups = 1;      // scales per row
  int64_t group_size = 0;  // values per group
};

// Value j of row `row` of the packed (or byte) table.
int32_t embeddingTableValue(const Tensor& weight, int bits, int64_t row, int64_t j) {
  const int64_t packed_row = weight.size(1);
  if (bits == 8) {
    const int64_t at = row * packed_row + j;
    return weight.scalar_type() == ScalarType::Char ? static_cast<const int8_t*>(weight.data_ptr())[at]
                                                    : static_cast<const uint8_t*>(weight.data_ptr())[at];
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(weight.data_ptr()) + row * packed_row;
  if (bits == 4) {
    const uint8_t b = bytes[j / 2];
    return static_cast<int32_t>(j % 2 == 0 ? (b >> 4) & 0x0F : b & 0x0F) - 8;
  }
  const uint8_t b = bytes[j / 4];
  return static_cast<int32_t>((b >> (2 * (j % 4))) & 0x03) - 2;
}

// The weights are read as bytes (8-bit: Byte or Char; packed 2- and 4-bit: Byte): quantized.yaml may
// declare no more.
static_assert((quantized_embedding_byte_out_dtypes & ~(cpu::kByteDtype | cpu::kCharDtype)) == 0 &&
                  quantized_embedding_byte_dtype_out_dtypes == quantized_embedding_byte_out_dtypes &&
                  (quantized_embedding_4bit_out_dtypes & ~cpu::kByteDtype) == 0 &&
                  quantized_embedding_4bit_dtype_out_dtypes == quantized_embedding_4bit_out_dtypes &&
                  (quantized_embedding_2bit_out_dtypes & ~cpu::kByteDtype) == 0 &&
                  quantized_embedding_2bit_dtype_out_dtypes == quantized_embedding_2bit_out_dtypes,
              "the quantized embeddings read Byte or Char weights; widen their loops before quantized.yaml");

// Checks the arguments of an embedding of `bits`-bit weights, whose dtype must be one of the kernel's
// `weight_dtypes` (its generated `<kernel>_dtypes`).
EmbeddingTable checkEmbeddingArguments(const char* op, int bits, unsigned weight_dtypes, const Tensor& weight, const Tensor& weight_scales,
                                       const std::optional<Tensor>& weight_zero_points, int64_t quant_min,
                                       int64_t quant_max, const Tensor& indices) {
  checkOnCPU(op, "weight", weight);
  checkOnCPU(op, "weight_scales", weight_scales);
  checkOnCPU(op, "indices", indices);
  SY_CHECK_VALUE(weight.dim() == 2, op, ": expected 'weight' to be 2-D, but it has ", weight.dim(), " dimensions");
  cpu::checkDtypeSupported(op, "weight", weight.scalar_type(), weight_dtypes);
  EmbeddingTable t;
  t.rows = weight.size(0);
  t.dim = weight.size(1) * (8 / bits);
  SY_CHECK_VALUE(weight_scales.dim() == 1 || weight_scales.dim() == 2, op,
                 ": expected 'weight_scales' to be 1-D or 2-D, but it has ", weight_scales.dim(), " dimensions");
  cpu::checkDtypeSupported(op, "weight_scales", weight_scales.scalar_type(), kQuantizedFloatDtypes);
  SY_CHECK_VALUE(weight_scales.size(0) == t.rows, op, ": expected 'weight_scales' to have one row per row of 'weight' (",
                 t.rows, "), but it has ", weight_scales.size(0));
  if (weight_scales.dim() == 2) t.groups = weight_scales.size(1);
  SY_CHECK_VALUE(t.groups > 0 && t.dim % t.groups == 0, op, ": ", t.groups, " groups per row do not divide the ",
                 t.dim, " values of a row of 'weight'");
  t.group_size = t.dim / t.groups;
  if (weight_zero_points) {
    checkOnCPU(op, "weight_zero_points", *weight_zero_points);
    SY_CHECK_VALUE(weight_zero_points->sizes() == weight_scales.sizes(), op,
                   ": expected 'weight_zero_points' to have the shape of 'weight_scales' ",
                   formatSizes(weight_scales.sizes()), ", but it has ", formatSizes(weight_zero_points->sizes()));
    cpu::checkDtypeSupported(op, "weight_zero_points", weight_zero_points->scalar_type(),
                             kQuantizedFloatDtypes | cpu::kIntegralDtypes);
  }
  SY_CHECK_VALUE(quant_min <= quant_max, op, ": weight_quant_min ", quant_min, " is greater than weight_quant_max ",
                 quant_max);
  SY_CHECK_TYPE(indices.scalar_type() == ScalarType::Long || indices.scalar_type() == ScalarType::Int, op,
                ": expected 'indices' to be a Long or Int tensor, but got ", indices.scalar_type());
  return t;
}

Tensor& quantizedEmbedding(int bits, unsigned weight_dtypes, const Tensor& weight, const Tensor& weight_scales,
                           const std::optional<Tensor>& weight_zero_points, int64_t quant_min, int64_t quant_max,
                           const Tensor& indices, std::optional<ScalarType> dtype, Tensor& out,
                           const KernelContext& ctx) {
  const char* op = ctx.op;
  const EmbeddingTable t =
      checkEmbeddingArguments(op, bits, weight_dtypes, weight, weight_scales, weight_zero_points, quant_min, quant_max,
                              indices);
  const Tensor w = contiguousOperand(op, "weight", weight);
  const Tensor scales = contiguousOperand(op, "weight_scales", weight_scales);
  const std::optional<Tensor> zero_points =
      weight_zero_points ? std::optional<Tensor>(contiguousOperand(op, "weight_zero_points", *weight_zero_points))
                         : std::nullopt;
  const Tensor positions = contiguousOperand(op, "indices", indices);
  const int64_t count = positions.numel();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = static_cast<int64_t>(parameterAt(positions, i));
    SY_CHECK_INDEX(index >= 0 && index < t.rows, op, ": index ", index, " is out of range for a table of ", t.rows,
                   " rows");
  }
  SizesVector sizes(indices.sizes().begin(), indices.sizes().end());
  sizes.push_back(t.dim);
  if (ctx.form == OutputForm::Functional) {
    const ScalarType result = dtype.value_or(weight_scales.scalar_type() == ScalarType::Double ? ScalarType::Float
                                                                                               : weight_scales.scalar_type());
    out = ops::empty(sizes, TensorOptions(result).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  cpu::checkDtypeSupported(op, "out", out.scalar_type(), kEmbeddingOutDtypes);
  if (dtype) {
    SY_CHECK_TYPE(out.scalar_type() == *dtype, op, ": expected 'out' to have dtype ", *dtype,
                  " (the 'dtype' argument), but got ", out.scalar_type());
  }
  cpu::resizeOutput(out, sizes);
  cpu::checkNoInternalOverlap(op, out);
  fillOutput(op, out, weight, [&](const Tensor& dst) {
    cpu::dispatchDtype<kEmbeddingOutDtypes>(dst.scalar_type(), op, "out", [&](auto tag) {
      using Y = typename decltype(tag)::type;
      Y* y = static_cast<Y*>(dst.data_ptr());
      for (int64_t i = 0; i < count; ++i) {
        const int64_t row = static_cast<int64_t>(parameterAt(positions, i));
        for (int64_t j = 0; j < t.dim; ++j) {
          const int64_t p = row * t.groups + j / t.group_size;
          const float scale = static_cast<float>(parameterAt(scales, p));
          const float zero_point = zero_points ? static_cast<float>(parameterAt(*zero_points, p)) : 0.0f;
          const float value = static_cast<float>(embeddingTableValue(w, bits, row, j));
          y[i * t.dim + j] = static_cast<Y>((value - zero_point) * scale);
        }
      }
    });
  });
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/kernels/quantized/quantized.yaml) ----------------------

namespace native {

Tensor& quantized_embedding_byte_out(const Tensor& weight, const Tensor& weight_scales,
                                     const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                     int64_t weight_quant_max, const Tensor& indices, Tensor& out,
                                     const KernelContext& ctx) {
  return quantizedEmbedding(8, quantized_embedding_byte_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, std::nullopt, out, ctx);
}

Tensor& quantized_embedding_byte_dtype_out(const Tensor& weight, const Tensor& weight_scales,
                                           const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                           int64_t weight_quant_max, const Tensor& indices,
                                           std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return quantizedEmbedding(8, quantized_embedding_byte_dtype_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, dtype, out, ctx);
}

Tensor& quantized_embedding_4bit_out(const Tensor& weight, const Tensor& weight_scales,
                                     const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                     int64_t weight_quant_max, const Tensor& indices, Tensor& out,
                                     const KernelContext& ctx) {
  return quantizedEmbedding(4, quantized_embedding_4bit_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, std::nullopt, out, ctx);
}

Tensor& quantized_embedding_4bit_dtype_out(const Tensor& weight, const Tensor& weight_scales,
                                           const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                           int64_t weight_quant_max, const Tensor& indices,
                                           std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return quantizedEmbedding(4, quantized_embedding_4bit_dtype_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, dtype, out, ctx);
}

Tensor& quantized_embedding_2bit_out(const Tensor& weight, const Tensor& weight_scales,
                                     const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                     int64_t weight_quant_max, const Tensor& indices, Tensor& out,
                                     const KernelContext& ctx) {
  return quantizedEmbedding(2, quantized_embedding_2bit_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, std::nullopt, out, ctx);
}

Tensor& quantized_embedding_2bit_dtype_out(const Tensor& weight, const Tensor& weight_scales,
                                           const std::optional<Tensor>& weight_zero_points, int64_t weight_quant_min,
                                           int64_t weight_quant_max, const Tensor& indices,
                                           std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return quantizedEmbedding(2, quantized_embedding_2bit_dtype_out_dtypes, weight, weight_scales, weight_zero_points,
                            weight_quant_min, weight_quant_max, indices, dtype, out, ctx);
}

}  // namespace native
}  // namespace sy::quantized
