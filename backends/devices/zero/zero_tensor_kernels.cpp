// The ZeroTensor kernels that exploit zeros (add, mul, mm) and the fallback for everything else
// (see Note [Zero tensors through one fallback]).
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/zero/zero_tensor.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/ivalue_tensors.h"
#include "switchyard/ops/creation_ops.h"

namespace sy {
namespace {

TensorOptions optionsFor(ScalarType dtype, const Tensor& like) { return TensorOptions().dtype(dtype).device(like.device()); }

// Dense operands go below the ZeroTensor key; zero operands are replaced by dense zeros.
using AddSignature = Tensor(const Tensor&, const Tensor&, const Scalar&);
const auto add_op = Dispatcher::singleton().staticTypedHandle<AddSignature>("aten::add", "Tensor");

Tensor addZero(DispatchKeySet ks, const Tensor& self, const Tensor& other, const Scalar& alpha, const KernelContext& ctx) {
  const ScalarType dtype = cpu::binaryResultType(self, other);
  const SizesVector shape = cpu::broadcastShapes(ctx.op, self.sizes(), other.sizes());
  const bool self_zero = is_zero_tensor(self), other_zero = is_zero_tensor(other);
  if (self_zero && other_zero) return zero_tensor(shape, optionsFor(dtype, self));
  // x + alpha * 0 and 0 + 1 * x are x: copy its values (a functional result must not alias an
  // input), skipping the arithmetic. Any other combination computes densely below this key.
  const Tensor& dense = self_zero ? other : self;
  const bool result_is_dense_operand =
      sameSizes(dense.sizes(), shape) && dense.dtype() == dtype && (other_zero || (alpha.isIntegral(false) && alpha.toLong() == 1));
  if (result_is_dense_operand) {
    Tensor result = ops::empty(shape, optionsFor(dtype, dense));
    return result.copy_(dense);
  }
  return add_op.redispatch(ks.remove(DispatchKey::ZeroTensor), materialized(self), materialized(other), alpha);
}

// 0 * x is 0 for finite x; as in PyTorch's zero tensors, inf and nan in x do not make it nan.
Tensor mulZero(const Tensor& self, const Tensor& other, const KernelContext& ctx) {
  const ScalarType dtype = cpu::binaryResultType(self, other);
  const SizesVector shape = cpu::broadcastShapes(ctx.op, self.sizes(), other.sizes());
  return zero_tensor(shape, optionsFor(dtype, is_zero_tensor(self) ? self : other));
}

Tensor mmZero(const Tensor& self, const Tensor& mat2, const KernelContext& ctx) {
  SY_CHECK(self.dim() == 2, ctx.op, ": expected 'self' to be a 2-D tensor but got a ", self.dim(), "-D tensor");
  SY_CHECK(mat2.dim() == 2, ctx.op, ": expected 'mat2' to be a 2-D tensor but got a ", mat2.dim(), "-D tensor");
  SY_CHECK(self.size(1) == mat2.size(0), ctx.op, ": self and mat2 shapes cannot be multiplied (", self.size(0), "x",
           self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  return zero_tensor({self.size(0), mat2.size(1)}, optionsFor(promoteTypes(self.dtype(), mat2.dtype()), self));
}

// Materialises a written zero tensor in place: zero-filled storage, no ZeroTensor key.
void materializeInPlace(const Tensor& t) {
  Tensor dense = materialized(t);
  TensorImpl* impl = t.unsafeGetTensorImpl();
  impl->set_storage(dense.storage());
  impl->set_sizes_and_strides(dense.sizes(), dense.strides(), dense.storage_offset());
  impl->set_key_set(impl->key_set().remove(DispatchKey::ZeroTensor));
}

void materializeZerosAndRedispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const auto& arguments = op.schema().arguments();
  for (size_t i = 0; i < arguments.size(); ++i) {
    IValue& value = peek(*stack, i, arguments.size());
    if (value.isTensor()) {
      if (!is_zero_tensor(value.toTensor())) continue;
      if (arguments[i].is_write()) {
        materializeInPlace(value.toTensor());
      } else {
        value = materialized(value.toTensor());
      }
    } else if (value.isTensorList() || value.isList()) {
      value = mapTensors(std::move(value), materialized);
    }
  }
  op.redispatchBoxed(ks.remove(DispatchKey::ZeroTensor), stack);
}

}  // namespace

// Each kernel told its operator's name (dispatcher/derived_kernels.h).
SY_LIBRARY_IMPL(aten, ZeroTensor, m) {
  static constexpr KernelContext kAdd{"aten::add.Tensor", OutputForm::Functional};
  static constexpr KernelContext kMul{"aten::mul.Tensor", OutputForm::Functional};
  static constexpr KernelContext kMm{"aten::mm", OutputForm::Functional};
  m.impl(kAdd.op, withContext<&addZero, &kAdd>());
  m.impl(kMul.op, withContext<&mulZero, &kMul>());
  m.impl(kMm.op, withContext<&mmZero, &kMm>());
}

SY_LIBRARY_IMPL(_, ZeroTensor, m) { m.fallback(CppFunction::makeFromBoxedFunction<&materializeZerosAndRedispatch>()); }

}  // namespace sy
