#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "switchyard/core/half.h"

namespace sy::xnnpack {
namespace {

// The scale and zero point of element `i` of `value` (per tensor, per channel or per group).
class ElementQuantization {
 public:
  ElementQuantization(const XnnValue& v, const Dims& dims) : q_(v.quant) {
    if (q_.kind == QuantParams::Kind::PerChannel) {
      channels_ = dims[q_.channel_dim];
      for (size_t d = q_.channel_dim + 1; d < dims.size(); ++d) inner_ *= dims[d];
    } else if (q_.kind == QuantParams::Kind::PerChannelGroup) {
      row_ = dims[1];
      groups_per_row_ = row_ / q_.group_size;
    }
  }
  float scale(size_t i) const {
    switch (q_.kind) {
      case QuantParams::Kind::PerChannel: return q_.scales[(i / inner_) % channels_];
      case QuantParams::Kind::PerChannelGroup: return q_.scales[(i / row_) * groups_per_row_ + (i % row_) / q_.group_size];
      default: return q_.scale;
    }
  }
  int32_t zeroPoint() const { return q_.zero_point; }

 private:
  const QuantParams& q_;
  size_t channels_ = 1, inner_ = 1, row_ = 1, groups_per_row_ = 1;
};

template <class T>
T saturate(float x) {
  const float lo = static_cast<float>(std::numeric_limits<T>::lowest());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  if (std::isnan(x)) return 0;
  return static_cast<T>(std::min(std::max(x, lo), hi));
}

// Element i of a 4-bit value packed two per byte along rows of `row` elements (low nibble first).
uint8_t nibble(const uint8_t* p, size_t i, size_t row) {
  const size_t r = i / row, c = i % row;
  const uint8_t byte = p[r * ((row + 1) / 2) + c / 2];
  return c % 2 == 0 ? byte & 0xF : byte >> 4;
}

}  // namespace

size_t dynamicRows(const XnnValue& value, const Dims& dims) {
  const size_t batch = dims.size() - std::min<size_t>(dims.size(), static_cast<size_t>(value.quant.num_nonbatch_dims));
  size_t rows = 1;
  for (size_t d = 0; d < batch; ++d) rows *= dims[d];
  return rows;
}

void toFloat(const XnnValue& v, const Dims& dims, const void* src, const std::vector<RowQuantization>& rows, float* dst) {
  const size_t n = numelOf(dims);
  const ElementQuantization q(v, dims);
  switch (v.datatype) {
    case Datatype::Fp32: std::memcpy(dst, src, n * sizeof(float)); return;
    case Datatype::Fp16: {
      const auto* h = static_cast<const uint16_t*>(src);
      // fp16 values convert as sy::Half's (core/half.h): round to nearest even, subnormals kept.
      for (size_t i = 0; i < n; ++i) dst[i] = ::sy::detail::floatFromHalfBits(h[i]);
      return;
    }
    case Datatype::Int32: {
      const auto* s = static_cast<const int32_t*>(src);
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(s[i]);
      return;
    }
    case Datatype::QInt8:
    case Datatype::QCInt8: {
      const auto* s = static_cast<const int8_t*>(src);
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(int32_t{s[i]} - q.zeroPoint()) * q.scale(i);
      return;
    }
    case Datatype::QUInt8: {
      const auto* s = static_cast<const uint8_t*>(src);
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(int32_t{s[i]} - q.zeroPoint()) * q.scale(i);
      return;
    }
    case Datatype::QInt32:
    case Datatype::QCInt32: {
      const auto* s = static_cast<const int32_t*>(src);
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(static_cast<double>(s[i]) * q.scale(i));
      return;
    }
    case Datatype::QCInt4:
    case Datatype::QBInt4: {
      const auto* s = static_cast<const uint8_t*>(src);
      const size_t row = dims.empty() ? 1 : dims.back();
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(int32_t{nibble(s, i, row)} - q.zeroPoint()) * q.scale(i);
      return;
    }
    case Datatype::QDInt8: {
      const auto* s = static_cast<const int8_t*>(src);
      const size_t num_rows = rows.size(), row = num_rows == 0 ? 0 : n / num_rows;
      if (row * num_rows != n) {  // never written at these dims (cannot happen: its producer runs first)
        std::fill(dst, dst + n, 0.0f);
        return;
      }
      for (size_t i = 0; i < n; ++i) {
        const RowQuantization& r = rows[i / row];
        dst[i] = static_cast<float>(int32_t{s[i]} - r.zero_point) * r.scale;
      }
      return;
    }
    default: std::fill(dst, dst + n, 0.0f); return;
  }
}

void fromFloat(const XnnValue& v, const Dims& dims, const float* src, void* dst, std::vector<RowQuantization>& rows) {
  const size_t n = numelOf(dims);
  const ElementQuantization q(v, dims);
  auto quantized = [&](size_t i) { return std::nearbyint(src[i] / q.scale(i)) + static_cast<float>(q.zeroPoint()); };
  switch (v.datatype) {
    case Datatype::Fp32: std::memcpy(dst, src, n * sizeof(float)); return;
    case Datatype::Fp16: {
      auto* h = static_cast<uint16_t*>(dst);
      for (size_t i = 0; i < n; ++i) h[i] = ::sy::detail::halfBitsFromFloat(src[i]);
      return;
    }
    case Datatype::Int32: {
      auto* d = static_cast<int32_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = saturate<int32_t>(std::nearbyint(src[i]));
      return;
    }
    case Datatype::QInt8:
    case Datatype::QCInt8: {
      auto* d = static_cast<int8_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = saturate<int8_t>(quantized(i));
      return;
    }
    case Datatype::QUInt8: {
      auto* d = static_cast<uint8_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = saturate<uint8_t>(quantized(i));
      return;
    }
    case Datatype::QInt32:
    case Datatype::QCInt32: {
      auto* d = static_cast<int32_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = saturate<int32_t>(quantized(i));
      return;
    }
    case Datatype::QCInt4:
    case Datatype::QBInt4: {
      auto* d = static_cast<uint8_t*>(dst);
      const size_t row = dims.empty() ? 1 : dims.back(), stride = (row + 1) / 2;
      std::memset(d, 0, storageBytes(v.datatype, dims));
      for (size_t i = 0; i < n; ++i) {
        const uint8_t x = static_cast<uint8_t>(std::min(std::max(quantized(i), 0.0f), 15.0f));
        const size_t r = i / row, c = i % row;
        d[r * stride + c / 2] |= c % 2 == 0 ? x : static_cast<uint8_t>(x << 4);
      }
      return;
    }
    case Datatype::QDInt8: {
      auto* d = static_cast<int8_t*>(dst);
      const size_t num_rows = dynamicRows(v, dims), row = num_rows == 0 ? 0 : n / num_rows;
      rows.resize(num_rows);  // no allocation once grown to the value's bound
      for (size_t r = 0; r < num_rows; ++r) {
        const float* x = src + r * row;
        float lo = 0.0f, hi = 0.0f;
        for (size_t i = 0; i < row; ++i) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
        float scale = (hi - lo) / 255.0f;
        if (!(scale > 0) || !std::isfinite(scale)) scale = 1.0f;
        const int32_t zero_point = static_cast<int32_t>(std::min(std::max(std::nearbyint(-128.0f - lo / scale), -128.0f), 127.0f));
        rows[r] = {scale, zero_point};
        for (size_t i = 0; i < row; ++i) {
          d[r * row + i] = saturate<int8_t>(std::nearbyint(x[i] / scale) + static_cast<float>(zero_point));
        }
      }
      return;
    }
    default: return;
  }
}

}  // namespace sy::xnnpack
