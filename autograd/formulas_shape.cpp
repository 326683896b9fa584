// Backward formulas of the view and shape operators and of the copies: every view that only
// rearranges sizes goes back with a reshape to the input's shape; permute and transpose undo
// themselves; expand is undone by backward's own sum to the input's shape; slice and select put
// the gradient into zeros of the input's shape. cat splits the gradient; clone, _to_copy and
// copy_ pass it through (converted back to the input's dtype and device by backward).
#include <optional>
#include <vector>

#include "switchyard/autograd/formula.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::autograd {
namespace {

void reshapeBack(BackwardContext& ctx) { ctx.setGrad("self", ops::reshape(ctx.grad(), ctx.sizes("self"))); }

// Zeros of self's shape, with `grad` written where the view `view_of(zeros)` looks.
template <class ViewOf>
Tensor scatteredInto(BackwardContext& ctx, ViewOf view_of) {
  const Tensor grad = ctx.grad();
  Tensor zeros = ops::zeros(ctx.sizes("self"), TensorOptions(grad.scalar_type()).device(grad.device()));
  Tensor window = view_of(zeros);
  ops::copy_(window, grad);
  return zeros;
}

std::optional<int64_t> optionalInt(const IValue& v) {
  if (v.isNone()) return std::nullopt;
  return v.toInt();
}

}  // namespace

SY_BACKWARD_FORMULAS(aten, m) {
  m.formula("view", {}, reshapeBack);
  m.formula("reshape", {}, reshapeBack);
  m.formula("unsqueeze", {}, reshapeBack);
  m.formula("squeeze", {}, reshapeBack);
  m.formula("squeeze.dim", {}, reshapeBack);
  m.formula("squeeze.dims", {}, reshapeBack);
  m.formula("expand", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ctx.grad()); });
  m.formula("permute", {}, [](BackwardContext& ctx) {
    IntArrayRef dims = ctx.arg("dims").toIntList();
    const int64_t ndim = static_cast<int64_t>(dims.size());
    std::vector<int64_t> inverse(dims.size());
    for (int64_t i = 0; i < ndim; ++i) inverse[dims[i] < 0 ? dims[i] + ndim : dims[i]] = i;
    ctx.setGrad("self", ops::permute(ctx.grad(), inverse));
  });
  m.formula("transpose.int", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::transpose(ctx.grad(), ctx.arg("dim0").toInt(), ctx.arg("dim1").toInt()));
  });
  m.formula("slice.Tensor", {}, [](BackwardContext& ctx) {
    const int64_t dim = ctx.arg("dim").toInt(), step = ctx.arg("step").toInt();
    const std::optional<int64_t> start = optionalInt(ctx.arg("start"));
    const std::optional<int64_t> end = optionalInt(ctx.arg("end"));
    ctx.setGrad("self", scatteredInto(ctx, [&](const Tensor& z) { return ops::slice(z, dim, start, end, step); }));
  });
  m.formula("select.int", {}, [](BackwardContext& ctx) {
    const int64_t dim = ctx.arg("dim").toInt(), index = ctx.arg("index").toInt();
    ctx.setGrad("self", scatteredInto(ctx, [&](const Tensor& z) { return ops::select(z, dim, index); }));
  });

  m.formula("clone", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ctx.grad()); });
  m.formula("_to_copy", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ctx.grad()); });
  // copy_(self, src): self's old value is overwritten, so only src gets a gradient.
  m.formula("copy_", {}, [](BackwardContext& ctx) { ctx.setGrad("src", ctx.grad()); });
  m.formula("cat", {}, [](BackwardContext& ctx) {
    const Tensor grad = ctx.grad();
    const int64_t rank = grad.dim();
    int64_t dim = ctx.arg("dim").toInt();
    dim = dim < 0 ? dim + rank : dim;
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.listSize("tensors"); ++i) {
      const IntArrayRef sizes = ctx.sizes("tensors", i);
      // cat skips 1-D empty tensors whose rank does not match; they get no gradient.
      if (static_cast<int64_t>(sizes.size()) != rank) continue;
      const int64_t length = sizes[dim];
      if (ctx.needsGrad("tensors", i)) ctx.setGrad("tensors", i, ops::slice(grad, dim, offset, offset + length));
      offset += length;
    }
  });
}

}  // namespace sy::autograd
