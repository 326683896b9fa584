// max_pool2d_with_indices_backward.grad_input (+ max_pool2d_with_indices_backward) on the CPU: the
// gradient of max_pool2d_with_indices with respect to its input. Each element of grad_output is
// added to the input position its index (from the forward's `indices`) names in its plane;
// every other position of grad_input is zero.
//
// Semantics (PyTorch's): self is the forward's (C, H, W) or (N, C, H, W) floating input (the
// dtypes of nn_ops.yaml, FLOATHBF16: Half and BFloat16 gradients are summed in float), which
// gives grad_input its shape and dtype; grad_output has self's dtype and, as `indices` (Long), the
// forward's output shape, which kernel_size, stride (empty: kernel_size), padding, dilation and
// ceil_mode determine as for max_pool2d. An index is a position in its H x W plane (h * W + w); -1
// is skipped, as PyTorch's CPU kernel does, and any other index outside the plane is an error, so
// a hostile `indices` cannot write outside grad_input. Gradients that meet at one position are
// summed in the order of their output positions.

#include <cstdint>
#include <optional>
#include <utility>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

constexpr unsigned kMaxPoolBackwardDtypes = native::max_pool2d_with_indices_backward_grad_input_cpu_dtypes;

using nn_detail::heightWidthPair;

// max_pool2d's output size along one dimension (pooling.cpp's rule), nullopt when the padded input
// or the dilated kernel overflows.
std::optional<int64_t> maxPoolBackwardOutputSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride,
                                                 int64_t dilation, bool ceil_mode) {
  int64_t padded = 0, reach = 0;
  if (!checkedMul(pad, 2, &padded) || !checkedAdd(in, padded, &padded) || !checkedMul(dilation, kernel - 1, &reach)) {
    return std::nullopt;
  }
  const int64_t span = padded - reach - 1;
  int64_t out = (ceil_mode ? nn_detail::ceilDiv(span, stride) : nn_detail::floorDiv(span, stride)) + 1;
  int64_t last_start = 0;
  if (ceil_mode && out > 1 && (!checkedMul(out - 1, stride, &last_start) || last_start >= in + pad)) --out;
  return out;
}

}  // namespace

namespace native {

Tensor& max_pool2d_with_indices_backward_grad_input_cpu(const Tensor& grad_output, const Tensor& self,
                                                        IntArrayRef kernel_size, IntArrayRef stride,
                                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                                        const Tensor& indices, Tensor& grad_input,
                                                        const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "grad_output", grad_output);
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "indices", indices);
  const auto [kernel_h, kernel_w] = heightWidthPair(op, "kernel_size", kernel_size);
  const auto [stride_h, stride_w] = heightWidthPair(op, "stride", stride, std::pair{kernel_h, kernel_w});
  const auto [pad_h, pad_w] = heightWidthPair(op, "padding", padding);
  const auto [dilation_h, dilation_w] = heightWidthPair(op, "dilation", dilation);
  SY_CHECK(kernel_h > 0 && kernel_w > 0 && stride_h > 0 && stride_w > 0 && dilation_h > 0 && dilation_w > 0, op,
           ": expected 'kernel_size', 'stride' and 'dilation' to be positive");
  SY_CHECK(pad_h >= 0 && pad_w >= 0 && pad_h <= kernel_h / 2 && pad_w <= kernel_w / 2, op,
           ": expected 'padding' to be non-negative and at most half of 'kernel_size'");
  SY_CHECK((self.dim() == 3 || self.dim() == 4) && self.size(-3) != 0 && self.size(-2) != 0 && self.size(-1) != 0, op,
           ": expected 'self' to be a 3-D (C, H, W) or 4-D (N, C, H, W) tensor with non-zero C, H and W but got size ",
           formatSizes(self.sizes()));
  checkDtypeSupported(op, "self", self.scalar_type(), kMaxPoolBackwardDtypes);
  SY_CHECK(grad_output.scalar_type() == self.scalar_type(), op, ": expected 'grad_output' to have self's dtype ",
           self.scalar_type(), " but got ", grad_output.scalar_type());
  SY_CHECK(indices.scalar_type() == ScalarType::Long, op, ": expected 'indices' to have dtype Long but got ",
           indices.scalar_type());
  const int64_t height = self.size(-2), width = self.size(-1);
  const std::optional<int64_t> out_h = maxPoolBackwardOutputSize(height, kernel_h, pad_h, stride_h, dilation_h, ceil_mode);
  const std::optional<int64_t> out_w = maxPoolBackwardOutputSize(width, kernel_w, pad_w, stride_w, dilation_w, ceil_mode);
  SY_CHECK_VALUE(out_h && out_w && *out_h > 0 && *out_w > 0, op, ": the pooling arguments give no output for an input of ",
                 height, " x ", width);
  SizesVector pooled(self.sizes().begin(), self.sizes().end());
  pooled[pooled.size() - 2] = *out_h;
  pooled[pooled.size() - 1] = *out_w;
  SY_CHECK(sameSizes(grad_output.sizes(), pooled), op, ": expected 'grad_output' of the pooling's output size ",
           formatSizes(pooled), " but got ", formatSizes(grad_output.sizes()));
  SY_CHECK(sameSizes(indices.sizes(), pooled), op, ": expected 'indices' of the pooling's output size ",
           formatSizes(pooled), " but got ", formatSizes(indices.sizes()));
  if (ctx.form == OutputForm::Functional) {
    grad_input = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "grad_input", grad_input);
    SY_CHECK(grad_input.scalar_type() == self.scalar_type(), op, ": expected 'grad_input' to have self's dtype ",
             self.scalar_type(), " but got ", grad_input.scalar_type());
  }
  const Tensor grads = nn_detail::contiguousCopyIfNeeded(op, "grad_output", unaffectedByResizeOf(grad_input, grad_output));
  const Tensor positions = nn_detail::contiguousCopyIfNeeded(op, "indices", unaffectedByResizeOf(grad_input, indices));
  const int64_t plane = height * width;
  const int64_t pooled_plane = *out_h * *out_w;
  const int64_t count = grads.numel();
  const int64_t* index = count == 0 ? nullptr : static_cast<const int64_t*>(positions.data_ptr());
  for (int64_t i = 0; i < count; ++i) {
    SY_CHECK_INDEX(index[i] >= -1 && index[i] < plane, op, ": invalid max index ", index[i], " at element ", i,
                   " of 'indices' for an input plane of ", height, " x ", width);
  }
  if (ctx.form != OutputForm::Functional) {
    resizeOutput(grad_input, self.sizes());
    checkNoInternalOverlap(op, grad_input, "grad_input");
  }
  nn_detail::computeIntoDenseOutput(op, grad_input, self.scalar_type(), {&grads, &positions}, [&](const Tensor& dst) {
    dispatchDtype<kMaxPoolBackwardDtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = compute_type_t<T>;
      T* g = static_cast<T*>(dst.data_ptr());
      const int64_t total = dst.numel();
      for (int64_t i = 0; i < total; ++i) g[i] = T(0);
      if (count == 0) return;
      // Read again: resizing grad_input may have moved the storage an aliased input shares.
      const T* go = static_cast<const T*>(grads.data_ptr());
      const int64_t* at = static_cast<const int64_t*>(positions.data_ptr());
      for (int64_t i = 0; i < count; ++i) {
        if (at[i] >= 0) {
          T& sum = g[(i / pooled_plane) * plane + at[i]];
          sum = static_cast<T>(static_cast<A>(sum) + static_cast<A>(go[i]));
        }
      }
    });
  });
  return grad_input;
}

}  // namespace native
}  // namespace sy::cpu
