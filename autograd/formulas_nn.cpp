// Backward formulas of convolution (conv2d is CompositeImplicit and reaches it) and of 2-D max
// pooling, written with the library's own operators: for each kernel offset (kh, kw), the input
// positions that offset reads form a strided slice of the (padded) input, so
//   d weight[:, :, kh, kw] = grad (as C_out x positions) @ that slice (as positions x C_in),
//   d input[that slice]   += weight[:, :, kh, kw]^T applied to grad,
// and max pooling sends each output's gradient to the one position of its window that its index
// (from max_pool2d_with_indices) names.
#include <utility>
#include <vector>

#include "switchyard/autograd/formula.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/nn_ops.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::autograd {
namespace {

// (h, w) of an int[2] argument given as one or two values; `fallback` for an empty list.
std::pair<int64_t, int64_t> hw(IntArrayRef v, std::pair<int64_t, int64_t> fallback) {
  if (v.empty()) return fallback;
  return {v[0], v.size() > 1 ? v[1] : v[0]};
}

// The elements start, start + step, ... (count of them) along `dim`.
Tensor strided(const Tensor& t, int64_t dim, int64_t start, int64_t step, int64_t count) {
  return ops::slice(t, dim, start, start + step * (count - 1) + 1, step);
}

// A 4-D view of t's window positions for kernel offset (kh, kw): (N, C, out_h, out_w).
struct Window {
  int64_t stride_h, stride_w, dilation_h, dilation_w, out_h, out_w;
  Tensor of(const Tensor& padded, int64_t kh, int64_t kw) const {
    return strided(strided(padded, 2, kh * dilation_h, stride_h, out_h), 3, kw * dilation_w, stride_w, out_w);
  }
};

Tensor zerosLike(IntArrayRef sizes, const Tensor& like) {
  return ops::zeros(sizes, TensorOptions(like.scalar_type()).device(like.device()));
}

// The (N, C, H, W) input zero-padded by (pad_h, pad_w) on each side.
Tensor padded(const Tensor& input, int64_t pad_h, int64_t pad_w) {
  if (pad_h == 0 && pad_w == 0) return input;
  Tensor out = zerosLike({input.size(0), input.size(1), input.size(2) + 2 * pad_h, input.size(3) + 2 * pad_w}, input);
  Tensor interior = ops::slice(ops::slice(out, 2, pad_h, pad_h + input.size(2)), 3, pad_w, pad_w + input.size(3));
  ops::copy_(interior, input);
  return out;
}

// The (N, C, H, W) part of a padded gradient buffer that the unpadded input covers.
Tensor unpadded(const Tensor& buffer, int64_t pad_h, int64_t pad_w, int64_t height, int64_t width) {
  return ops::contiguous(ops::slice(ops::slice(buffer, 2, pad_h, pad_h + height), 3, pad_w, pad_w + width));
}

void convolutionBackward(BackwardContext& ctx) {
  SY_CHECK(!ctx.arg("transposed").toBool(), "transposed convolution has no backward formula");
  const bool unbatched = ctx.sizes("input").size() == 3;
  Tensor input = ctx.saved("input"), weight = ctx.saved("weight"), grad = ctx.grad();
  if (unbatched) {
    input = ops::unsqueeze(input, 0);
    grad = ops::unsqueeze(grad, 0);
  }
  const auto [stride_h, stride_w] = hw(ctx.arg("stride").toIntList(), {1, 1});
  const auto [pad_h, pad_w] = hw(ctx.arg("padding").toIntList(), {0, 0});
  const auto [dilation_h, dilation_w] = hw(ctx.arg("dilation").toIntList(), {1, 1});
  const int64_t groups = ctx.arg("groups").toInt();
  const int64_t batch = input.size(0), height = input.size(2), width = input.size(3);
  const int64_t out_channels = weight.size(0), in_per_group = weight.size(1);
  const int64_t out_per_group = out_channels / groups, kernel_h = weight.size(2), kernel_w = weight.size(3);
  const Window window{stride_h, stride_w, dilation_h, dilation_w, grad.size(2), grad.size(3)};
  const int64_t positions = batch * window.out_h * window.out_w;

  const bool want_input = ctx.needsGrad("input"), want_weight = ctx.needsGrad("weight");
  const Tensor input_padded = want_weight ? padded(input, pad_h, pad_w) : Tensor();
  Tensor grad_weight = want_weight ? zerosLike(weight.sizes(), weight) : Tensor();
  Tensor grad_input_padded =
      want_input ? zerosLike({batch, input.size(1), height + 2 * pad_h, width + 2 * pad_w}, input) : Tensor();
  for (int64_t g = 0; g < groups; ++g) {
    const Tensor grad_g = ops::slice(grad, 1, g * out_per_group, (g + 1) * out_per_group);
    // (C_out/g, positions) and (positions, C_out/g) views of this group's gradient.
    const Tensor grad_rows = ops::reshape(ops::permute(grad_g, {1, 0, 2, 3}), {out_per_group, positions});
    const Tensor grad_cols = ops::transpose(grad_rows, 0, 1);
    for (int64_t kh = 0; kh < kernel_h; ++kh) {
      for (int64_t kw = 0; kw < kernel_w; ++kw) {
        if (want_weight) {
          const Tensor taps = ops::slice(window.of(input_padded, kh, kw), 1, g * in_per_group, (g + 1) * in_per_group);
          const Tensor taps_rows = ops::reshape(ops::permute(taps, {0, 2, 3, 1}), {positions, in_per_group});
          Tensor slot = ops::select(ops::select(ops::slice(grad_weight, 0, g * out_per_group, (g + 1) * out_per_group), 3, kw), 2, kh);
          ops::copy_(slot, ops::mm(grad_rows, taps_rows));
        }
        if (want_input) {
          const Tensor w = ops::select(ops::select(ops::slice(weight, 0, g * out_per_group, (g + 1) * out_per_group), 3, kw), 2, kh);
          const Tensor contribution = ops::permute(
              ops::reshape(ops::mm(grad_cols, w), {batch, window.out_h, window.out_w, in_per_group}), {0, 3, 1, 2});
          Tensor target = ops::slice(window.of(grad_input_padded, kh, kw), 1, g * in_per_group, (g + 1) * in_per_group);
          ops::add_(target, contribution);
        }
      }
    }
  }
  if (want_input) {
    Tensor grad_input = unpadded(grad_input_padded, pad_h, pad_w, height, width);
    ctx.setGrad("input", unbatched ? ops::squeeze(grad_input, 0) : grad_input);
  }
  if (want_weight) ctx.setGrad("weight", grad_weight);
  if (ctx.needsGrad("bias")) ctx.setGrad("bias", ops::sum(grad, {0, 2, 3}));
}

// Max pooling's gradient, given the indices (flat h * W + w in each input plane) of each window's maximum.
Tensor maxPoolBackward(const BackwardContext& ctx, Tensor grad, Tensor indices) {
  const bool unbatched = ctx.sizes("self").size() == 3;
  if (unbatched) {
    grad = ops::unsqueeze(grad, 0);
    indices = ops::unsqueeze(indices, 0);
  }
  const IntArrayRef self_sizes = ctx.sizes("self");
  const int64_t height = self_sizes[self_sizes.size() - 2], width = self_sizes[self_sizes.size() - 1];
  const auto [kernel_h, kernel_w] = hw(ctx.arg("kernel_size").toIntList(), {1, 1});
  const auto [stride_h, stride_w] = hw(ctx.arg("stride").toIntList(), {kernel_h, kernel_w});
  const auto [pad_h, pad_w] = hw(ctx.arg("padding").toIntList(), {0, 0});
  const auto [dilation_h, dilation_w] = hw(ctx.arg("dilation").toIntList(), {1, 1});
  const Window window{stride_h, stride_w, dilation_h, dilation_w, grad.size(2), grad.size(3)};
  // ceil_mode windows may reach past the padded input; the buffer covers them too.
  const int64_t rows = std::max(height + 2 * pad_h, (window.out_h - 1) * stride_h + (kernel_h - 1) * dilation_h + 1);
  const int64_t cols = std::max(width + 2 * pad_w, (window.out_w - 1) * stride_w + (kernel_w - 1) * dilation_w + 1);
  Tensor buffer = zerosLike({grad.size(0), grad.size(1), rows, cols}, grad);
  for (int64_t kh = 0; kh < kernel_h; ++kh) {
    for (int64_t kw = 0; kw < kernel_w; ++kw) {
      // The flat input index each output's window reads at this offset (-1 where that is padding).
      std::vector<int64_t> expected(static_cast<size_t>(window.out_h * window.out_w));
      for (int64_t oh = 0; oh < window.out_h; ++oh) {
        for (int64_t ow = 0; ow < window.out_w; ++ow) {
          const int64_t h = oh * stride_h - pad_h + kh * dilation_h, w = ow * stride_w - pad_w + kw * dilation_w;
          const bool inside = h >= 0 && h < height && w >= 0 && w < width;
          expected[static_cast<size_t>(oh * window.out_w + ow)] = inside ? h * width + w : -1;
        }
      }
      const Tensor hits = ops::eq(indices, sy::tensor<int64_t>(expected, {window.out_h, window.out_w}));
      Tensor target = window.of(buffer, kh, kw);
      ops::add_(target, ops::where(hits, grad, 0));
    }
  }
  Tensor grad_self = unpadded(buffer, pad_h, pad_w, height, width);
  return unbatched ? ops::squeeze(grad_self, 0) : grad_self;
}

}  // namespace

SY_BACKWARD_FORMULAS(aten, m) {
  m.formula("convolution", {"input", "weight"}, convolutionBackward);
  m.formula("max_pool2d", {"self"}, [](BackwardContext& ctx) {
    // max_pool2d does not return its indices; recompute them.
    const Tensor indices = std::get<1>(ops::max_pool2d_with_indices(
        ctx.saved("self"), ctx.arg("kernel_size").toIntList(), ctx.arg("stride").toIntList(),
        ctx.arg("padding").toIntList(), ctx.arg("dilation").toIntList(), ctx.arg("ceil_mode").toBool()));
    ctx.setGrad("self", maxPoolBackward(ctx, ctx.grad(), indices));
  });
  m.formula("max_pool2d_with_indices", savesResults(), [](BackwardContext& ctx) {
    ctx.setGrad("self", maxPoolBackward(ctx, ctx.grad(0), ctx.result(1)));
  });
}

}  // namespace sy::autograd
