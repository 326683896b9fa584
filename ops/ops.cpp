// Each function calls through a namespace-scope typed handle (Dispatcher::staticTypedHandle): one
// dispatch per call, with no per-call "is the handle initialised" guard. The handle signatures must
// match the kernels' C++ signatures exactly (see backends/cpu/kernels.h); a mismatch is rejected
// when either side registers.
#include "switchyard/ops/ops.h"

#include <optional>

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using EmptySignature = Tensor(IntArrayRef, std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                              std::optional<bool>, std::optional<MemoryFormat>);

const auto empty_op = handle<EmptySignature>("aten::empty", "memory_format");
const auto add_op = handle<Tensor(const Tensor&, const Tensor&, const Scalar&)>("aten::add", "Tensor");
const auto add_out_op = handle<Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&)>("aten::add", "out");
const auto mul_op = handle<Tensor(const Tensor&, const Tensor&)>("aten::mul", "Tensor");
const auto mul_out_op = handle<Tensor&(const Tensor&, const Tensor&, Tensor&)>("aten::mul", "out");
const auto copy_op = handle<Tensor&(Tensor&, const Tensor&, bool)>("aten::copy_", "");

}  // namespace

Tensor empty(IntArrayRef size, TensorOptions options) {
  // An unspecified dtype stays None, as at::empty passes it, so kernels see the caller's intent.
  std::optional<ScalarType> dtype;
  if (options.has_dtype_) dtype = options.dtype_;
  return empty_op.call(size, dtype, std::nullopt, options.device_, std::nullopt, std::nullopt);
}

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) { return add_op.call(self, other, alpha); }
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_out_op.call(self, other, alpha, out);
}

Tensor mul(const Tensor& self, const Tensor& other) { return mul_op.call(self, other); }
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other) { return mul_out_op.call(self, other, out); }

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) { return copy_op.call(self, src, non_blocking); }

}  // namespace sy::ops
