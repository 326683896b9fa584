// The optimized softmax and log_softmax (aten::_softmax, aten::_log_softmax, functional and out=)
// on Float tensors in contiguous layout along their last dimension, over the vectorised rows of
// vector_math.h; optimized.yaml binds them for Float and the contiguous dim orders of rank 0 to 8.
// Along another dimension, with half_to_float, or with an out= the loop cannot write directly,
// the call is handed on to the portable kernel (partial_kernel_decline.h). The values agree with
// the portable kernel's, which accumulates in Double, within Float accumulation's rounding (see
// tests/backends/kernels/optimized/optimized_softmax_test.cpp).
#include "NativeFunctions.h"

#include "switchyard/backends/kernels/optimized/flat_tensors.h"
#include "switchyard/backends/kernels/optimized/partial_kernel_decline.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::optimized {
namespace {

using OutSignature = Tensor&(const Tensor&, int64_t, bool, Tensor&);
using FunctionalSignature = Tensor(const Tensor&, int64_t, bool);

// Whether `dim` names self's last dimension (for a 0-dim tensor, -1 or 0): rows are then the
// tensor's contiguous innermost runs.
bool alongLastDim(const Tensor& self, int64_t dim) {
  const int64_t rank = self.dim();
  const int64_t extent = rank == 0 ? 1 : rank;
  if (dim < -extent || dim >= extent) return false;  // the portable kernel raises
  return (dim < 0 ? dim + extent : dim) == extent - 1;
}

void computeRows(RowFunction f, const Tensor& self, const Tensor& out) {
  const int64_t numel = self.numel();
  if (numel == 0) return;
  const int64_t length = self.dim() == 0 ? 1 : self.size(self.dim() - 1);
  applyRows(f, self.data_ptr<float>(), out.data_ptr<float>(), numel / length, length);
}

template <RowFunction F>
const char* operatorName() {
  return F == RowFunction::Softmax ? "aten::_softmax" : "aten::_log_softmax";
}

template <RowFunction F>
Tensor& rowsOut(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out) {
  if (half_to_float || !isFlatCpuFloat(self) || !alongLastDim(self, dim) || !prepareFlatOut(self, out)) {
    static const auto op = Dispatcher::singleton().staticTypedHandle<OutSignature>(operatorName<F>(), "out");
    return continueAfterPartialKernels(op, self, dim, half_to_float, out);
  }
  computeRows(F, self, out);
  return out;
}

template <RowFunction F>
Tensor rowsFunctional(const Tensor& self, int64_t dim, bool half_to_float) {
  if (half_to_float || !isFlatCpuFloat(self) || !alongLastDim(self, dim)) {
    static const auto op = Dispatcher::singleton().staticTypedHandle<FunctionalSignature>(operatorName<F>(), "");
    return continueAfterPartialKernels(op, self, dim, half_to_float);
  }
  Tensor out = ops::empty(self.sizes(), TensorOptions(ScalarType::Float).device(kCPU));
  computeRows(F, self, out);
  return out;
}

}  // namespace

namespace native {

Tensor softmax(const Tensor& self, int64_t dim, bool half_to_float, const KernelContext& ctx) {
  return rowsFunctional<RowFunction::Softmax>(self, dim, half_to_float);
}
Tensor& softmax_out(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out, const KernelContext& ctx) {
  return rowsOut<RowFunction::Softmax>(self, dim, half_to_float, out);
}
Tensor log_softmax(const Tensor& self, int64_t dim, bool half_to_float, const KernelContext& ctx) {
  return rowsFunctional<RowFunction::LogSoftmax>(self, dim, half_to_float);
}
Tensor& log_softmax_out(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out, const KernelContext& ctx) {
  return rowsOut<RowFunction::LogSoftmax>(self, dim, half_to_float, out);
}

}  // namespace native
}  // namespace sy::optimized
