// aten::grid_sampler_2d (out= and functional forms) on the CPU: samples an (N, C, H, W) input at
// the (x, y) locations of an (N, H_out, W_out, 2) grid, giving (N, C, H_out, W_out).
//
// Semantics, as PyTorch's (aten/src/ATen/native/GridSampler.h):
//   - grid values are normalised: -1 and 1 are the centres of the edge pixels with align_corners,
//     the outer edges of the edge pixels without; x indexes W, y indexes H.
//   - interpolation_mode 0 bilinear, 1 nearest (round half to even), 2 bicubic (A = -0.75);
//     padding_mode 0 zeros (outside reads 0), 1 border (coordinates clamped to the edge),
//     2 reflection (coordinates reflected at the edges, then clamped).
//   - input and grid have one dtype (nn_ops.yaml's REALHBF16, ExecuTorch's; an integral grid
//     holds whole normalised coordinates) and the same N; out has their dtype. Integral samples are
//     rounded to nearest (See Note [Interpolated integers are rounded to nearest] in nn_kernels.h).
// Inputs are read dense; out is computed in a temporary when it is not contiguous or shares memory
// with an input.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

enum class GridInterpolation : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class GridPadding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

template <class T>
T gridUnnormalize(T coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + 1) / 2 * static_cast<T>(size - 1) : ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <class T>
T gridClip(T coord, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(coord, T(0)));
}

