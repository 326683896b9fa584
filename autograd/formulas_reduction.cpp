// Backward formulas of sum, mean, _softmax and _log_softmax (softmax.int and log_softmax.int are
// CompositeImplicit and reach these through the calls they make).
#include <optional>

#include "switchyard/autograd/formula.h"
#include "switchyard/autograd/formula_helpers.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/unary_ops.h"

namespace sy::autograd {
namespace {

// The `dim` argument of a reduction: nullopt for None.
std::optional<IntArrayRef> dimArgument(const BackwardContext& ctx) {
  const IValue& dim = ctx.arg("dim");
  if (dim.isNone()) return std::nullopt;
  return dim.toIntList();
}

// How many elements each output element of a mean over `dims` averaged.
int64_t meanCount(IntArrayRef sizes, std::optional<IntArrayRef> dims) {
  int64_t count = 1;
  for (int64_t d : reducedDims(dims, static_cast<int64_t>(sizes.size()))) count *= sizes[d];
  return count;
}

// softmax and log_softmax of a 0-dim tensor are constants (1 and 0).
bool isScalarSoftmax(const BackwardContext& ctx) { return ctx.sizes("self").empty(); }

}  // namespace

SY_BACKWARD_FORMULAS(aten, m) {
  m.formula("sum", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::expand(ctx.grad(), ctx.sizes("self")));
  });
  m.formula("sum.dim_IntList", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", expandReduced(ctx.grad(), ctx.sizes("self"), dimArgument(ctx),
                                      ctx.arg("keepdim").toBool()));
  });
  m.formula("mean", {}, [](BackwardContext& ctx) {
    const IntArrayRef sizes = ctx.sizes("self");
    const int64_t count = meanCount(sizes, std::nullopt);
    ctx.setGrad("self", ops::expand(ops::div(ctx.grad(), count), sizes));
  });
  m.formula("mean.dim", {}, [](BackwardContext& ctx) {
    const IntArrayRef sizes = ctx.sizes("self");
    const std::optional<IntArrayRef> dims = dimArgument(ctx);
    const int64_t count = meanCount(sizes, dims);
    ctx.setGrad("self", expandReduced(ops::div(ctx.grad(), count), sizes, dims, ctx.arg("keepdim").toBool()));
  });

  // y = softmax(x): dx = y * (dy - sum(dy * y, dim))
  m.formula("_softmax", savesResults(), [](BackwardContext& ctx) {
    const Tensor y = ctx.result();
    if (isScalarSoftmax(ctx)) return ctx.setGrad("self", ops::zeros_like(y));
    const int64_t dim = ctx.arg("dim").toInt();
    const Tensor dot = ops::sum(ops::mul(ctx.grad(), y), {dim}, /*keepdim=*/true);
    ctx.setGrad("self", ops::mul(y, ops::sub(ctx.grad(), dot)));
  });
  // y = log_softmax(x): dx = dy - exp(y) * sum(dy, dim)
  m.formula("_log_softmax", savesResults(), [](BackwardContext& ctx) {
    const Tensor y = ctx.result();
    if (isScalarSoftmax(ctx)) return ctx.setGrad("self", ops::zeros_like(y));
    const int64_t dim = ctx.arg("dim").toInt();
    const Tensor total = ops::sum(ctx.grad(), {dim}, /*keepdim=*/true);
    ctx.setGrad("self", ops::sub(ctx.grad(), ops::mul(ops::exp(y), total)));
  });
}

}  // namespace sy::autograd
