// alias_copy, the splitting copies (split_copy, split_with_sizes_copy, unbind_copy: a list of outs)
// and ExecuTorch's dim-order copies (backends/devices/cpu/view_copy_ops.yaml); the other view
// copies share their view's entry in shape_cases.cpp.
#include <algorithm>
#include <numeric>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
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

// The reference of a splitting copy's out list: PyTorch's functional form (`functional`, which
// returns Tensor[]) on every argument but the trailing out list, each piece written into its out
// (resized when its shape differs), as PyTorch 2.x's generated out= form does.
Reference piecesIntoOutList(std::string functional) {
  return [functional](const FunctionSchema& schema, Stack& stack) {
    const std::vector<IValue> inputs(stack.begin(), stack.end() - 1);
    const std::vector<Tensor> outs = stack.back().toTensorVector();
    const std::vector<IValue> results = torchCall(functional, inputs);
    const std::string op = schema.operator_name().toString();
    SY_CHECK(results.size() == 1 && results[0].isTensorList(), op, ": ", functional, " did not return a Tensor[]");
    const std::vector<Tensor> pieces = results[0].toTensorVector();
    SY_CHECK(pieces.size() == outs.size(), op, ": ", pieces.size(), " pieces for ", outs.size(), " outs");
    for (size_t i = 0; i < outs.size(); ++i) {
      SY_CHECK(outs[i].scalar_type() == pieces[i].scalar_type(), op, ": out[", i, "] has another dtype than self");
      writeOut(outs[i], pieces[i]);
    }
    stack.clear();
  };
}

Deviation resizesOutList(std::string functional) {
  return Deviation::referenced(
      "PyTorch 1.13's generated out= form copies into each out without resizing it; 2.0 resizes, as Switchyard does",
      whenOutVariant("empty out"), piecesIntoOutList(std::move(functional)));
}

// ExecuTorch's empty in a dim order: out resized to `size` with dense strides in `dim_order`
// (contiguous when None), or checked to have them when it already has that shape.
void emptyDimOrder(const FunctionSchema& schema, Stack& stack) {
  const std::vector<int64_t> size = stack[0].toIntVector();
  Tensor out = stack[2].toTensor();
  const std::string op = schema.operator_name().toString();
  for (int64_t s : size) SY_CHECK(s >= 0, op, ": negative size");
  std::vector<int64_t> order(size.size());
  std::iota(order.begin(), order.end(), 0);
  if (!stack[1].isNone()) order = stack[1].toIntVector();
  SY_CHECK(order.size() == size.size(), op, ": dim_order has the wrong length");
  std::vector<bool> seen(order.size(), false);
  for (int64_t d : order) {
    SY_CHECK(d >= 0 && d < static_cast<int64_t>(size.size()) && !seen[d], op, ": dim_order is not a permutation");
    seen[d] = true;
  }
  Shape strides(size.size());
  int64_t running = 1;
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = running;
    running *= std::max<int64_t>(size[order[i]], 1);
  }
  if (!sameSizes(out.sizes(), size)) {
    out.unsafeGetTensorImpl()->resize(size);
    out.unsafeGetTensorImpl()->set_sizes_and_strides(size, strides, out.storage_offset());
  }
  for (size_t d = 0; d < size.size(); ++d) {
    SY_CHECK(out.size(d) == 1 || out.stride(d) == strides[d], op, ": out is not laid out in the dim order");
  }
  stack = Stack{out};
}

}  // namespace

