// The helpers of ops/index_ops.h: each calls through a namespace-scope typed handle (one dispatch,
// no per-call lookup), whose signature must match the kernels' (backends/cpu/index_kernels.h).
#include "switchyard/ops/index_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

const auto gather_op = handle<Tensor(const Tensor&, int64_t, const Tensor&, bool)>("aten::gather", "");
const auto gather_out_op = handle<Tensor&(const Tensor&, int64_t, const Tensor&, bool, Tensor&)>("aten::gather", "out");
const auto scatter_op =
    handle<Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&)>("aten::scatter", "value");
const auto scatter_out_op =
    handle<Tensor&(const Tensor&, int64_t, const Tensor&, const Scalar&, Tensor&)>("aten::scatter", "value_out");

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  return gather_op.call(self, dim, index, sparse_grad);
}
Tensor& gather_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  return gather_out_op.call(self, dim, index, sparse_grad, out);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_op.call(self, dim, index, value);
}
Tensor& scatter_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_out_op.call(self, dim, index, value, out);
}

}  // namespace sy::ops
