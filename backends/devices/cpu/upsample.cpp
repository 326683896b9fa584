// aten::upsample_nearest2d.vec, upsample_bilinear2d.vec and _upsample_bilinear2d_aa (out= and
// functional forms) on the CPU: resizing the last two dimensions of an (N, C, H, W) input.
//
// Semantics, as PyTorch's (aten/src/ATen/native/UpSample.h, UpSampleKernel.cpp):
//   - the .vec forms take exactly one of output_size (two sizes) and scale_factors (two factors,
//     giving the sizes int(H * factor), int(W * factor)); given factors also set the source step
//     (1 / factor), else it is in / out. Only N may be 0; every other size must be positive.
//   - nearest: output (h, w) reads input (floor(h * step), floor(w * step)) in float, clamped to the
//     last row/column (out == in copies, out == 2 in halves the index). Copies bytes: every dtype.
//   - bilinear: source coordinate step * (i + 0.5) - 0.5 (at least 0), or (in - 1) / (out - 1) * i
//     with align_corners; the two neighbours weighted by distance.
//   - _upsample_bilinear2d_aa: the antialiased (PIL-like) form: each output averages the inputs
//     within max(step, 1) of its centre step * (i + 0.5), weighted by a triangle filter normalised to
//     1 (align_corners changes the step only).
//   - both bilinear forms take the dtypes of nn_ops.yaml (REALHBF16, ExecuTorch's); integral
//     samples are rounded to nearest (See Note [Interpolated integers are rounded to nearest] in
//     nn_kernels.h).
// The input is read dense; out is (N, C, out_h, out_w), of the input's dtype, computed in a
// temporary when it is not contiguous or shares the input's memory.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "absl/container/inlined_vector.h"
#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

struct UpsampleGeometry {
  int64_t batch_channels = 0;  // N * C planes
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  std::optional<double> scale_h, scale_w;  // the scale factors given, which set the step
};

// Checks the input and the requested size; errors name `op`.
UpsampleGeometry upsampleGeometry(const char* op, const Tensor& input, int64_t out_h, int64_t out_w) {
  SY_CHECK(input.dim() == 4, op, ": expected a 4-D input (N, C, H, W) but got one of shape ", formatSizes(input.sizes()));
  SY_CHECK(input.numel() != 0 || (input.size(1) != 0 && input.size(2) != 0 && input.size(3) != 0), op,
           ": Non-empty 4D data tensor expected but got a tensor with sizes ", formatSizes(input.sizes()));
  SY_CHECK(input.size(2) > 0 && input.size(3) > 0 && out_h > 0 && out_w > 0, op,
           ": Input and output sizes should be greater than 0, but got input (H: ", input.size(2), ", W: ", input.size(3),
           ") output (H: ", out_h, ", W: ", out_w, ")");
  UpsampleGeometry g;
  g.batch_channels = input.size(0) * input.size(1);
  g.in_h = input.size(2);
  g.in_w = input.size(3);
  g.out_h = out_h;
  g.out_w = out_w;
  return g;
}

// The .vec forms' output size: output_size itself, or the input's scaled by scale_factors.
UpsampleGeometry vecGeometry(const char* op, const Tensor& input, std::optional<IntArrayRef> output_size,
                             std::optional<absl::Span<const double>> scale_factors) {
  SY_CHECK(output_size.has_value() != scale_factors.has_value(), op,
           ": Must specify exactly one of output_size and scale_factors");
  SY_CHECK(input.dim() == 4, op, ": expected a 4-D input (N, C, H, W) but got one of shape ", formatSizes(input.sizes()));
  if (output_size.has_value()) {
    SY_CHECK(output_size->size() == 2, op, ": It is expected output_size equals to 2, but got size ", output_size->size());
    return upsampleGeometry(op, input, (*output_size)[0], (*output_size)[1]);
  }
  SY_CHECK(scale_factors->size() == 2, op, ": It is expected scale_factors equals to 2, but got size ",
           scale_factors->size());
  int64_t sizes[2];
  for (size_t d = 0; d < 2; ++d) {
    const double scaled = static_cast<double>(input.size(static_cast<int64_t>(d) + 2)) * (*scale_factors)[d];
    SY_CHECK(std::isfinite(scaled) && scaled < 4.0e18, op, ": scale factor ", (*scale_factors)[d],
             " gives no representable output size for an input of size ", input.size(static_cast<int64_t>(d) + 2));
    sizes[d] = static_cast<int64_t>(scaled);
  }
  UpsampleGeometry g = upsampleGeometry(op, input, sizes[0], sizes[1]);
  g.scale_h = (*scale_factors)[0];
  g.scale_w = (*scale_factors)[1];
  return g;
}

