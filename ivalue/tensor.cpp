#include "switchyard/ivalue/tensor.h"

#include <algorithm>
#include <numeric>

#include "switchyard/ivalue/tensor_factories.h"

// Printing (toString, operator<<, formatSizes) lives in tensor_printing.cpp; copy_, to and
// resize_ are operator calls defined in ops/.

namespace sy {

TensorOptions Tensor::options() const { return TensorOptions(scalar_type()).device(device()); }

SizesVector Tensor::dim_order() const {
  IntArrayRef tensor_strides = strides();
  SizesVector order(tensor_strides.size());
  std::iota(order.begin(), order.end(), int64_t{0});
  // stable_sort keeps equal strides (size-1 or broadcast dims) in index order, so the result is
  // deterministic and a contiguous tensor always reports {0, ..., n-1}.
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return tensor_strides[a] > tensor_strides[b]; });
  return order;
}

void Tensor::throwUndefined() { SY_ERROR("operation on an undefined tensor"); }

void Tensor::checkDtype(ScalarType expected) const {
  ScalarType actual = scalar_type();
  SY_CHECK(actual == expected, "expected a tensor of dtype ", expected, " but got ", actual);
}

}  // namespace sy
