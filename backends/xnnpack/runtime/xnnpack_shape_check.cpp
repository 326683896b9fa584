#include "switchyard/backends/xnnpack/runtime/xnnpack_shape_check.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sy::xnnpack {
namespace {

std::string str(const SyxnDims& d) { return absl::StrCat("[", absl::StrJoin(d, ", "), "]"); }

// The output extent of a window of `kernel` (dilated) sliding with `stride` over `in` padded by
// `pad_a` + `pad_b`; 0 when the window does not fit.
size_t windows(size_t in, uint64_t pad_a, uint64_t pad_b, uint64_t kernel, uint64_t stride, uint64_t dilation) {
  if (kernel == 0 || stride == 0 || dilation == 0) return 0;
  const uint64_t padded = in + pad_a + pad_b;
  const uint64_t effective = dilation * (kernel - 1) + 1;
  if (padded < effective) return 0;
  return static_cast<size_t>((padded - effective) / stride + 1);
}

std::string expect(const SyxnDims& output, const SyxnDims& expected) {
  return output == expected ? "" : absl::StrCat("the output is ", str(output), ", expected ", str(expected));
}

// The window nodes: input [N, H, W, C]; params start with pads top, right, bottom, left, then
// kernel h, w, stride h, w, dilation h, w (1, 1 when `dilated` is false).
std::string windowed(const SyxnDims& in, const std::vector<uint64_t>& p, bool dilated, size_t out_channels,
                     const SyxnDims& output) {
  if (in.size() != 4) return absl::StrCat("the input ", str(in), " is not 4-D");
  const uint64_t dh = dilated ? p[8] : 1, dw = dilated ? p[9] : 1;
  const size_t oh = windows(in[1], p[0], p[2], p[4], p[6], dh), ow = windows(in[2], p[3], p[1], p[5], p[7], dw);
  if (oh == 0 || ow == 0) return absl::StrCat("the window does not fit the input ", str(in));
  return expect(output, {in[0], oh, ow, out_channels});
}

}  // namespace

std::string shapeMismatch(syxn::NodeKind kind, const std::vector<SyxnDims>& inputs, bool has_bias,
                          const std::vector<uint64_t>& p, const SyxnDims& output) {
  switch (kind) {
    case syxn::NodeKind::Convolution2d: {
      const uint64_t groups = p[10], gic = p[11], goc = p[12];
      const SyxnDims& in = inputs[0];
      if (groups == 0 || gic == 0 || goc == 0 || in.size() != 4 || in[3] != groups * gic) {
        return absl::StrCat("the input ", str(in), " does not have ", groups, " groups of ", gic, " channels");
      }
      if (inputs[1] != SyxnDims{groups * goc, p[4], p[5], gic}) return absl::StrCat("the filter is ", str(inputs[1]));
      if (has_bias && inputs[2] != SyxnDims{groups * goc}) return absl::StrCat("the bias is ", str(inputs[2]));
      return windowed(in, p, true, groups * goc, output);
    }
    case syxn::NodeKind::DepthwiseConvolution2d: {
      const uint64_t multiplier = p[10], channels = p[11];
      const SyxnDims& in = inputs[0];
      if (multiplier == 0 || in.size() != 4 || in[3] != channels) {
        return absl::StrCat("the input ", str(in), " does not have ", channels, " channels");
      }
      if (inputs[1] != SyxnDims{1, p[4], p[5], channels * multiplier}) return absl::StrCat("the filter is ", str(inputs[1]));
      if (has_bias && inputs[2] != SyxnDims{channels * multiplier}) return absl::StrCat("the bias is ", str(inputs[2]));
      return windowed(in, p, true, channels * multiplier, output);
    }
    case syxn::NodeKind::FullyConnected: {
      const SyxnDims& in = inputs[0];
      const SyxnDims& w = inputs[1];
      if (w.size() != 2 || in.empty() || in.back() != w[1]) {
        return absl::StrCat("the input ", str(in), " does not fit the filter ", str(w));
      }
      if (has_bias && inputs[2] != SyxnDims{w[0]}) return absl::StrCat("the bias is ", str(inputs[2]));
      SyxnDims expected = in;
      expected.back() = w[0];
      return expect(output, expected);
    }
    case syxn::NodeKind::Add:
    case syxn::NodeKind::Subtract:
    case syxn::NodeKind::Multiply:
    case syxn::NodeKind::Divide: {
      const SyxnDims &a = inputs[0], &b = inputs[1];
      const size_t rank = std::max(a.size(), b.size());
      SyxnDims expected(rank);
      for (size_t i = 0; i < rank; ++i) {
        const size_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const size_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (x != y && x != 1 && y != 1) return absl::StrCat(str(a), " and ", str(b), " do not broadcast");
        expected[i] = x == 1 ? y : x;
      }
      return expect(output, expected);
    }
    case syxn::NodeKind::Softmax:
      if (inputs[0].empty()) return "a 0-D input";
      [[fallthrough]];
    case syxn::NodeKind::Clamp:
    case syxn::NodeKind::Sigmoid: return expect(output, inputs[0]);
    case syxn::NodeKind::MaxPooling2d:
    case syxn::NodeKind::AveragePooling2d: {
      const SyxnDims& in = inputs[0];
      if (in.size() != 4) return absl::StrCat("the input ", str(in), " is not 4-D");
      return windowed(in, p, kind == syxn::NodeKind::MaxPooling2d, in[3], output);
    }
    case syxn::NodeKind::GlobalAveragePooling2d: {
      const SyxnDims& in = inputs[0];
      if (in.size() != 4) return absl::StrCat("the input ", str(in), " is not 4-D");
      return expect(output, {in[0], 1, 1, in[3]});
    }
    case syxn::NodeKind::StaticReshape: {
      size_t a = 1, b = 1;
      for (size_t d : inputs[0]) a *= d;
      for (size_t d : output) b *= d;
      if (a != b) return absl::StrCat("reshapes ", str(inputs[0]), " to ", str(output));
      return expect(output, SyxnDims(p.begin(), p.end()));
    }
  }
  return "an unknown node kind";
}

}  // namespace sy::xnnpack
