#include "switchyard/autograd/formula_helpers.h"

#include <algorithm>

#include "switchyard/ops/ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::autograd {

bool expandsTo(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

Tensor sumToSize(const Tensor& grad, IntArrayRef sizes) {
  if (sameSizes(grad.sizes(), sizes)) return grad;
  SY_CHECK(expandsTo(sizes, grad.sizes()), "sumToSize: a gradient of shape ", formatSizes(grad.sizes()),
           " does not come from broadcasting shape ", formatSizes(sizes));
  const size_t lead = grad.sizes().size() - sizes.size();
  std::vector<int64_t> dims;
  for (size_t i = 0; i < grad.sizes().size(); ++i) {
    if (i < lead || (sizes[i - lead] == 1 && grad.size(static_cast<int64_t>(i)) != 1)) dims.push_back(static_cast<int64_t>(i));
  }
  Tensor summed = dims.empty() ? grad : ops::sum(grad, dims, /*keepdim=*/true);
  return ops::reshape(summed, sizes);
}

SizesVector reducedDims(std::optional<IntArrayRef> dims, int64_t ndim) {
  SizesVector out;
  if (!dims.has_value() || dims->empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  const int64_t rank = std::max<int64_t>(ndim, 1);  // a 0-dim tensor accepts dimension 0 and -1
  for (int64_t d : *dims) {
    SY_CHECK_INDEX(d >= -rank && d < rank, "reducedDims: dimension ", d, " out of range for a ", ndim, "-D tensor");
    const int64_t wrapped = d < 0 ? d + rank : d;
    if (wrapped < ndim && std::find(out.begin(), out.end(), wrapped) == out.end()) out.push_back(wrapped);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Tensor expandReduced(const Tensor& grad, IntArrayRef sizes, std::optional<IntArrayRef> dims, bool keepdim) {
  Tensor g = grad;
  if (!keepdim) {
    for (int64_t d : reducedDims(dims, static_cast<int64_t>(sizes.size()))) g = ops::unsqueeze(g, d);
  }
  return ops::expand(g, sizes);
}

Tensor scaled(const Tensor& grad, const Scalar& s) { return s == Scalar(1) ? grad : ops::mul(grad, s); }

}  // namespace sy::autograd
