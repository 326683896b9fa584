// Host kernels of the node kinds with weights or windows (See xnnpack_host_kernels.h): fully
// connected and batch matrix multiply through the dispatcher, the NHWC convolutions, pooling,
// PReLU, bilinear resizing and attention as loops.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_host_kernels.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/core/error.h"
#include "switchyard/ops/linalg_ops.h"

namespace sy::xnnpack::host_internal {
namespace {

int64_t size(const Tensor& t, int64_t d) { return t.sizes()[static_cast<size_t>(d)]; }

// out[..., n] = sum_k in[..., k] * w(n, k) + bias[n], w a [N, K] filter or a transposed [K, N]
// one. A loop of its own: the portable linear makes views (and so allocates) on every call.
std::unique_ptr<HostKernel> fullyConnected(const XnnNode& node, const Tensor& in, const Tensor& filter, const Tensor& bias,
                                           const Tensor& out) {
  const int64_t k = size(in, in.dim() - 1), rows = k == 0 ? 0 : in.numel() / k, n = size(out, out.dim() - 1);
  const bool transposed = (node.flags & kFlagTransposeWeights) != 0;
  return kernel([node, in, filter, bias, out, k, rows, n, transposed] {
    const float* x = in.data_ptr<float>();
    const float* w = filter.data_ptr<float>();
    const float* b = bias.defined() ? bias.data_ptr<float>() : nullptr;
    float* y = out.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r) {
      const float* xr = x + r * k;
      for (int64_t j = 0; j < n; ++j) {
        float sum = b != nullptr ? b[j] : 0.0f;
        if (transposed) {
          for (int64_t t = 0; t < k; ++t) sum += xr[t] * w[t * n + j];
        } else {
          const float* wj = w + j * k;
          for (int64_t t = 0; t < k; ++t) sum += xr[t] * wj[t];
        }
        y[r * n + j] = sum;
      }
    }
    clampToOutputRange(node, out);
  });
}

struct ConvGeometry {
  int64_t batch, ih, iw, ic, oh, ow, oc, kh, kw;
  int64_t groups, gic, goc;  // input and output channels per group
};

// Convolution (grouped or depthwise) and transposed convolution over NHWC values; the filter is
// XNNPACK's [O, KH, KW, I/groups] ([1, KH, KW, C * M] for depthwise).
std::unique_ptr<HostKernel> convolution(const XnnNode& node, const Tensor& in, const Tensor& filter, const Tensor& bias,
                                        const Tensor& out) {
  const XnnNode::Window w = node.window;
  ConvGeometry g{size(in, 0), size(in, 1), size(in, 2), size(in, 3), size(out, 1), size(out, 2), size(out, 3),
                 w.kernel_h, w.kernel_w, w.groups, w.group_input_channels, w.group_output_channels};
  const bool depthwise = node.kind == NodeKind::DepthwiseConv2d;
  if (depthwise) g.gic = 1, g.goc = g.oc / g.groups;
  const bool transposed = node.kind == NodeKind::ConvTranspose2d;
  return kernel([node, w, g, depthwise, transposed, in, filter, bias, out] {
    const float* x = in.data_ptr<float>();
    const float* f = filter.data_ptr<float>();
    float* y = out.data_ptr<float>();
    const int64_t out_pixels = g.batch * g.oh * g.ow;
    for (int64_t p = 0; p < out_pixels; ++p) {
      for (int64_t c = 0; c < g.oc; ++c) y[p * g.oc + c] = bias.defined() ? bias.data_ptr<float>()[c] : 0.0f;
    }
    // The filter tap for output channel oc, kernel position (ky, kx) and input channel i of its group.
    auto tap = [&](int64_t oc, int64_t ky, int64_t kx, int64_t i) {
      return depthwise ? f[(ky * g.kw + kx) * g.oc + oc] : f[((oc * g.kh + ky) * g.kw + kx) * g.gic + i];
    };
    for (int64_t b = 0; b < g.batch; ++b) {
      for (int64_t iy = 0; iy < (transposed ? g.ih : g.oh); ++iy) {
        for (int64_t ix = 0; ix < (transposed ? g.iw : g.ow); ++ix) {
          for (int64_t ky = 0; ky < g.kh; ++ky) {
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              // Forward: (iy, ix) is the output pixel and (sy, sx) the input it reads; transposed:
              // (iy, ix) is the input pixel and (sy, sx) the output it adds to.
              const int64_t sy = iy * w.stride_h + ky * w.dilation_h - w.pad_top;
              const int64_t sx = ix * w.stride_w + kx * w.dilation_w - w.pad_left;
              if (sy < 0 || sx < 0 || sy >= (transposed ? g.oh : g.ih) || sx >= (transposed ? g.ow : g.iw)) continue;
              const float* xin = transposed ? x + ((b * g.ih + iy) * g.iw + ix) * g.ic : x + ((b * g.ih + sy) * g.iw + sx) * g.ic;
              float* yout = transposed ? y + ((b * g.oh + sy) * g.ow + sx) * g.oc : y + ((b * g.oh + iy) * g.ow + ix) * g.oc;
              for (int64_t oc = 0; oc < g.oc; ++oc) {
                const int64_t group = oc / g.goc;
                float sum = 0;
                for (int64_t i = 0; i < g.gic; ++i) sum += xin[group * g.gic + i] * tap(oc, ky, kx, i);
                yout[oc] += sum;
              }
            }
          }
        }
      }
    }
    clampToOutputRange(node, out);
  });
}