// PyTorch's compute_scales_value: 1 / the given factor when positive, else in / out.
template <class T>
T scaleStep(std::optional<double> scale, int64_t in, int64_t out) {
  return scale.has_value() && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
}
// PyTorch's area_pixel_compute_scale.
template <class T>
T areaStep(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scaleStep<T>(scale, in, out);
}

int64_t nearestSource(int64_t dst, int64_t in, int64_t out, std::optional<double> scale) {
  if (out == in) return dst;
  if (out == 2 * in) return dst >> 1;
  const float step = scaleStep<float>(scale, in, out);
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(dst) * step)), in - 1);
}

// The two source indices of output `dst` and the weight of the second.
template <class T>
void linearSource(int64_t dst, int64_t in, int64_t out, bool align_corners, T step, int64_t& i0, int64_t& i1, T& w1) {
  if (in == out) {
    i0 = i1 = dst;
    w1 = T(0);
    return;
  }
  T real = align_corners ? step * static_cast<T>(dst) : step * (static_cast<T>(dst) + T(0.5)) - T(0.5);
  if (real < T(0)) real = T(0);
  i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
  w1 = std::min(std::max(real - static_cast<T>(i0), T(0)), T(1));
  i1 = i0 + (i0 < in - 1 ? 1 : 0);
}

// The antialiasing weights of output `dst` over inputs [first, first + count), normalised to 1.
// `weights` has room for every input the filter reaches (the caller sizes it).
template <class T>
void aaWeights(int64_t dst, int64_t in, T step, T support, T* weights, int64_t& first, int64_t& count) {
  const T center = step * (static_cast<T>(dst) + T(0.5));
  const T invscale = step >= T(1) ? T(1) / step : T(1);
  // Clamped to [0, in] before the conversion, so that a huge step (a tiny scale factor given) stays defined.
  const T limit = static_cast<T>(in);
  first = static_cast<int64_t>(std::min(std::max(center - support + T(0.5), T(0)), limit));
  count = std::max(static_cast<int64_t>(std::min(std::max(center + support + T(0.5), T(0)), limit)) - first, int64_t{0});
  T total = 0;
  for (int64_t j = 0; j < count; ++j) {
    const T x = std::abs((static_cast<T>(j + first) - center + T(0.5)) * invscale);
    weights[j] = x < T(1) ? T(1) - x : T(0);
    total += weights[j];
  }
  for (int64_t j = 0; j < count; ++j) {
    if (total != T(0)) weights[j] /= total;
  }
}

