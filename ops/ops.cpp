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
const auto copy_op = handle<Tensor&(Tensor&, const Tensor&, bool)>("aten::copy_", "");

}  // namespace

Tensor empty(IntArrayRef size, TensorOptions options) {
  // An unspecified dtype stays None, as at::empty passes it, so kernels see the caller's intent.
  std::optional<ScalarType> dtype;
  if (options.has_dtype_) dtype = options.dtype_;
  return empty_op.call(size, dtype, std::nullopt, options.device_, std::nullopt, std::nullopt);
}

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) { return copy_op.call(self, src, non_blocking); }

}  // namespace sy::ops