// Average, max and argmax pooling over NHWC; average pooling divides by the window's pixels inside
// the image (XNNPACK's rule), argmax writes each maximum's position within its window.
std::unique_ptr<HostKernel> pooling(const XnnNode& node, const Tensor& in, const Tensor& out, const Tensor& indices) {
  const XnnNode::Window w = node.window;
  return kernel([node, w, in, out, indices] {
    const int64_t batch = size(in, 0), ih = size(in, 1), iw = size(in, 2), c = size(in, 3);
    const int64_t oh = size(out, 1), ow = size(out, 2);
    const float* x = in.data_ptr<float>();
    float* y = out.data_ptr<float>();
    int32_t* index = indices.defined() ? indices.data_ptr<int32_t>() : nullptr;
    const bool average = node.kind == NodeKind::AvgPooling2d;
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t oy = 0; oy < oh; ++oy) {
        for (int64_t ox = 0; ox < ow; ++ox) {
          for (int64_t ch = 0; ch < c; ++ch) {
            float acc = average ? 0.0f : -std::numeric_limits<float>::infinity();
            int64_t count = 0, best = 0;
            for (int64_t ky = 0; ky < w.kernel_h; ++ky) {
              for (int64_t kx = 0; kx < w.kernel_w; ++kx) {
                const int64_t sy = oy * w.stride_h + ky * w.dilation_h - w.pad_top;
                const int64_t sx = ox * w.stride_w + kx * w.dilation_w - w.pad_left;
                if (sy < 0 || sx < 0 || sy >= ih || sx >= iw) continue;
                const float v = x[((b * ih + sy) * iw + sx) * c + ch];
                ++count;
                if (average) {
                  acc += v;
                } else if (v > acc || count == 1) {
                  acc = v, best = ky * w.kernel_w + kx;
                }
              }
            }
            const int64_t at = ((b * oh + oy) * ow + ox) * c + ch;
            y[at] = average ? (count == 0 ? 0.0f : acc / static_cast<float>(count)) : acc;
            if (index != nullptr) index[at] = static_cast<int32_t>(best);
          }
        }
      }
    }
    clampToOutputRange(node, out);
  });
}

std::unique_ptr<HostKernel> globalAveragePooling(const XnnNode& node, const Tensor& in, const Tensor& out) {
  return kernel([node, in, out] {
    const int64_t batch = size(in, 0), pixels = size(in, 1) * size(in, 2), c = size(in, 3);
    const float* x = in.data_ptr<float>();
    float* y = out.data_ptr<float>();
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        double sum = 0;
        for (int64_t p = 0; p < pixels; ++p) sum += x[(b * pixels + p) * c + ch];
        y[b * c + ch] = pixels == 0 ? 0.0f : static_cast<float>(sum / static_cast<double>(pixels));
      }
    }
    clampToOutputRange(node, out);
  });
}

