// aten::_adaptive_avg_pool2d, aten::_adaptive_avg_pool2d.out and aten::adaptive_avg_pool2d.out on
// the CPU (aten::adaptive_avg_pool2d itself is the CompositeImplicit kernel at the end that calls
// _adaptive_avg_pool2d, the operator exported programs name), for floating inputs (Half and BFloat16 averaged in float) of shape
// (N, C, H, W) or unbatched (C, H, W); the result has self's dtype.
//
// Semantics, as PyTorch's: output_size is (out_h, out_w) or one value for both, each >= 0 (0 gives
// an empty result); output row o averages input rows [floor(o * H / out_h), ceil((o + 1) * H /
// out_h)), and the same for columns, so windows cover the whole input, may overlap when out_h does
// not divide H, and (out_h > H) repeat rows. out_h = out_w = 1 is global average pooling. The
// input needs non-zero C, H and W; the batch may be empty. Integral inputs are an error (PyTorch
// has no integral adaptive average pooling).

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::cpu {
namespace {

// Both adaptive_avg_pool2d entries run these loops, so they declare one set of dtypes.
constexpr unsigned kAdaptivePoolDtypes = native::_adaptive_avg_pool2d_out_cpu_dtypes;
static_assert(native::adaptive_avg_pool2d_out_cpu_dtypes == kAdaptivePoolDtypes,
              "_adaptive_avg_pool2d and adaptive_avg_pool2d declare the same dtypes: in nn_ops.yaml");

// The input rows (or columns) [begin, end) that output index o averages.
struct AdaptiveWindow {
  int64_t begin;
  int64_t end;
};

struct AdaptiveGeometry {
  bool unbatched = false;
  int64_t batch = 1, channels = 0, height = 0, width = 0, out_h = 0, out_w = 0;

  int64_t planes() const { return batch * channels; }
  SizesVector outputSizes() const {
    if (unbatched) return {channels, out_h, out_w};
    return {batch, channels, out_h, out_w};
  }
};

// The windows of one dimension. checkAdaptivePool2d has checked that out * in fits in int64_t, so
// neither product below overflows; (o + 1) * in >= 1 makes the end a ceiling division. They live in
// scratch memory while `holder` keeps it.
const AdaptiveWindow* adaptiveWindows(int64_t in, int64_t out, Tensor& holder) {
  AdaptiveWindow* windows = scratchArray<AdaptiveWindow>("adaptive_avg_pool2d", out, holder);
  for (int64_t o = 0; o < out; ++o) windows[o] = {o * in / out, ((o + 1) * in - 1) / out + 1};
  return windows;
}

AdaptiveGeometry checkAdaptivePool2d(const char* op, const Tensor& self, IntArrayRef output_size) {
  checkOnCPU(op, "self", self);
  AdaptiveGeometry g;
  std::tie(g.out_h, g.out_w) = nn_detail::heightWidthPair(op, "output_size", output_size);
  SY_CHECK(g.out_h >= 0 && g.out_w >= 0, op, ": expected the elements of 'output_size' to be non-negative but got (",
           g.out_h, ", ", g.out_w, ")");
  const bool shape_ok = (self.dim() == 3 || self.dim() == 4) && self.size(-3) != 0 && self.size(-2) != 0 &&
                        self.size(-1) != 0;
  SY_CHECK(shape_ok, op,
           ": expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with non-zero C, H and W but got size ",
           formatSizes(self.sizes()));
  if (!isFloatingType(self.scalar_type())) detail::throwUnsupportedDtype(op, "self", self.scalar_type(), kAdaptivePoolDtypes);
  g.unbatched = self.dim() == 3;
  g.batch = g.unbatched ? 1 : self.size(0);
  g.channels = self.size(-3);
  g.height = self.size(-2);
  g.width = self.size(-1);
  int64_t product = 0;
  SY_CHECK_VALUE(checkedMul(g.out_h, g.height, &product) && checkedMul(g.out_w, g.width, &product), op,
                 ": 'output_size' (", g.out_h, ", ", g.out_w, ") is too large for an input of ", g.height, " x ",
                 g.width);
  return g;
}

template <class T>
void adaptiveAvgPool(const AdaptiveGeometry& g, const T* input, T* out) {
  Tensor rows_holder, columns_holder;
  const AdaptiveWindow* rows = adaptiveWindows(g.height, g.out_h, rows_holder);
  const AdaptiveWindow* columns = adaptiveWindows(g.width, g.out_w, columns_holder);
  for (int64_t p = 0; p < g.planes(); ++p) {
    const T* plane = input + p * g.height * g.width;
    T* out_plane = out + p * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      const AdaptiveWindow r = rows[oh];
      for (int64_t ow = 0; ow < g.out_w; ++ow) {
        const AdaptiveWindow c = columns[ow];
        using Acc = compute_type_t<T>;
        Acc sum = 0;
        for (int64_t ih = r.begin; ih < r.end; ++ih) {
          const T* __restrict src = plane + ih * g.width;
          for (int64_t iw = c.begin; iw < c.end; ++iw) sum += static_cast<Acc>(src[iw]);
        }
        out_plane[oh * g.out_w + ow] = static_cast<T>(sum / static_cast<Acc>((r.end - r.begin) * (c.end - c.begin)));
      }
    }
  }
}

Tensor& adaptiveAvgPoolInto(const char* op, const AdaptiveGeometry& g, const Tensor& self, Tensor& out) {
  if (out.numel() == 0) return out;
  const Tensor input = nn_detail::contiguousCopyIfNeeded(op, "self", self);
  nn_detail::computeIntoDenseOutput(op, out, self.scalar_type(), {&self}, [&](const Tensor& dst) {
    dispatchDtype<kAdaptivePoolDtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      adaptiveAvgPool<T>(g, static_cast<const T*>(input.data_ptr()), static_cast<T*>(dst.data_ptr()));
    });
  });
  return out;
}

