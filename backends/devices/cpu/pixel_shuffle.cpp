// aten::pixel_shuffle and aten::pixel_unshuffle on the CPU, for every dtype (they only move
// elements).
//
// Semantics, as PyTorch's: pixel_shuffle(self, r) takes self (*, C * r * r, H, W) to
// (*, C, H * r, W * r), output[..., c, h * r + i, w * r + j] = self[..., (c * r + i) * r + j, h, w];
// pixel_unshuffle(self, r) is its inverse, (*, C, H * r, W * r) to (*, C * r * r, H, W). self has
// at least 3 dimensions, r is positive, and C * r * r (shuffle) or H and W (unshuffle) must divide.
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// The dtypes of nn_ops.yaml's pixel_shuffle and pixel_unshuffle entries (ALL: elements only move).
constexpr unsigned kPixelShuffleDtypes = native::pixel_shuffle_out_cpu_dtypes;
static_assert(native::pixel_unshuffle_out_cpu_dtypes == kPixelShuffleDtypes,
              "pixel_shuffle and pixel_unshuffle share one kernel: their YAML entries declare one dtype set");

// The small image (*, C * r * r, H, W) and the large one (*, C, H * r, W * r) of one call.
struct PixelShuffleShape {
  int64_t batch = 1, channels = 0, height = 0, width = 0, factor = 1;  // channels, height, width: the small image's
};

// Moves elements between the small and the large image: `to_large` is pixel_shuffle.
template <class T>
void pixelShuffleMove(const PixelShuffleShape& s, const T* in, T* out, bool to_large) {
  const int64_t r = s.factor, c_out = s.channels / (r * r);
  const int64_t plane = s.height * s.width;
  const int64_t large_w = s.width * r;
  for (int64_t n = 0; n < s.batch; ++n) {
    const int64_t base = n * s.channels * plane;
    for (int64_t c = 0; c < c_out; ++c) {
      for (int64_t i = 0; i < r; ++i) {
        for (int64_t j = 0; j < r; ++j) {
          const int64_t small_channel = (c * r + i) * r + j;
          for (int64_t h = 0; h < s.height; ++h) {
            const int64_t small_row = base + small_channel * plane + h * s.width;
            const int64_t large_row = base + c * plane * r * r + (h * r + i) * large_w + j;
            for (int64_t w = 0; w < s.width; ++w) {
              if (to_large) {
                out[large_row + w * r] = in[small_row + w];
              } else {
                out[small_row + w] = in[large_row + w * r];
              }
            }
          }
        }
      }
    }
  }
}

Tensor& pixelShuffleInto(const char* op, OutputForm form, const Tensor& self, int64_t factor, bool to_large,
                         Tensor& out) {
  const char* factor_name = to_large ? "upscale_factor" : "downscale_factor";
  checkOnCPU(op, "self", self);
  SY_CHECK(self.dim() >= 3, op, ": expected 'self' to have at least 3 dimensions (*, C, H, W) but got a ",
           self.dim(), "-D tensor");
  SY_CHECK(factor > 0, op, ": expected '", factor_name, "' to be positive but got ", factor);
  const int64_t nd = self.dim();
  int64_t square = 0;
  SY_CHECK_VALUE(checkedMul(factor, factor, &square), op, ": '", factor_name, "' (", factor,
                 ") squared overflows 64-bit sizes");
  PixelShuffleShape s;
  s.factor = factor;
  for (int64_t d = 0; d < nd - 3; ++d) s.batch *= self.size(d);
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  if (to_large) {
    SY_CHECK(self.size(nd - 3) % square == 0, op, ": expected the channels of 'self' (", self.size(nd - 3),
             ") to be divisible by upscale_factor squared (", square, ")");
    s.channels = self.size(nd - 3);
    s.height = self.size(nd - 2);
    s.width = self.size(nd - 1);
    sizes[nd - 3] /= square;
    SY_CHECK_VALUE(checkedMul(s.height, factor, &sizes[nd - 2]) && checkedMul(s.width, factor, &sizes[nd - 1]), op,
                   ": the output size overflows 64-bit sizes");
  } else {
    SY_CHECK(self.size(nd - 2) % factor == 0 && self.size(nd - 1) % factor == 0, op,
             ": expected the height and width of 'self' (", self.size(nd - 2), ", ", self.size(nd - 1),
             ") to be divisible by downscale_factor (", factor, ")");
    SY_CHECK_VALUE(checkedMul(self.size(nd - 3), square, &s.channels), op, ": the output size overflows 64-bit sizes");
    s.height = self.size(nd - 2) / factor;
    s.width = self.size(nd - 1) / factor;
    sizes[nd - 3] = s.channels;
    sizes[nd - 2] = s.height;
    sizes[nd - 1] = s.width;
  }
  checkDtypeSupported(op, "self", self.scalar_type(), kPixelShuffleDtypes);
  if (form == OutputForm::Functional) {
    out = ops::empty(sizes, TensorOptions(self.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
    checkCanCastToOutput(op, self.scalar_type(), out);
    resizeOutput(out, sizes);
    checkNoInternalOverlap(op, out, "out");
  }
  if (out.numel() == 0) return out;
  const Tensor dense = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self}, [&](const Tensor& dst) {
    // Elements move whole: one loop per element width serves every dtype.
    visitElementWidth(self.element_size(), [&](auto width) {
      using W = decltype(width);
      pixelShuffleMove<W>(s, static_cast<const W*>(dense.data_ptr()), static_cast<W*>(dst.data_ptr()), to_large);
    });
  });
  return out;
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

Tensor& pixel_shuffle_out_cpu(const Tensor& self, int64_t upscale_factor, Tensor& out, const KernelContext& ctx) {
  return pixelShuffleInto(ctx.op, ctx.form, self, upscale_factor, /*to_large=*/true, out);
}

Tensor& pixel_unshuffle_out_cpu(const Tensor& self, int64_t downscale_factor, Tensor& out, const KernelContext& ctx) {
  return pixelShuffleInto(ctx.op, ctx.form, self, downscale_factor, /*to_large=*/false, out);
}

}  // namespace native
}  // namespace sy::cpu