void addViewCopyCases(std::vector<OpCase>& cases) {
  cases.push_back(
      OpCase({"aten::alias_copy.out"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(shapes::kOne).deviation(resizesOut("aten::alias_copy")));
  // Each entry's out= calls cut self into as many pieces as its out list holds, or raise before the
  // outs are looked at: PyTorch 1.13's generated out= forms are not asked about a list of the wrong
  // length. The functional forms (`-> Tensor[]`) return as many pieces as self gives.
  cases.push_back(OpCase({"aten::split_copy.Tensor", "aten::split_copy.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .outList("out", 3)
                      .shapes({{{7, 4}}, {{9}}, {{8, 2, 3}}, {{7, 0}}, {{}}})
                      .arg("split_size", {3})
                      .arg("dim", {0, -2})
                      .deviation(resizesOutList("aten::split_copy.Tensor")));
  cases.push_back(OpCase({"aten::split_copy.Tensor", "aten::split_copy.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .label("one piece")
                      .tensors({"self"})
                      .outList("out", 1)
                      .shapes({{{2, 3}}, {{0, 3}}, {{4, 37}}})
                      .arg("split_size", {5, 0, -1})
                      .arg("dim", {0})
                      .deviation(resizesOutList("aten::split_copy.Tensor")));
  cases.push_back(OpCase({"aten::split_with_sizes_copy", "aten::split_with_sizes_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .outList("out", 3)
                      .shapes({{{6, 4}}, {{6}}, {{6, 0}}, {{6, 2, 3}}, {{}}})
                      .arg("split_sizes", {ints({1, 2, 3}), ints({0, 6, 0}), ints({3, 3, 0}), ints({1, 2, 2}),
                                           ints({-1, 4, 3})})
                      .arg("dim", {0})
                      .deviation(resizesOutList("aten::split_with_sizes_copy")));
  cases.push_back(OpCase({"aten::split_with_sizes_copy", "aten::split_with_sizes_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .label("inner dimension")
                      .tensors({"self"})
                      .outList("out", 3)
                      .shapes({{{2, 5}}, {{0, 5}}, {{3, 5, 2}}, {{3, 37}}})
                      .arg("split_sizes", {ints({2, 2, 1})})
                      .arg("dim", {1, -1, 2})
                      .deviation(resizesOutList("aten::split_with_sizes_copy")));
  cases.push_back(OpCase({"aten::unbind_copy.int", "aten::unbind_copy.int_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .outList("out", 3)
                      .shapes({{{3, 4}}, {{3}}, {{3, 0}}, {{3, 2, 5}}, {{}}})
                      .arg("dim", {0, -3})
                      .deviation(resizesOutList("aten::unbind_copy.int")));
  cases.push_back(OpCase({"aten::unbind_copy.int", "aten::unbind_copy.int_out"})
                      .dtypes(dtypes::kEvery)
                      .label("inner dimension")
                      .tensors({"self"})
                      .outList("out", 3)
                      .shapes({{{2, 3}}, {{4, 3}}, {{0, 3}}, {{37, 3}}})
                      .arg("dim", {1, -1})
                      .deviation(resizesOutList("aten::unbind_copy.int")));
  // (real, imaginary) pairs in a new last dimension, of the part's dtype; a real self is refused.
  cases.push_back(OpCase({"aten::view_as_real_copy", "aten::view_as_real_copy.out"})
                      .dtypes({ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble,
                               ScalarType::Float, ScalarType::Long})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .out("out", OutDtype::realPart())
                      .deviation(resizesOut("aten::view_as_real_copy")));
  for (const char* op : {"aten::detach_copy", "aten::lift_fresh_copy"}) {
    cases.push_back(OpCase({std::string(op) + ".out"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(shapes::kOne).deviation(resizesOut(op)));
  }
  // The view scatters: src must have the view's shape (or both sides raise).
  cases.push_back(OpCase({"aten::select_scatter", "aten::select_scatter.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self", "src"})
                      .shapes({{{2, 3}, {3}}, {{4}, {}}, {{2, 3, 4}, {3, 4}}, {{2, 37}, {37}}, {{2, 3}, {2}}})
                      .arg("dim", {0})
                      .arg("index", {0, -1, 1, 5}));
  cases.push_back(OpCase({"aten::select_scatter", "aten::select_scatter.out"})
                      .dtypes(dtypes::kEvery)
                      .label("inner dimension")
                      .tensors({"self", "src"})
                      .shapes({{{2, 3}, {2}}, {{2, 3, 4}, {2, 4}}, {{0, 3}, {0}}})
                      .arg("dim", {1, -2})
                      .arg("index", {2, -3}));
  cases.push_back(OpCase({"aten::slice_scatter", "aten::slice_scatter.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self", "src"})
                      .shapes({{{4, 5}, {2, 5}}, {{6}, {2}}, {{4, 3, 2}, {2, 3, 2}}, {{4, 37}, {2, 37}}, {{4, 5}, {3, 5}}})
                      .arg("dim", {0})
                      .arg("start", {1, -3})
                      .arg("end", {3})
                      .arg("step", {1}));
  cases.push_back(OpCase({"aten::slice_scatter", "aten::slice_scatter.out"})
                      .dtypes(dtypes::kEvery)
                      .label("stepped")
                      .tensors({"self", "src"})
                      .shapes({{{6, 2}, {3, 2}}, {{5}, {3}}})
                      .arg("dim", {0})
                      .arg("start", {kNone, 0})
                      .arg("end", {kNone, 100})
                      .arg("step", {2}));
  cases.push_back(OpCase({"aten::slice_scatter", "aten::slice_scatter.out"})
                      .dtypes(dtypes::kEvery)
                      .label("last dimension")
                      .tensors({"self", "src"})
                      .shapes({{{2, 5}, {2, 2}}, {{3, 4, 5}, {3, 4, 2}}})
                      .arg("dim", {-1})
                      .arg("start", {-2})
                      .arg("end", {kNone, 5})
                      .arg("step", {1}));
  cases.push_back(OpCase({"dim_order_ops::_empty_dim_order.out"})
                      .dtypes(dtypes::kEvery)
                      .valuesUnspecified()
                      .arg("size", {ints({2, 3, 4, 5}), ints({2, 3}), ints({}), ints({0, 2}), ints({-1, 2})})
                      .arg("dim_order", {kNone, ints({0, 2, 3, 1}), ints({1, 0}), ints({0, 0}), ints({0, 1, 2})})
                      .product()
                      .reference("ExecuTorch's operator; PyTorch has none", emptyDimOrder));
  const std::vector<ShapeSet> shapes{{{2, 3, 4, 5}}, {{2, 3}}, {{}}, {{1, 3, 1, 2}}, {{0, 2, 1, 3}}};
  const std::vector<IValue> orders{kNone, ints({0, 1, 2, 3}), ints({0, 2, 3, 1}), ints({0, 1}), ints({}), ints({1, 0}),
                                   ints({0, 0, 1, 2})};
  cases.push_back(OpCase({"dim_order_ops::_clone_dim_order.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes)
                      .arg("dim_order", orders)
                      .out("out", OutDtype::caseDtype())
                      .reference("ExecuTorch's operator; PyTorch has none",
                                 [](const FunctionSchema& schema, Stack& stack) { dimOrderCopy(schema, stack, true); }));
  cases.push_back(OpCase({"dim_order_ops::_to_dim_order_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes)
                      .arg("dim_order", orders)
                      .out("out", OutDtype::second())
                      .second(dtypes::kAll)
                      .reference("ExecuTorch's operator; PyTorch has none",
                                 [](const FunctionSchema& schema, Stack& stack) { dimOrderCopy(schema, stack, false); }));
}

}  // namespace sy::oracle
