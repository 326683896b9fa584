// Backward formulas of the matrix products: mm, bmm, addmm, linear.
//   C = A @ B:  dA = dC @ B^T,  dB = A^T @ dC
#include "switchyard/autograd/formula.h"
#include "switchyard/autograd/formula_helpers.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::autograd {
namespace {

Tensor matrixT(const Tensor& m) { return ops::transpose(m, -2, -1); }

}  // namespace

SY_BACKWARD_FORMULAS(aten, m) {
  m.formula("mm", {"self", "mat2"}, [](BackwardContext& ctx) {
    if (ctx.needsGrad("self")) ctx.setGrad("self", ops::mm(ctx.grad(), matrixT(ctx.saved("mat2"))));
    if (ctx.needsGrad("mat2")) ctx.setGrad("mat2", ops::mm(matrixT(ctx.saved("self")), ctx.grad()));
  });
  m.formula("bmm", {"self", "mat2"}, [](BackwardContext& ctx) {
    if (ctx.needsGrad("self")) ctx.setGrad("self", ops::bmm(ctx.grad(), matrixT(ctx.saved("mat2"))));
    if (ctx.needsGrad("mat2")) ctx.setGrad("mat2", ops::bmm(matrixT(ctx.saved("self")), ctx.grad()));
  });
  // beta * self + alpha * (mat1 @ mat2)
  m.formula("addmm", {"mat1", "mat2"}, [](BackwardContext& ctx) {
    const Scalar alpha = ctx.arg("alpha").toScalar();
    if (ctx.needsGrad("self")) ctx.setGrad("self", scaled(ctx.grad(), ctx.arg("beta").toScalar()));
    if (ctx.needsGrad("mat1")) ctx.setGrad("mat1", scaled(ops::mm(ctx.grad(), matrixT(ctx.saved("mat2"))), alpha));
    if (ctx.needsGrad("mat2")) ctx.setGrad("mat2", scaled(ops::mm(matrixT(ctx.saved("mat1")), ctx.grad()), alpha));
  });
  // input (..., in) @ weight.T (in, out) + bias: the leading dims of input are rows of one product.
  m.formula("linear", {"input", "weight"}, [](BackwardContext& ctx) {
    const Tensor weight = ctx.saved("weight");
    const int64_t out_features = weight.size(0);
    const Tensor grad_rows = ops::reshape(ctx.grad(), {-1, out_features});
    if (ctx.needsGrad("input")) {
      ctx.setGrad("input", ops::reshape(ops::mm(grad_rows, weight), ctx.sizes("input")));
    }
    if (ctx.needsGrad("weight")) {
      const Tensor input_rows = ops::reshape(ctx.saved("input"), {-1, weight.size(1)});
      ctx.setGrad("weight", ops::mm(matrixT(grad_rows), input_rows));
    }
    if (ctx.needsGrad("bias")) ctx.setGrad("bias", ctx.grad());  // summed to bias's shape by backward
  });
}

}  // namespace sy::autograd
