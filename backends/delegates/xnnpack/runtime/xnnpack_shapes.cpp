#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_shapes.h"

#include <algorithm>

#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

absl::Status mismatch(const std::string& what) { return absl::InvalidArgumentError(what); }

// Output extent of a window of `kernel` (dilated) sliding by `stride` over `in` padded by `pads`;
// 0 when the window does not fit. All operands are at most 2^24 (the reader's bound) except `in`.
size_t windows(size_t in, uint64_t pads, uint64_t kernel, uint64_t stride, uint64_t dilation) {
  const uint64_t padded = in + pads;
  const uint64_t effective = dilation * (kernel - 1) + 1;
  if (padded < effective) return 0;
  return static_cast<size_t>((padded - effective) / stride + 1);
}

absl::StatusOr<OutputDims> one(Dims d) { return OutputDims{std::move(d)}; }

absl::Status need4d(const Dims& d, const char* what) {
  if (d.size() != 4) return mismatch(sy::str("the ", what, " ", dimsString(d), " is not 4-D (NHWC)"));
  return absl::OkStatus();
}

absl::StatusOr<OutputDims> convolution(const XnnNode& n, const Dims& in, const Dims& filter, const Dims* bias) {
  const XnnNode::Window& w = n.window;
  if (auto s = need4d(in, "input"); !s.ok()) return s;
  if (auto s = need4d(filter, "filter"); !s.ok()) return s;
  const uint64_t groups = w.groups, gic = w.group_input_channels, goc = w.group_output_channels;
  uint64_t in_channels = groups * gic, out_channels = groups * goc;
  Dims expected_filter = {out_channels, w.kernel_h, w.kernel_w, gic};
  if (n.kind == NodeKind::DepthwiseConv2d) {
    if (goc % gic != 0) return mismatch(sy::str(goc, " output channels per group are not a multiple of ", gic));
    in_channels = groups;
    out_channels = groups * (goc / gic);
    expected_filter = {1, w.kernel_h, w.kernel_w, out_channels};
  }
  if (in[3] != in_channels) {
    return mismatch(sy::str("the input ", dimsString(in), " does not have ", in_channels, " channels"));
  }
  if (filter != expected_filter) {
    return mismatch(sy::str("the filter is ", dimsString(filter), ", expected ", dimsString(expected_filter)));
  }
  if (bias != nullptr && *bias != Dims{out_channels}) {
    return mismatch(sy::str("the bias is ", dimsString(*bias), ", expected [", out_channels, "]"));
  }
  size_t oh, ow;
  if (n.kind == NodeKind::ConvTranspose2d) {
    if (w.adjustment_h >= w.stride_h || w.adjustment_w >= w.stride_w) {
      return mismatch("an output adjustment that is not smaller than the stride");
    }
    const uint64_t full_h = uint64_t{w.stride_h} * (in[1] == 0 ? 0 : in[1] - 1) + w.adjustment_h +
                            uint64_t{w.dilation_h} * (w.kernel_h - 1) + 1;
    const uint64_t full_w = uint64_t{w.stride_w} * (in[2] == 0 ? 0 : in[2] - 1) + w.adjustment_w +
                            uint64_t{w.dilation_w} * (w.kernel_w - 1) + 1;
    if (in[1] == 0 || in[2] == 0 || full_h <= uint64_t{w.pad_top} + w.pad_bottom ||
        full_w <= uint64_t{w.pad_left} + w.pad_right) {
      return mismatch(sy::str("the padding leaves nothing of the input ", dimsString(in)));
    }
    oh = full_h - w.pad_top - w.pad_bottom;
    ow = full_w - w.pad_left - w.pad_right;
  } else {
    oh = windows(in[1], uint64_t{w.pad_top} + w.pad_bottom, w.kernel_h, w.stride_h, w.dilation_h);
    ow = windows(in[2], uint64_t{w.pad_left} + w.pad_right, w.kernel_w, w.stride_w, w.dilation_w);
    if (oh == 0 || ow == 0) return mismatch(sy::str("the window does not fit the input ", dimsString(in)));
  }
  return one({in[0], oh, ow, out_channels});
}

absl::StatusOr<OutputDims> pooling(const XnnNode& n, const Dims& in) {
  const XnnNode::Window& w = n.window;
  if (auto s = need4d(in, "input"); !s.ok()) return s;
  size_t oh, ow;
  if (n.kind == NodeKind::ArgMaxPooling2d) {
    oh = (in[1] + w.pad_top + w.pad_bottom) / w.kernel_h;
    ow = (in[2] + w.pad_left + w.pad_right) / w.kernel_w;
  } else {
    oh = windows(in[1], uint64_t{w.pad_top} + w.pad_bottom, w.kernel_h, w.stride_h, w.dilation_h);
    ow = windows(in[2], uint64_t{w.pad_left} + w.pad_right, w.kernel_w, w.stride_w, w.dilation_w);
  }
  if (oh == 0 || ow == 0) return mismatch(sy::str("the window does not fit the input ", dimsString(in)));
  Dims out = {in[0], oh, ow, in[3]};
  if (n.kind == NodeKind::ArgMaxPooling2d) return OutputDims{out, out};
  return one(out);
}

