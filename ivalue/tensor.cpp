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
  // A stable insertion sort (a tensor has few dims; std::stable_sort would allocate its buffer)
  // keeps equal strides (size-1 or broadcast dims) in index order, so the result is deterministic
  // and a contiguous tensor always reports {0, ..., n-1}.
  for (size_t i = 1; i < order.size(); ++i) {
    const int64_t d = order[i];
    size_t j = i;
    for (; j > 0 && tensor_strides[order[j - 1]] < tensor_strides[d]; --j) order[j] = order[j - 1];
    order[j] = d;
  }
  return order;
}

void Tensor::throwUndefined() { SY_ERROR("operation on an undefined tensor"); }

void Tensor::checkDtype(ScalarType expected) const {
  ScalarType actual = scalar_type();
  SY_CHECK(actual == expected, "expected a tensor of dtype ", expected, " but got ", actual);
}

}  // namespace sy
