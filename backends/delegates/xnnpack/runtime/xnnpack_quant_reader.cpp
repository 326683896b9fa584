// Reading one value's quantization parameters from the blob (See Note [An XNNPACK blob is checked
// before XNNPACK sees it] in xnnpack_graph_reader.cpp).
#include <cmath>
#include <cstring>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_reader_internal.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack::reader {
namespace {

absl::Status valueError(uint32_t i, const std::string& what) { return malformed(sy::str("value ", i, ": ", what)); }

bool finitePositive(float s) { return std::isfinite(s) && s > 0; }

// Note [Block scales are bfloat16]
// XNNPACK takes the scales of 4-bit blockwise weights (qbint4) as bfloat16, so ExecuTorch's exporter
// writes them so, into constant data (scale_buffer_idx, num_scales). Blobs from before that carry
// them as floats in the table's own `scale` vector, which ExecuTorch's runtime turns into bfloat16
// by scaling by 1.00389105 and keeping the top 16 bits (a truncation made to round about as
// nearest does). Switchyard reads them both ways into the same values as ExecuTorch, so an
// old-style blob computes here what it computes there (a float scale kept as it was gave results
// up to 7% apart near zero); its writer writes the bfloat16 form, rounded to nearest as PyTorch's
// `to(torch.bfloat16)` does.
float inlineBlockScale(float scale) {
  const float adjusted = scale * 1.00389105f;
  uint32_t bits = 0;
  std::memcpy(&bits, &adjusted, 4);
  bits &= 0xffff0000u;
  float rounded = 0;
  std::memcpy(&rounded, &bits, 4);
  return rounded;
}

// Scales from the quantization table's own vector, or from constant data when it names one (as
// bfloat16 when `bf16`: the block scales; See Note [Block scales are bfloat16]).
absl::Status scales(const flatbuffers::Vector<float>* inline_scales, uint32_t buffer_index, uint32_t num_scales, bool bf16,
                    size_t expected, uint32_t value, const ConstantLookup& constant, uint64_t& scales_read,
                    std::vector<float>& out) {
  if (buffer_index == 0) {
    if (inline_scales == nullptr || inline_scales->size() != expected) {
      return valueError(value, sy::str(inline_scales == nullptr ? 0 : inline_scales->size(), " scales, expected ", expected));
    }
    out.resize(expected);
    if (expected != 0) std::memcpy(out.data(), inline_scales->data(), expected * sizeof(float));
    if (bf16) {
      for (float& s : out) s = inlineBlockScale(s);
    }
  } else {
    absl::StatusOr<absl::Span<const uint8_t>> data = constant(buffer_index);
    if (!data.ok()) return data.status();
    const size_t element = bf16 ? 2 : 4;
    if (num_scales != expected || data->size() < uint64_t{expected} * element) {
      return valueError(value, sy::str(num_scales, " scales in ", data->size(), " bytes, expected ", expected));
    }
    out.resize(expected);
    for (size_t i = 0; i < expected; ++i) {
      if (bf16) {
        uint32_t bits = uint32_t{data->data()[2 * i]} | (uint32_t{data->data()[2 * i + 1]} << 8);
        bits <<= 16;
        std::memcpy(&out[i], &bits, 4);
      } else {
        std::memcpy(&out[i], data->data() + 4 * i, 4);
      }
    }
  }
  for (float s : out) {
    if (!finitePositive(s)) return valueError(value, sy::str("a scale of ", s));
  }
  scales_read += expected;
  if (scales_read > (uint64_t{1} << 28)) return valueError(value, "more than 2^28 scales in all");
  return absl::OkStatus();
}

}  // namespace

absl::Status readQuantization(const fb::XNNQuantizedTensorValue& q, uint32_t i, XnnValue& v, const ConstantLookup& constant,
                              uint64_t& scales_read) {
  QuantParams& p = v.quant;
  const Datatype d = v.datatype;
  switch (q.quant_params_type()) {
    case fb::XNNQuantParams::PerTensorQuant: {
      const fb::PerTensorQuant* t = q.quant_params_as_PerTensorQuant();
      p.kind = QuantParams::Kind::PerTensor, p.scale = t->scale(), p.zero_point = t->zero_point();
      const bool zero_point_fits = d == Datatype::QInt8    ? p.zero_point >= -128 && p.zero_point <= 127
                                   : d == Datatype::QUInt8 ? p.zero_point >= 0 && p.zero_point <= 255
                                                           : p.zero_point == 0;
      if (d != Datatype::QInt8 && d != Datatype::QUInt8 && d != Datatype::QInt32) break;
      if (!finitePositive(p.scale) || !zero_point_fits) {
        return valueError(i, sy::str("scale ", p.scale, " and zero point ", p.zero_point, " do not fit ", datatypeName(d)));
      }
      return absl::OkStatus();
    }
    case fb::XNNQuantParams::PerChannelQuant: {
      const fb::PerChannelQuant* c = q.quant_params_as_PerChannelQuant();
      if (d != Datatype::QCInt8 && d != Datatype::QCInt32 && d != Datatype::QCInt4) break;
      p.kind = QuantParams::Kind::PerChannel, p.zero_point = d == Datatype::QCInt4 ? 8 : 0;
      if (c->channel_dim() < 0 || static_cast<size_t>(c->channel_dim()) >= v.dims.size()) {
        return valueError(i, sy::str("channel_dim ", c->channel_dim(), " of a ", v.dims.size(), "-D value"));
      }
      p.channel_dim = static_cast<uint32_t>(c->channel_dim());
      return scales(c->scale(), c->scale_buffer_idx(), c->num_scales(), false, v.dims[p.channel_dim], i, constant,
                    scales_read, p.scales);
    }
    case fb::XNNQuantParams::PerChannelGroupQuant: {
      const fb::PerChannelGroupQuant* g = q.quant_params_as_PerChannelGroupQuant();
      if (d != Datatype::QBInt4) break;
      p.kind = QuantParams::Kind::PerChannelGroup, p.zero_point = 8;
      if (v.dims.size() != 2 || g->channel_dim() != 0 || g->group_size() <= 0 ||
          v.dims[1] % static_cast<size_t>(g->group_size()) != 0) {
        return valueError(i, sy::str("groups of ", g->group_size(), " along channel_dim ", g->channel_dim(), " of ",
                                     dimsString(v.dims)));
      }
      p.group_size = static_cast<uint32_t>(g->group_size());
      return scales(g->scale(), g->scale_buffer_idx(), g->num_scales(), /*bf16=*/true, v.dims[0] * (v.dims[1] / p.group_size),
                    i, constant, scales_read, p.scales);
    }
    case fb::XNNQuantParams::PerTokenDynamicQuant: {
      const fb::PerTokenDynamicQuant* t = q.quant_params_as_PerTokenDynamicQuant();
      if (d != Datatype::QDInt8) break;
      p.kind = QuantParams::Kind::PerToken, p.num_nonbatch_dims = t->num_nonbatch_dims();
      if (p.num_nonbatch_dims < 0 || static_cast<size_t>(p.num_nonbatch_dims) > v.dims.size()) {
        return valueError(i, sy::str(p.num_nonbatch_dims, " non-batch dims of a ", v.dims.size(), "-D value"));
      }
      return absl::OkStatus();
    }
    default: return valueError(i, "quantization parameters of no known kind");
  }
  return valueError(i, sy::str(datatypeName(d), " with ", fb::EnumNameXNNQuantParams(q.quant_params_type()),
                               " quantization parameters"));
}

}  // namespace sy::xnnpack::reader
