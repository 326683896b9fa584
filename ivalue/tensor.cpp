#include "switchyard/ivalue/tensor.h"

#include <algorithm>
#include <numeric>

// Printing (toString, operator<<, formatSizes) lives in tensor_printing.cpp; copy_ and to are
// operator calls defined in ops/.

namespace sy {

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

const Tensor& Tensor::resize_(IntArrayRef new_sizes) const {
  checkedImpl()->resize(new_sizes);
  return *this;
}

void Tensor::throwUndefined() { SY_ERROR("operation on an undefined tensor"); }

void Tensor::checkDtype(ScalarType expected) const {
  ScalarType actual = scalar_type();
  SY_CHECK(actual == expected, "expected a tensor of dtype ", expected, " but got ", actual);
}

}  // namespace sy
