// Backward formulas of the elementwise operators: arithmetic, the unary functions, the
// activations and where. Broadcast inputs get a gradient of the result's shape; backward sums it
// back (see autograd/formula.h). In-place forms (add_, relu_, ...) use these through their
// functional twins.
#include "switchyard/autograd/formula.h"
#include "switchyard/autograd/formula_helpers.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/unary_ops.h"

namespace sy::autograd {
namespace {

// The gradients of self / other.
void divBackward(BackwardContext& ctx, const Tensor& other) {
  const Tensor grad_self = ops::div(ctx.grad(), other);
  if (ctx.needsGrad("self")) ctx.setGrad("self", grad_self);
  if (ctx.needsGrad("other")) {
    // d(self / other) / d other = -self / other^2 = -(grad / other) * self / other
    ctx.setGrad("other", ops::neg(ops::div(ops::mul(grad_self, ctx.saved("self")), other)));
  }
}

// div with a rounding mode is piecewise constant: its gradient is zero wherever it exists.
bool rounds(const BackwardContext& ctx) { return !ctx.arg("rounding_mode").isNone(); }
void zeroGradients(BackwardContext& ctx) {
  const Tensor zeros = ops::zeros_like(ctx.grad());  // backward sums it to each input's shape
  ctx.setGrad("self", zeros);
  if (ctx.listSize("other") > 0) ctx.setGrad("other", zeros);
}

}  // namespace

SY_BACKWARD_FORMULAS(aten, m) {
  m.formula("add.Tensor", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ctx.grad());
    if (ctx.needsGrad("other")) ctx.setGrad("other", scaled(ctx.grad(), ctx.arg("alpha").toScalar()));
  });
  m.formula("add.Scalar", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ctx.grad()); });
  m.formula("sub.Tensor", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ctx.grad());
    if (ctx.needsGrad("other")) {
      ctx.setGrad("other", ops::neg(scaled(ctx.grad(), ctx.arg("alpha").toScalar())));
    }
  });
  m.formula("sub.Scalar", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ctx.grad()); });
  m.formula("mul.Tensor", {"self", "other"}, [](BackwardContext& ctx) {
    if (ctx.needsGrad("self")) ctx.setGrad("self", ops::mul(ctx.grad(), ctx.saved("other")));
    if (ctx.needsGrad("other")) ctx.setGrad("other", ops::mul(ctx.grad(), ctx.saved("self")));
  });
  m.formula("mul.Scalar", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::mul(ctx.grad(), ctx.arg("other").toScalar()));
  });
  m.formula("div.Tensor", {"self", "other"}, [](BackwardContext& ctx) {
    divBackward(ctx, ctx.saved("other"));
  });
  m.formula("div.Tensor_mode", {"self", "other"}, [](BackwardContext& ctx) {
    rounds(ctx) ? zeroGradients(ctx) : divBackward(ctx, ctx.saved("other"));
  });
  m.formula("div.Scalar", {}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::div(ctx.grad(), ctx.arg("other").toScalar()));
  });
  m.formula("div.Scalar_mode", {}, [](BackwardContext& ctx) {
    if (rounds(ctx)) return zeroGradients(ctx);
    ctx.setGrad("self", ops::div(ctx.grad(), ctx.arg("other").toScalar()));
  });
  m.formula("neg", {}, [](BackwardContext& ctx) { ctx.setGrad("self", ops::neg(ctx.grad())); });

  // Unary functions.
  m.formula("exp", savesResults(), [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::mul(ctx.grad(), ctx.result()));
  });
  m.formula("log", {"self"}, [](BackwardContext& ctx) { ctx.setGrad("self", ops::div(ctx.grad(), ctx.saved("self"))); });
  m.formula("sqrt", savesResults(), [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::div(ctx.grad(), ops::mul(ctx.result(), 2)));
  });
  m.formula("sin", {"self"}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::mul(ctx.grad(), ops::cos(ctx.saved("self"))));
  });
  m.formula("cos", {"self"}, [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::neg(ops::mul(ctx.grad(), ops::sin(ctx.saved("self")))));
  });

  // Activations, from their results: tanh' = 1 - tanh^2, sigmoid' = s (1 - s), relu' = [r > 0].
  m.formula("tanh", savesResults(), [](BackwardContext& ctx) {
    const Tensor t = ctx.result();
    ctx.setGrad("self", ops::sub(ctx.grad(), ops::mul(ctx.grad(), ops::mul(t, t))));
  });
  m.formula("sigmoid", savesResults(), [](BackwardContext& ctx) {
    const Tensor s = ctx.result();
    ctx.setGrad("self", ops::mul(ctx.grad(), ops::sub(s, ops::mul(s, s))));
  });
  m.formula("relu", savesResults(), [](BackwardContext& ctx) {
    ctx.setGrad("self", ops::where(ops::gt(ctx.result(), 0), ctx.grad(), 0));
  });

  // where(condition, self, other): the gradient goes to the side each element came from.
  m.formula("where.self", {"condition"}, [](BackwardContext& ctx) {
    const Tensor condition = ctx.saved("condition");
    if (ctx.needsGrad("self")) ctx.setGrad("self", ops::where(condition, ctx.grad(), 0));
    if (ctx.needsGrad("other")) ctx.setGrad("other", ops::where(condition, 0, ctx.grad()));
  });
}

}  // namespace sy::autograd