std::unique_ptr<HostKernel> prelu(const Tensor& in, const Tensor& slope, const Tensor& out) {
  return kernel([in, slope, out] {
    const int64_t n = in.numel(), slopes = slope.numel();
    const float* x = in.data_ptr<float>();
    const float* s = slope.data_ptr<float>();
    float* y = out.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] >= 0 ? x[i] : x[i] * s[slopes == 1 ? 0 : i % slopes];
  });
}

// Bilinear resizing of NHWC images: half-pixel centres by default (PyTorch's align_corners=False),
// corner-aligned with XNN_FLAG_ALIGN_CORNERS, TensorFlow's legacy mapping with its flag.
std::unique_ptr<HostKernel> resizeBilinear(const XnnNode& node, const Tensor& in, const Tensor& out) {
  return kernel([node, in, out] {
    const int64_t batch = size(in, 0), ih = size(in, 1), iw = size(in, 2), c = size(in, 3);
    const int64_t oh = size(out, 1), ow = size(out, 2);
    const bool align = node.flags & kFlagAlignCorners, legacy = node.flags & kFlagTensorflowLegacy;
    auto source = [&](int64_t o, int64_t out_size, int64_t in_size) {
      if (align) return out_size > 1 ? static_cast<float>(o) * (in_size - 1) / (out_size - 1) : 0.0f;
      const float scale = static_cast<float>(in_size) / static_cast<float>(out_size);
      const float s = legacy ? o * scale : (o + 0.5f) * scale - 0.5f;
      return std::max(s, 0.0f);
    };
    const float* x = in.data_ptr<float>();
    float* y = out.data_ptr<float>();
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t oy = 0; oy < oh; ++oy) {
        const float fy = source(oy, oh, ih);
        const int64_t y0 = std::min<int64_t>(static_cast<int64_t>(fy), ih - 1), y1 = std::min<int64_t>(y0 + 1, ih - 1);
        const float dy = fy - static_cast<float>(y0);
        for (int64_t ox = 0; ox < ow; ++ox) {
          const float fx = source(ox, ow, iw);
          const int64_t x0 = std::min<int64_t>(static_cast<int64_t>(fx), iw - 1), x1 = std::min<int64_t>(x0 + 1, iw - 1);
          const float dx = fx - static_cast<float>(x0);
          for (int64_t ch = 0; ch < c; ++ch) {
            auto at = [&](int64_t yy, int64_t xx) { return x[((b * ih + yy) * iw + xx) * c + ch]; };
            const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * dx;
            const float bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * dx;
            y[((b * oh + oy) * ow + ox) * c + ch] = top + (bottom - top) * dy;
          }
        }
      }
    }
  });
}

std::unique_ptr<HostKernel> batchMatrixMultiply(const XnnNode& node, const Tensor& a, const Tensor& b, const Tensor& out) {
  const int64_t rank = a.dim(), m = size(a, rank - 2), k = size(a, rank - 1);
  const int64_t n = size(out, rank - 1), batch = m * k == 0 ? 0 : a.numel() / (m * k);
  const bool transposed = node.flags & kFlagTransposeWeights;
  if (!transposed) {
    auto view3 = [](const Tensor& t, int64_t bt, int64_t r, int64_t c) {
      return tensorOver(t.data_ptr<float>(), {static_cast<size_t>(bt), static_cast<size_t>(r), static_cast<size_t>(c)});
    };
    const Tensor a3 = view3(a, batch, m, k), b3 = view3(b, batch, k, n);
    Tensor out3 = view3(out, batch, m, n);
    return kernel([a3, b3, out3]() mutable { ops::bmm_out(out3, a3, b3); });
  }
  return kernel([a, b, out, batch, m, k, n] {
    const float* x = a.data_ptr<float>();
    const float* bt = b.data_ptr<float>();
    float* y = out.data_ptr<float>();
    for (int64_t p = 0; p < batch; ++p) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          float sum = 0;
          for (int64_t t = 0; t < k; ++t) sum += x[(p * m + i) * k + t] * bt[(p * n + j) * k + t];
          y[(p * m + i) * n + j] = sum;
        }
      }
    }
  });
}

