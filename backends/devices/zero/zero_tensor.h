// Zero tensors: tensors known to be all zeros. They carry the ZeroTensor dispatch key and own no
// storage, so making one allocates no data.
//
//   sy::Tensor z = sy::zero_tensor({1024, 1024});
//   sy::ops::mul(z, x);   // a zero tensor of the broadcast shape: no data, no arithmetic
//   sy::ops::mm(z, w);    // a zero tensor of the product's shape
//   sy::ops::add(z, x);   // x's values: a copy of x, no addition
//   sy::ops::sin(z);      // anything else: the ZeroTensor fallback materialises z and redispatches
//
// Note [Zero tensors through one fallback]
// Only add, mul and mm have ZeroTensor kernels; every other operator reaches one boxed fallback
// that replaces zero tensor arguments with dense zeros and redispatches below the ZeroTensor key.
// A zero tensor that an operator writes (an out= or in-place argument) is materialised in place:
// it gets zero-filled storage and loses the ZeroTensor key, so the caller's tensor holds the result.
#pragma once

#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy {

// A tensor of `sizes` that is all zeros and owns no storage.
Tensor zero_tensor(IntArrayRef sizes, TensorOptions options = {});
bool is_zero_tensor(const Tensor& t);
// A dense, zero-filled tensor with the same sizes, dtype and device (the tensor itself if dense).
Tensor materialized(const Tensor& t);

}  // namespace sy