absl::StatusOr<OutputDims> fullyConnected(const XnnNode& n, const Dims& in, const Dims& filter, const Dims* bias) {
  if (filter.size() != 2) return mismatch(sy::str("the filter ", dimsString(filter), " is not 2-D"));
  const bool transposed = (n.flags & kFlagTransposeWeights) != 0;
  const size_t k = transposed ? filter[0] : filter[1], outputs = transposed ? filter[1] : filter[0];
  if (in.empty() || in.back() != k) {
    return mismatch(sy::str("the input ", dimsString(in), " does not end in the filter's ", k, " input channels"));
  }
  if (bias != nullptr && *bias != Dims{outputs}) {
    return mismatch(sy::str("the bias is ", dimsString(*bias), ", expected [", outputs, "]"));
  }
  Dims out = in;
  out.back() = outputs;
  return one(out);
}

absl::StatusOr<OutputDims> reshape(const XnnNode& n, const Dims& in) {
  Dims out = n.list_a;
  size_t known = 1, zeros = 0, zero_at = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      ++zeros, zero_at = i;
    } else if (__builtin_mul_overflow(known, out[i], &known)) {
      return mismatch(sy::str("the new shape ", dimsString(out), " is too large"));
    }
  }
  const size_t numel = numelOf(in);
  if (zeros > 1) return mismatch(sy::str("the new shape ", dimsString(out), " leaves more than one dimension to infer"));
  if (zeros == 1) {
    if (known == 0 || numel % known != 0) {
      return mismatch(sy::str(dimsString(in), " cannot be reshaped to ", dimsString(out)));
    }
    out[zero_at] = numel / known;
  } else if (known != numel) {
    return mismatch(sy::str(dimsString(in), " cannot be reshaped to ", dimsString(out)));
  }
  return one(out);
}

absl::StatusOr<OutputDims> concatenate(const XnnNode& n, absl::Span<const Dims* const> inputs) {
  const Dims& first = *inputs[0];
  if (n.axis >= first.size()) return mismatch(sy::str("axis ", n.axis, " of ", first.size(), "-D inputs"));
  Dims out = first;
  for (size_t i = 1; i < inputs.size(); ++i) {
    const Dims& d = *inputs[i];
    bool fits = d.size() == first.size();
    for (size_t k = 0; fits && k < d.size(); ++k) fits = k == n.axis || d[k] == first[k];
    if (!fits) return mismatch(sy::str("input ", i, " ", dimsString(d), " does not fit input 0 ", dimsString(first)));
    out[n.axis] += d[n.axis];
  }
  return one(out);
}

absl::StatusOr<OutputDims> attention(const Dims& q, const Dims& k, const Dims& v, const Dims& scale, const Dims& mask) {
  const size_t rank = q.size();
  if (rank != 3 && rank != 4) return mismatch(sy::str("the query ", dimsString(q), " is not 3-D or 4-D"));
  if (k.size() != rank || v.size() != rank) return mismatch("the query, key and value differ in rank");
  const size_t heads = q[rank - 3], t = q[rank - 2], c = q[rank - 1];
  const size_t kv_heads = k[rank - 3], u = k[rank - 2], d = v[rank - 1];
  const bool same_batch = rank == 3 || (k[0] == q[0] && v[0] == q[0]);
  if (!same_batch || (kv_heads != heads && kv_heads != 1) || v[rank - 3] != kv_heads || k[rank - 1] != c || v[rank - 2] != u) {
    return mismatch(sy::str("the key ", dimsString(k), " and value ", dimsString(v), " do not fit the query ", dimsString(q)));
  }
  if (scale != Dims{c}) return mismatch(sy::str("the scale is ", dimsString(scale), ", expected [", c, "]"));
  if (mask != Dims{t, u}) return mismatch(sy::str("the mask is ", dimsString(mask), ", expected [", t, ", ", u, "]"));
  Dims out = q;
  out[rank - 1] = d;
  return one(out);
}

}  // namespace

