// alias_copy and ExecuTorch's dim-order copies (backends/devices/cpu/view_copy_ops.yaml); the other view copies
// share their view's entry in shape_cases.cpp.
#include <algorithm>
#include <numeric>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor_impl.h"

namespace sy::oracle {

namespace {


// The dim order a tensor's strides describe: dimensions by decreasing stride, ties (size-1
// dimensions) in their own order.
std::vector<int64_t> dimOrderOf(const Tensor& t) {
  std::vector<int64_t> order(t.dim());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return t.stride(a) > t.stride(b); });
  return order;
}

// ExecuTorch's dim-order copy (exir/passes/dim_order_ops_registry.py; its portable kernels): `out`
// gets self's values, laid out in `dim_order` (self's own when None); an out of another shape is
// resized to that layout, one of self's shape must already have it. A clone keeps the dtype.
void dimOrderCopy(const FunctionSchema& schema, Stack& stack, bool clone) {
  const Tensor self = stack[0].toTensor();
  Tensor out = stack[3].toTensor();
  const std::string op = schema.operator_name().toString();
  SY_CHECK(!clone || out.scalar_type() == self.scalar_type(), op, ": out's dtype differs from self's");
  const std::vector<int64_t> order = stack[2].isNone() ? dimOrderOf(self) : stack[2].toIntVector();
  SY_CHECK(static_cast<int64_t>(order.size()) == self.dim(), op, ": dim_order has the wrong length");
  std::vector<bool> seen(order.size(), false);
  for (int64_t d : order) {
    SY_CHECK(d >= 0 && d < self.dim() && !seen[d], op, ": dim_order is not a permutation");
    seen[d] = true;
  }
  Shape strides(self.dim());
  int64_t running = 1;
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = running;
    running *= std::max<int64_t>(self.size(order[i]), 1);
  }
  if (!sameSizes(out.sizes(), self.sizes())) {
    out.unsafeGetTensorImpl()->resize(self.sizes());
    out.unsafeGetTensorImpl()->set_sizes_and_strides(self.sizes(), strides, out.storage_offset());
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    SY_CHECK(out.size(d) == 1 || out.stride(d) == strides[d], op, ": out is not laid out in the dim order");
  }
  writeOut(out, self);
  stack = Stack{out};
}

}  // namespace

void addViewCopyCases(std::vector<OpCase>& cases) {
  cases.push_back(
      OpCase({"aten::alias_copy.out"}).tensors({"self"}).shapes(shapes::kOne).deviation(resizesOut("aten::alias_copy")));
  const std::vector<ShapeSet> shapes{{{2, 3, 4, 5}}, {{2, 3}}, {{}}, {{1, 3, 1, 2}}, {{0, 2, 1, 3}}};
  const std::vector<IValue> orders{kNone, ints({0, 1, 2, 3}), ints({0, 2, 3, 1}), ints({0, 1}), ints({}), ints({1, 0}),
                                   ints({0, 0, 1, 2})};
  cases.push_back(OpCase({"dim_order_ops::_clone_dim_order.out"})
                      .tensors({"self"})
                      .shapes(shapes)
                      .arg("dim_order", orders)
                      .out("out", OutDtype::caseDtype())
                      .reference("ExecuTorch's operator; PyTorch has none",
                                 [](const FunctionSchema& schema, Stack& stack) { dimOrderCopy(schema, stack, true); }));
  cases.push_back(OpCase({"dim_order_ops::_to_dim_order_copy.out"})
                      .tensors({"self"})
                      .shapes(shapes)
                      .arg("dim_order", orders)
                      .out("out", OutDtype::second())
                      .second(dtypes::kAll)
                      .reference("ExecuTorch's operator; PyTorch has none",
                                 [](const FunctionSchema& schema, Stack& stack) { dimOrderCopy(schema, stack, false); }));
}

}  // namespace sy::oracle
