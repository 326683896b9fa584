// The sy::ops:: matrix-product helpers: each calls through a namespace-scope typed handle
// (Dispatcher::staticTypedHandle), one dispatch per call. The handle signatures must match the
// kernels' (backends/cpu/linalg_kernels.h) exactly; a mismatch is rejected at registration.
#include "switchyard/ops/linalg_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using ProductSignature = Tensor(const Tensor&, const Tensor&);
using ProductOutSignature = Tensor&(const Tensor&, const Tensor&, Tensor&);
using AddmmSignature = Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&);
using AddmmOutSignature = Tensor&(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&, Tensor&);
using AddmmInPlaceSignature = Tensor&(Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&);
using LinearSignature = Tensor(const Tensor&, const Tensor&, const std::optional<Tensor>&);
using LinearOutSignature = Tensor&(const Tensor&, const Tensor&, const std::optional<Tensor>&, Tensor&);

const auto mm_op = handle<ProductSignature>("aten::mm", "");
const auto mm_out_op = handle<ProductOutSignature>("aten::mm", "out");
const auto bmm_op = handle<ProductSignature>("aten::bmm", "");
const auto bmm_out_op = handle<ProductOutSignature>("aten::bmm", "out");
const auto addmm_op = handle<AddmmSignature>("aten::addmm", "");
const auto addmm_out_op = handle<AddmmOutSignature>("aten::addmm", "out");
const auto addmm_inplace_op = handle<AddmmInPlaceSignature>("aten::addmm_", "");
const auto linear_op = handle<LinearSignature>("aten::linear", "");
const auto linear_out_op = handle<LinearOutSignature>("aten::linear", "out");

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) { return mm_op.call(self, mat2); }
Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2) { return mm_out_op.call(self, mat2, out); }

Tensor bmm(const Tensor& self, const Tensor& mat2) { return bmm_op.call(self, mat2); }
Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2) { return bmm_out_op.call(self, mat2, out); }

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  return addmm_op.call(self, mat1, mat2, beta, alpha);
}
Tensor& addmm_out(Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                  const Scalar& alpha) {
  return addmm_out_op.call(self, mat1, mat2, beta, alpha, out);
}
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  return addmm_inplace_op.call(self, mat1, mat2, beta, alpha);
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  return linear_op.call(input, weight, bias);
}
Tensor& linear_out(Tensor& out, const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  return linear_out_op.call(input, weight, bias, out);
}

}  // namespace sy::ops
