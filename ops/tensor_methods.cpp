// The Tensor methods that are operator calls (declared in ivalue/tensor.h). They live here, above
// the dispatcher, so the ivalue layer does not depend on the operators.
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ops/ops.h"

namespace sy {

Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) { return ops::copy_(*this, src, non_blocking); }

Tensor Tensor::to(Device device) const {
  if (this->device() == device) return *this;
  // Allocate on the target and let copy_ move the bytes: whichever backend owns either side
  // (the highest key of the pair) gets to implement the transfer.
  Tensor result = ops::empty(sizes(), TensorOptions(scalar_type()).device(device));
  ops::copy_(result, *this);
  return result;
}

Tensor Tensor::to(ScalarType dtype) const {
  if (scalar_type() == dtype) return *this;
  return ops::_to_copy(*this, TensorOptions(dtype).device(device()));
}

}  // namespace sy