// The functional form's `out` arrives undefined and is allocated here.
Tensor& adaptiveAvgPoolOut(const KernelContext& ctx, const Tensor& self, IntArrayRef output_size, Tensor& out) {
  const char* op = ctx.op;
  const AdaptiveGeometry g = checkAdaptivePool2d(op, self, output_size);
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(g.outputSizes(), TensorOptions(self.scalar_type()).device(kCPU));
    return adaptiveAvgPoolInto(op, g, self, out);
  }
  checkOnCPU(op, "out", out);
  checkCanCastToOutput(op, self.scalar_type(), out);
  resizeOutput(out, g.outputSizes());
  checkNoInternalOverlap(op, out, "out");
  return adaptiveAvgPoolInto(op, g, self, out);
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

Tensor& _adaptive_avg_pool2d_out_cpu(const Tensor& self, IntArrayRef output_size, Tensor& out,
                                     const KernelContext& ctx) {
  return adaptiveAvgPoolOut(ctx, self, output_size, out);
}

Tensor& adaptive_avg_pool2d_out_cpu(const Tensor& self, IntArrayRef output_size, Tensor& out,
                                    const KernelContext& ctx) {
  return adaptiveAvgPoolOut(ctx, self, output_size, out);
}

}  // namespace native

namespace {

// aten::adaptive_avg_pool2d, CompositeImplicit: PyTorch's composite takes the mean over H and W for a
// 1x1 output; calling the primitive for every size keeps one operator (the one exported programs
// name) for adaptive pooling.
Tensor adaptiveAvgPool2dComposite(const Tensor& self, IntArrayRef output_size) {
  return ops::_adaptive_avg_pool2d(self, output_size);
}

}  // namespace
}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  m.impl("adaptive_avg_pool2d", SY_FN(sy::cpu::adaptiveAvgPool2dComposite));
}
