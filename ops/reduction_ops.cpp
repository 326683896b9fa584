// The sy::ops:: reduction and softmax helpers: each calls through a namespace-scope typed handle
// (Dispatcher::staticTypedHandle), one dispatch per call. The handle signatures must match the
// kernels' (backends/cpu/reduction_kernels.h) exactly; a mismatch is rejected at registration.
#include "switchyard/ops/reduction_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using FullSignature = Tensor(const Tensor&, std::optional<ScalarType>);
using FullOutSignature = Tensor&(const Tensor&, std::optional<ScalarType>, Tensor&);
using DimSignature = Tensor(const Tensor&, std::optional<IntArrayRef>, bool, std::optional<ScalarType>);
using DimOutSignature = Tensor&(const Tensor&, std::optional<IntArrayRef>, bool, std::optional<ScalarType>, Tensor&);
using SoftmaxSignature = Tensor(const Tensor&, int64_t, bool);
using SoftmaxOutSignature = Tensor&(const Tensor&, int64_t, bool, Tensor&);
using SoftmaxIntSignature = Tensor(const Tensor&, int64_t, std::optional<ScalarType>);
using SoftmaxIntOutSignature = Tensor&(const Tensor&, int64_t, std::optional<ScalarType>, Tensor&);

const auto sum_op = handle<FullSignature>("aten::sum", "");
const auto sum_out_op = handle<FullOutSignature>("aten::sum", "out");
const auto sum_dim_op = handle<DimSignature>("aten::sum", "dim_IntList");
const auto sum_dim_out_op = handle<DimOutSignature>("aten::sum", "IntList_out");
const auto mean_op = handle<FullSignature>("aten::mean", "");
const auto mean_out_op = handle<FullOutSignature>("aten::mean", "dtype_out");
const auto mean_dim_op = handle<DimSignature>("aten::mean", "dim");
const auto mean_dim_out_op = handle<DimOutSignature>("aten::mean", "out");
const auto amax_op = handle<Tensor(const Tensor&, IntArrayRef, bool)>("aten::amax", "");
const auto amax_out_op = handle<Tensor&(const Tensor&, IntArrayRef, bool, Tensor&)>("aten::amax", "out");
const auto argmax_op = handle<Tensor(const Tensor&, std::optional<int64_t>, bool)>("aten::argmax", "");
const auto argmax_out_op = handle<Tensor&(const Tensor&, std::optional<int64_t>, bool, Tensor&)>("aten::argmax", "out");
const auto softmax_impl_op = handle<SoftmaxSignature>("aten::_softmax", "");
const auto softmax_impl_out_op = handle<SoftmaxOutSignature>("aten::_softmax", "out");
const auto log_softmax_impl_op = handle<SoftmaxSignature>("aten::_log_softmax", "");
const auto log_softmax_impl_out_op = handle<SoftmaxOutSignature>("aten::_log_softmax", "out");
const auto softmax_op = handle<SoftmaxIntSignature>("aten::softmax", "int");
const auto softmax_out_op = handle<SoftmaxIntOutSignature>("aten::softmax", "int_out");
const auto log_softmax_op = handle<SoftmaxIntSignature>("aten::log_softmax", "int");
const auto log_softmax_out_op = handle<SoftmaxIntOutSignature>("aten::log_softmax", "int_out");

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) { return sum_op.call(self, dtype); }
Tensor& sum_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype) {
  return sum_out_op.call(self, dtype, out);
}
Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_dim_op.call(self, dim.get(), keepdim, dtype);
}
Tensor& sum_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  return sum_dim_out_op.call(self, dim.get(), keepdim, dtype, out);
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) { return mean_op.call(self, dtype); }
Tensor& mean_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype) {
  return mean_out_op.call(self, dtype, out);
}
Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return mean_dim_op.call(self, dim.get(), keepdim, dtype);
}
Tensor& mean_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  return mean_dim_out_op.call(self, dim.get(), keepdim, dtype, out);
}

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) { return amax_op.call(self, dim, keepdim); }
Tensor& amax_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_out_op.call(self, dim, keepdim, out);
}

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return argmax_op.call(self, dim, keepdim);
}
Tensor& argmax_out(Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return argmax_out_op.call(self, dim, keepdim, out);
}

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl_op.call(self, dim, half_to_float);
}
Tensor& _softmax_out(Tensor& out, const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl_out_op.call(self, dim, half_to_float, out);
}
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return log_softmax_impl_op.call(self, dim, half_to_float);
}
Tensor& _log_softmax_out(Tensor& out, const Tensor& self, int64_t dim, bool half_to_float) {
  return log_softmax_impl_out_op.call(self, dim, half_to_float, out);
}

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_op.call(self, dim, dtype);
}
Tensor& softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_out_op.call(self, dim, dtype, out);
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return log_softmax_op.call(self, dim, dtype);
}
Tensor& log_softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return log_softmax_out_op.call(self, dim, dtype, out);
}

}  // namespace sy::ops