// Allocates out for the functional form, checks its dtype, and runs fill(dst) on out itself or on a
// temporary copied into it.
template <class Fill>
Tensor& writeUpsampled(const char* op, const KernelContext& ctx, const Tensor& input, const UpsampleGeometry& g,
                       Tensor& out, Fill&& fill) {
  const SizesVector sizes{input.size(0), input.size(1), g.out_h, g.out_w};
  if (ctx.form == OutputForm::Functional) out = ops::empty(sizes, TensorOptions(input.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK_TYPE(out.scalar_type() == input.scalar_type(), op, ": expected 'out' to have the input's dtype ",
                input.scalar_type(), " but got ", out.scalar_type());
  const Tensor dense = nn_detail::contiguousCopyIfNeeded(op, "input", unaffectedByResizeOf(out, input));
  const bool staged = sameMemory(out, dense);
  if (!staged) resizeOutput(out, sizes);
  if (!staged && out.is_contiguous()) {
    fill(dense, out);
    return out;
  }
  Tensor result = scratchTensor(op, sizes, input.scalar_type());
  fill(dense, result);
  resizeOutput(out, sizes);
  checkNoInternalOverlap(op, out);
  copyIntoCPU(op, out, result, "out", "result");
  return out;
}

void checkUpsampleInput(const char* op, const Tensor& input, unsigned dtypes) {
  checkOnCPU(op, "input", input);
  checkDtypeSupported(op, "input", input.scalar_type(), dtypes);
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/nn_ops.yaml) ------------------------------

namespace native {

Tensor& upsample_nearest2d_vec_out_cpu(const Tensor& input, std::optional<IntArrayRef> output_size,
                                       std::optional<absl::Span<const double>> scale_factors, Tensor& out,
                                       const KernelContext& ctx) {
  const char* op = ctx.op;
  checkUpsampleInput(op, input, upsample_nearest2d_vec_out_cpu_dtypes);
  const UpsampleGeometry g = vecGeometry(op, input, output_size, scale_factors);
  return writeUpsampled(op, ctx, input, g, out, [&](const Tensor& src, const Tensor& dst) {
    const size_t item = src.element_size();
    const char* in = static_cast<const char*>(src.data_ptr());
    char* write = static_cast<char*>(dst.data_ptr());
    for (int64_t p = 0; p < g.batch_channels; ++p) {
      const char* plane = in + p * g.in_h * g.in_w * static_cast<int64_t>(item);
      for (int64_t h = 0; h < g.out_h; ++h) {
        const char* row = plane + nearestSource(h, g.in_h, g.out_h, g.scale_h) * g.in_w * static_cast<int64_t>(item);
        for (int64_t w = 0; w < g.out_w; ++w) {
          std::memcpy(write, row + nearestSource(w, g.in_w, g.out_w, g.scale_w) * static_cast<int64_t>(item), item);
          write += item;
        }
      }
    }
  });
}

Tensor& upsample_bilinear2d_vec_out_cpu(const Tensor& input, std::optional<IntArrayRef> output_size, bool align_corners,
                                        std::optional<absl::Span<const double>> scale_factors, Tensor& out,
                                        const KernelContext& ctx) {
  const char* op = ctx.op;
  constexpr unsigned kDtypes = upsample_bilinear2d_vec_out_cpu_dtypes;
  checkUpsampleInput(op, input, kDtypes);
  const UpsampleGeometry g = vecGeometry(op, input, output_size, scale_factors);
  return writeUpsampled(op, ctx, input, g, out, [&](const Tensor& src, const Tensor& dst) {
    dispatchDtype<kDtypes>(src.scalar_type(), op, "input", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = nn_detail::InterpolationType<T>;
      const A step_h = areaStep<A>(g.in_h, g.out_h, align_corners, g.scale_h);
      const A step_w = areaStep<A>(g.in_w, g.out_w, align_corners, g.scale_w);
      const T* in = src.data_ptr<T>();
      T* write = dst.data_ptr<T>();
      for (int64_t p = 0; p < g.batch_channels; ++p) {
        const T* plane = in + p * g.in_h * g.in_w;
        for (int64_t h = 0; h < g.out_h; ++h) {
          int64_t h0, h1;
          A lh1;
          linearSource<A>(h, g.in_h, g.out_h, align_corners, step_h, h0, h1, lh1);
          const A lh0 = A(1) - lh1;
          const T* r0 = plane + h0 * g.in_w;
          const T* r1 = plane + h1 * g.in_w;
          for (int64_t w = 0; w < g.out_w; ++w) {
            int64_t w0, w1;
            A lw1;
            linearSource<A>(w, g.in_w, g.out_w, align_corners, step_w, w0, w1, lw1);
            const A lw0 = A(1) - lw1;
            const A top = lw0 * static_cast<A>(r0[w0]) + lw1 * static_cast<A>(r0[w1]);
            const A bottom = lw0 * static_cast<A>(r1[w0]) + lw1 * static_cast<A>(r1[w1]);
            *write++ = nn_detail::storeInterpolated<T>(lh0 * top + lh1 * bottom);
          }
        }
      }
    });
  });
}

Tensor& _upsample_bilinear2d_aa_out_cpu(const Tensor& self, IntArrayRef output_size, bool align_corners,
                                        std::optional<double> scales_h, std::optional<double> scales_w, Tensor& out,
                                        const KernelContext& ctx) {
  const char* op = ctx.op;
  constexpr unsigned kDtypes = _upsample_bilinear2d_aa_out_cpu_dtypes;
  checkUpsampleInput(op, self, kDtypes);
  SY_CHECK(self.dim() == 4, op, ": expected a 4-D input (N, C, H, W) but got one of shape ", formatSizes(self.sizes()));
  SY_CHECK(output_size.size() == 2, op, ": It is expected output_size equals to 2, but got size ", output_size.size());
  UpsampleGeometry g = upsampleGeometry(op, self, output_size[0], output_size[1]);
  g.scale_h = scales_h;
  g.scale_w = scales_w;
  return writeUpsampled(op, ctx, self, g, out, [&](const Tensor& src, const Tensor& dst) {
    dispatchDtype<kDtypes>(src.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = nn_detail::InterpolationType<T>;
      const A step_h = areaStep<A>(g.in_h, g.out_h, align_corners, g.scale_h);
      const A step_w = areaStep<A>(g.in_w, g.out_w, align_corners, g.scale_w);
      const A support_h = step_h >= A(1) ? step_h : A(1);
      const A support_w = step_w >= A(1) ? step_w : A(1);
      // Each output reads at most 2 * support + 2 inputs of a dimension, and at most all of them: one
      // weight buffer per dimension, inline for a downscale of up to about 7.
      auto spanOf = [](A support, int64_t in) {
        return support * 2 + 2 >= static_cast<A>(in) ? in : static_cast<int64_t>(std::ceil(support)) * 2 + 2;
      };
      absl::InlinedVector<A, 16> weights_h(static_cast<size_t>(spanOf(support_h, g.in_h)));
      absl::InlinedVector<A, 16> weights_w(static_cast<size_t>(spanOf(support_w, g.in_w)));
      const T* in = src.data_ptr<T>();
      T* write = dst.data_ptr<T>();
      for (int64_t p = 0; p < g.batch_channels; ++p) {
        const T* plane = in + p * g.in_h * g.in_w;
        for (int64_t h = 0; h < g.out_h; ++h) {
          int64_t y0, ny;
          aaWeights<A>(h, g.in_h, step_h, support_h, weights_h.data(), y0, ny);
          for (int64_t w = 0; w < g.out_w; ++w) {
            int64_t x0, nx;
            aaWeights<A>(w, g.in_w, step_w, support_w, weights_w.data(), x0, nx);
            A sum = 0;
            for (int64_t y = 0; y < ny; ++y) {
              const T* row = plane + (y0 + y) * g.in_w + x0;
              A across = 0;
              for (int64_t x = 0; x < nx; ++x) across += weights_w[static_cast<size_t>(x)] * static_cast<A>(row[x]);
              sum += weights_h[static_cast<size_t>(y)] * across;
            }
            *write++ = nn_detail::storeInterpolated<T>(sum);
          }
        }
      }
    });
  });
}

}  // namespace native
}  // namespace sy::cpu