std::optional<Dims> broadcastDims(const Dims& a, const Dims& b) {
  const size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const size_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const size_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

absl::StatusOr<OutputDims> inferOutputDims(const XnnNode& n, absl::Span<const Dims* const> inputs) {
  const Dims& in = *inputs[0];
  if (isUnaryElementwise(n.kind)) return one(in);
  if (isBinaryElementwise(n.kind)) {
    std::optional<Dims> out = broadcastDims(in, *inputs[1]);
    if (!out) return mismatch(sy::str(dimsString(in), " and ", dimsString(*inputs[1]), " do not broadcast"));
    return one(*out);
  }
  switch (n.kind) {
    case NodeKind::FullyConnected: return fullyConnected(n, in, *inputs[1], inputs[2]);
    case NodeKind::Conv2d:
    case NodeKind::DepthwiseConv2d:
    case NodeKind::ConvTranspose2d: return convolution(n, in, *inputs[1], inputs[2]);
    case NodeKind::AvgPooling2d:
    case NodeKind::MaxPooling2d:
    case NodeKind::ArgMaxPooling2d: return pooling(n, in);
    case NodeKind::GlobalAvgPooling2d:
      if (auto s = need4d(in, "input"); !s.ok()) return s;
      return one({in[0], 1, 1, in[3]});
    case NodeKind::Softmax:
      if (in.empty()) return mismatch("softmax of a 0-D input");
      return one(in);
    case NodeKind::PReLU: {
      const size_t slopes = numelOf(*inputs[1]);
      if (in.empty() || inputs[1]->size() > 1 || (slopes != in.back() && slopes != 1)) {
        return mismatch(sy::str("the slope ", dimsString(*inputs[1]), " does not fit the input ", dimsString(in)));
      }
      return one(in);
    }
    case NodeKind::StaticTranspose: {
      Dims out(in.size());
      std::vector<bool> seen(in.size(), false);
      if (n.list_a.size() != in.size()) return mismatch(sy::str("perm ", dimsString(n.list_a), " for ", dimsString(in)));
      for (size_t i = 0; i < in.size(); ++i) {
        const size_t p = n.list_a[i];
        if (p >= in.size() || seen[p]) return mismatch(sy::str("perm ", dimsString(n.list_a), " is not a permutation"));
        seen[p] = true;
        out[i] = in[p];
      }
      return one(out);
    }
    case NodeKind::StaticReshape: return reshape(n, in);
    case NodeKind::StaticSlice: {
      if (n.list_a.size() != in.size() || n.list_b.size() != in.size()) {
        return mismatch(sy::str("offsets ", dimsString(n.list_a), " and sizes ", dimsString(n.list_b), " for ", dimsString(in)));
      }
      for (size_t i = 0; i < in.size(); ++i) {
        if (n.list_a[i] > in[i] || n.list_b[i] > in[i] - n.list_a[i]) {
          return mismatch(sy::str("offsets ", dimsString(n.list_a), " and sizes ", dimsString(n.list_b), " reach past ",
                                  dimsString(in)));
        }
      }
      return one(n.list_b);
    }
    case NodeKind::StaticConstantPad: {
      if (n.list_a.size() != in.size() || n.list_b.size() != in.size()) {
        return mismatch(sy::str("paddings ", dimsString(n.list_a), " and ", dimsString(n.list_b), " for ", dimsString(in)));
      }
      Dims out = in;
      for (size_t i = 0; i < in.size(); ++i) out[i] += n.list_a[i] + n.list_b[i];
      return one(out);
    }
    case NodeKind::StaticResizeBilinear2D:
      if (auto s = need4d(in, "input"); !s.ok()) return s;
      return one({in[0], n.new_height, n.new_width, in[3]});
    case NodeKind::Concatenate2:
    case NodeKind::Concatenate3:
    case NodeKind::Concatenate4:
    case NodeKind::Concatenate5: return concatenate(n, inputs);
    case NodeKind::BatchMatrixMultiply: {
      const Dims& b = *inputs[1];
      const bool transposed = (n.flags & kFlagTransposeWeights) != 0;
      const size_t rank = in.size();
      if (rank < 2 || b.size() != rank || !std::equal(in.begin(), in.end() - 2, b.begin())) {
        return mismatch(sy::str(dimsString(in), " and ", dimsString(b), " are not batches of matrices of one batch shape"));
      }
      const size_t k = transposed ? b[rank - 1] : b[rank - 2], cols = transposed ? b[rank - 2] : b[rank - 1];
      if (in[rank - 1] != k) return mismatch(sy::str(dimsString(in), " and ", dimsString(b), " do not multiply"));
      Dims out = in;
      out[rank - 1] = cols;
      return one(out);
    }
    case NodeKind::ScaledDotProductAttention: return attention(in, *inputs[1], *inputs[2], *inputs[3], *inputs[4]);
    default: break;
  }
  return mismatch("an unknown node kind");
}

}  // namespace sy::xnnpack