// softmax((query * scale) key^T + mask) value per head; a key and value with one head serve all.
std::unique_ptr<HostKernel> attention(const std::vector<Tensor>& in, const Tensor& out) {
  const Tensor q = in[0], key = in[1], value = in[2], scale = in[3], mask = in[4];
  const int64_t rank = q.dim(), heads = size(q, rank - 3), t = size(q, rank - 2), c = size(q, rank - 1);
  const int64_t kv_heads = size(key, rank - 3), u = size(key, rank - 2), d = size(value, rank - 1);
  const int64_t batch = rank == 4 ? size(q, 0) : 1;
  auto scores = std::make_shared<std::vector<float>>(static_cast<size_t>(u));
  return kernel([=] {
    const float *qp = q.data_ptr<float>(), *kp = key.data_ptr<float>(), *vp = value.data_ptr<float>();
    const float *sp = scale.data_ptr<float>(), *mp = mask.data_ptr<float>();
    float* y = out.data_ptr<float>();
    float* s = scores->data();
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t kh = kv_heads == 1 ? 0 : h;
        const float* kb = kp + (b * kv_heads + kh) * u * c;
        const float* vb = vp + (b * kv_heads + kh) * u * d;
        for (int64_t i = 0; i < t; ++i) {
          const float* qi = qp + ((b * heads + h) * t + i) * c;
          float top = -std::numeric_limits<float>::infinity();
          for (int64_t j = 0; j < u; ++j) {
            float dot = 0;
            for (int64_t e = 0; e < c; ++e) dot += qi[e] * sp[e] * kb[j * c + e];
            s[j] = dot + mp[i * u + j];
            top = std::max(top, s[j]);
          }
          float total = 0;
          for (int64_t j = 0; j < u; ++j) total += (s[j] = std::exp(s[j] - top));
          float* yi = y + ((b * heads + h) * t + i) * d;
          for (int64_t e = 0; e < d; ++e) {
            float acc = 0;
            for (int64_t j = 0; j < u; ++j) acc += s[j] * vb[j * d + e];
            yi[e] = acc / total;
          }
        }
      }
    }
  });
}

}  // namespace

std::unique_ptr<HostKernel> makeNnKernel(const XnnNode& n, std::vector<Tensor>& in, std::vector<Tensor>& out) {
  switch (n.kind) {
    case NodeKind::FullyConnected: return fullyConnected(n, in[0], in[1], in[2], out[0]);
    case NodeKind::Conv2d:
    case NodeKind::DepthwiseConv2d:
    case NodeKind::ConvTranspose2d: return convolution(n, in[0], in[1], in[2], out[0]);
    case NodeKind::AvgPooling2d:
    case NodeKind::MaxPooling2d: return pooling(n, in[0], out[0], Tensor());
    case NodeKind::ArgMaxPooling2d: return pooling(n, in[0], out[0], out[1]);
    case NodeKind::GlobalAvgPooling2d: return globalAveragePooling(n, in[0], out[0]);
    case NodeKind::PReLU: return prelu(in[0], in[1], out[0]);
    case NodeKind::StaticResizeBilinear2D: return resizeBilinear(n, in[0], out[0]);
    case NodeKind::BatchMatrixMultiply: return batchMatrixMultiply(n, in[0], in[1], out[0]);
    case NodeKind::ScaledDotProductAttention: return attention(in, out[0]);
    default: return nullptr;
  }
}

}  // namespace sy::xnnpack::host_internal

namespace sy::xnnpack {

absl::StatusOr<std::unique_ptr<HostKernel>> makeHostKernel(const XnnNode& node, std::vector<Tensor> in,
                                                           std::vector<Tensor> out) {
  if (std::unique_ptr<HostKernel> k = host_internal::makeNnKernel(node, in, out)) return k;
  if (std::unique_ptr<HostKernel> k = host_internal::makeElementwiseKernel(node, in, out)) return k;
  return absl::UnimplementedError(sy::str("no host kernel for ", nodeKindName(node.kind)));
}

}  // namespace sy::xnnpack