// Reflects `coord` into [twice_low / 2, twice_high / 2] (bounds doubled so that half-integers are exact).
template <class T>
T gridReflect(T coord, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return T(0);
  const T low = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  coord = std::fabs(coord - low);
  const T extra = std::fmod(coord, span);
  const int64_t flips = static_cast<int64_t>(std::floor(coord / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

// The padding mode applied to an unnormalised coordinate.
template <class T>
T gridPad(T coord, int64_t size, GridPadding padding, bool align_corners) {
  if (padding == GridPadding::Border) return gridClip(coord, size);
  if (padding == GridPadding::Reflection) {
    coord = align_corners ? gridReflect(coord, 0, 2 * (size - 1)) : gridReflect(coord, -1, 2 * size - 1);
    return gridClip(coord, size);
  }
  return coord;
}

// A coordinate as an index (truncated, as PyTorch's); one far outside any tensor (NaN, infinities,
// huge values) as an index whose neighbours are out of bounds too.
template <class T>
int64_t gridIndex(T coord) {
  if (!(coord > T(-1.0e15) && coord < T(1.0e15))) return -(int64_t{1} << 40);
  return static_cast<int64_t>(coord);
}

template <class T>
T cubicNear(T x, T a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
template <class T>
T cubicFar(T x, T a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

template <class T>
T cubicInterp(T x0, T x1, T x2, T x3, T t) {
  const T a = T(-0.75);
  return x0 * cubicFar(t + 1, a) + x1 * cubicNear(t, a) + x2 * cubicNear(1 - t, a) + x3 * cubicFar(2 - t, a);
}

struct GridPlane {
  int64_t h, w;
};

// The element at (y, x) as the compute type A, or 0 outside the plane.
template <class A, class T>
A gridValue(const T* plane, GridPlane g, int64_t y, int64_t x) {
  return y >= 0 && y < g.h && x >= 0 && x < g.w ? static_cast<A>(plane[y * g.w + x]) : A(0);
}

template <class A, class T>
A sampleBilinear(const T* plane, GridPlane g, A ix, A iy) {
  const A fx = std::floor(ix), fy = std::floor(iy);
  const int64_t x0 = gridIndex(fx), y0 = gridIndex(fy);
  const A tx = ix - fx, ty = iy - fy;
  return gridValue<A>(plane, g, y0, x0) * (1 - tx) * (1 - ty) + gridValue<A>(plane, g, y0, x0 + 1) * tx * (1 - ty) +
         gridValue<A>(plane, g, y0 + 1, x0) * (1 - tx) * ty + gridValue<A>(plane, g, y0 + 1, x0 + 1) * tx * ty;
}

}  // namespace

// ---- The kernel (registered from backends/devices/cpu/nn_ops.yaml) -------------------------------

namespace native {

Tensor& grid_sampler_2d_out_cpu(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                                int64_t padding_mode, bool align_corners, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "input", input);
  checkOnCPU(op, "grid", grid);
  constexpr unsigned kDtypes = grid_sampler_2d_out_cpu_dtypes;
  checkDtypeSupported(op, "input", input.scalar_type(), kDtypes);
  SY_CHECK_TYPE(grid.scalar_type() == input.scalar_type(), op,
                ": grid_sampler(): expected input and grid to have same dtype, but input has ", input.scalar_type(),
                " and grid has ", grid.scalar_type());
  SY_CHECK(input.dim() == 4 && grid.dim() == 4, op,
           ": grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes ",
           formatSizes(input.sizes()), " and grid with sizes ", formatSizes(grid.sizes()));
  SY_CHECK(input.size(0) == grid.size(0), op,
           ": grid_sampler(): expected grid and input to have same batch size, but got input with sizes ",
           formatSizes(input.sizes()), " and grid with sizes ", formatSizes(grid.sizes()));
  SY_CHECK(grid.size(3) == 2, op, ": grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes ",
           formatSizes(grid.sizes()));
  SY_CHECK(input.size(2) > 0 && input.size(3) > 0, op,
           ": grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ",
           formatSizes(input.sizes()));
  SY_CHECK_VALUE(interpolation_mode >= 0 && interpolation_mode <= 2, op, ": interpolation_mode ", interpolation_mode,
                 " is not 0 (bilinear), 1 (nearest) or 2 (bicubic)");
  SY_CHECK_VALUE(padding_mode >= 0 && padding_mode <= 2, op, ": padding_mode ", padding_mode,
                 " is not 0 (zeros), 1 (border) or 2 (reflection)");
  const auto mode = static_cast<GridInterpolation>(interpolation_mode);
  const auto padding = static_cast<GridPadding>(padding_mode);
  const int64_t n_count = input.size(0), channels = input.size(1), out_h = grid.size(1), out_w = grid.size(2);
  const SizesVector sizes{n_count, channels, out_h, out_w};
  if (ctx.form == OutputForm::Functional) out = ops::empty(sizes, TensorOptions(input.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK_TYPE(out.scalar_type() == input.scalar_type(), op, ": expected 'out' to have the input's dtype ",
                input.scalar_type(), " but got ", out.scalar_type());
  const Tensor src = nn_detail::contiguousCopyIfNeeded(op, "input", unaffectedByResizeOf(out, input));
  const Tensor where = nn_detail::contiguousCopyIfNeeded(op, "grid", unaffectedByResizeOf(out, grid));
  const bool staged = sameMemory(out, src) || sameMemory(out, where);
  if (!staged) resizeOutput(out, sizes);
  const Tensor dst = !staged && out.is_contiguous() ? out : sy::empty(sizes, input.scalar_type());
  const GridPlane g{input.size(2), input.size(3)};
  dispatchDtype<kDtypes>(input.scalar_type(), op, "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = nn_detail::InterpolationType<T>;
    const T* in = src.data_ptr<T>();
    const T* xy = where.data_ptr<T>();
    T* write = dst.data_ptr<T>();
    const int64_t plane_size = g.h * g.w, out_plane = out_h * out_w;
    for (int64_t n = 0; n < n_count; ++n) {
      for (int64_t p = 0; p < out_plane; ++p) {
        const A x = static_cast<A>(xy[(n * out_plane + p) * 2]), y = static_cast<A>(xy[(n * out_plane + p) * 2 + 1]);
        for (int64_t c = 0; c < channels; ++c) {
          const T* plane = in + (n * channels + c) * plane_size;
          A value;
          if (mode == GridInterpolation::Bicubic) {
            const A ix = gridUnnormalize(x, g.w, align_corners), iy = gridUnnormalize(y, g.h, align_corners);
            const A fx = std::floor(ix), fy = std::floor(iy);
            const A tx = ix - fx, ty = iy - fy;
            auto at = [&](A yy, A xx) {
              const A px = gridPad(xx, g.w, padding, align_corners), py = gridPad(yy, g.h, padding, align_corners);
              return gridValue<A>(plane, g, gridIndex(py), gridIndex(px));
            };
            A rows[4];
            for (int j = 0; j < 4; ++j) {
              const A yy = fy - 1 + j;
              rows[j] = cubicInterp(at(yy, fx - 1), at(yy, fx), at(yy, fx + 1), at(yy, fx + 2), tx);
            }
            value = cubicInterp(rows[0], rows[1], rows[2], rows[3], ty);
          } else {
            const A ix = gridPad(gridUnnormalize(x, g.w, align_corners), g.w, padding, align_corners);
            const A iy = gridPad(gridUnnormalize(y, g.h, align_corners), g.h, padding, align_corners);
            if (mode == GridInterpolation::Bilinear) {
              value = sampleBilinear(plane, g, ix, iy);
            } else {
              value = gridValue<A>(plane, g, gridIndex(std::nearbyint(iy)), gridIndex(std::nearbyint(ix)));
            }
          }
          write[(n * channels + c) * out_plane + p] = nn_detail::storeInterpolated<T>(value);
        }
      }
    }
  });
  if (!dst.is_same(out)) {
    resizeOutput(out, sizes);
    checkNoInternalOverlap(op, out);
    copyIntoCPU(op, out, dst, "out", "result");
  }
  return out;
}

}  // namespace native
}  // namespace sy::cpu
