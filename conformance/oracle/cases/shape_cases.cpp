// The shape, view and copy operators (backends/devices/cpu/shape_ops.yaml), each view with its _copy twin
// (backends/devices/cpu/view_copy_ops.yaml) where PyTorch has one: same arguments, a view's result shares self's
// memory, a copy's does not.
#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/ivalue/scalar.h"

namespace sy::oracle {

void addShapeCases(std::vector<OpCase>& cases) {
  cases.push_back(OpCase({"aten::clone", "aten::clone.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("memory_format", {kNone, MemoryFormat::Contiguous, MemoryFormat::Preserve}));
  cases.push_back(OpCase({"aten::clone", "aten::clone.out"})
                      .dtypes(dtypes::kEvery)
                      .label("channels last")
                      .tensors({"self"})
                      .shapes({{{2, 3, 4, 5}}, {{1, 3, 1, 2}}, {{2, 3}}})
                      .arg("memory_format", {MemoryFormat::ChannelsLast}));
  cases.push_back(OpCase({"aten::contiguous"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("memory_format", {MemoryFormat::Contiguous, MemoryFormat::Preserve})
                      .deviation(Deviation::refuses(
                          "memory_format=preserve is refused always; PyTorch checks it only when it must copy",
                          whenArgument("memory_format", MemoryFormat::Preserve))));
  // resize_: self takes the new size (contiguous strides); the values of grown elements are unspecified.
  cases.push_back(OpCase({"aten::resize_"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .valuesUnspecified()
                      .arg("size", {ints({6}), ints({2, 2}), ints({0}), ints({4, 5}), ints({-1})}));
  // copy_: src broadcasts to self and converts to its dtype.
  cases.push_back(OpCase({"aten::copy_"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self", "src"})
                      .promote("src", dtypes::kAll)
                      .shapes({{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 3}, {}}, {{}, {}}, {{3}, {2, 3}}, {{0, 3}, {3}},
                               {{3, 37}, {3, 1}}})
                      .arg("non_blocking", {false, true}));
  // cat: equal shapes join along any dim; others only along the one they differ in. A 1-D empty
  // tensor is skipped whatever its shape (PyTorch's legacy rule).
  cases.push_back(OpCase({"aten::cat", "aten::cat.out"})
                      .dtypes(dtypes::kEvery)
                      .tensorList("tensors", 2)
                      .shapes({{{2, 3}, {2, 3}}, {{1, 3}, {2, 3}}, {{2, 1}, {2, 3}}, {{0, 3}, {2, 3}}, {{0}, {2, 3}},
                               {{}, {}}, {{2, 3}, {2, 4, 1}}, {{3}, {4}}})
                      .arg("dim", {0, 1, -1, 2}));
  cases.push_back(OpCase({"aten::cat", "aten::cat.out"})
                      .dtypes(dtypes::kEvery)
                      .label("three tensors")
                      .tensorList("tensors", 3)
                      .shapes({{{2, 3, 4}, {2, 1, 4}, {2, 5, 4}}, {{1, 37}, {2, 37}, {3, 37}}})
                      .arg("dim", {1, 0}));
  // stack: equal shapes joined along a new dimension; the result's rank wraps dim.
  cases.push_back(OpCase({"aten::stack", "aten::stack.out"})
                      .dtypes(dtypes::kEvery)
                      .tensorList("tensors", 2)
                      .shapes({{{2, 3}, {2, 3}}, {{}, {}}, {{0, 3}, {0, 3}}, {{3, 37}, {3, 37}}, {{2, 3}, {3, 2}},
                               {{2, 3}, {2, 3, 1}}})
                      .arg("dim", {0, 1, -1, 2, 3, -4}));
  cases.push_back(OpCase({"aten::stack", "aten::stack.out"})
                      .dtypes(dtypes::kEvery)
                      .label("three tensors")
                      .tensorList("tensors", 3)
                      .shapes({{{2, 1, 4}, {2, 1, 4}, {2, 1, 4}}, {{5}, {5}, {5}}})
                      .arg("dim", {1, 0, -1}));
  cases.push_back(OpCase({"aten::t_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3}}, {{3}}, {{}}, {{0, 2}}, {{3, 37}}, {{2, 3, 4}}})
                      .deviation(resizesOut("aten::t_copy")));
  // copy: src broadcast into a tensor of self's shape and dtype.
  cases.push_back(OpCase({"aten::copy", "aten::copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self", "src"})
                      .promote("src", dtypes::kAll)
                      .out("out", OutDtype::caseDtype())
                      .shapes({{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 3}, {}}, {{}, {}}, {{3}, {2, 3}}, {{0, 3}, {3}},
                               {{3, 37}, {3, 1}}})
                      .deviation(Deviation::referenced(
                          "PyTorch 1.13's functional copy returns src itself when it already has self's shape and "
                          "dtype; Switchyard's result is a new tensor, as the functional form's contract (and 2.x) has it",
                          [](const CallDescription& c) { return c.op == "aten::copy"; },
                          throughPyTorch(nullptr, [](const std::vector<IValue>&, std::vector<IValue>& results) {
                            for (IValue& r : results) {
                              if (r.isTensor()) r = convertedTo(r.toTensor(), r.toTensor().scalar_type());
                            }
                          }))));
  // The rearranging operators (rearrange_ops.cpp, padding.cpp).
  cases.push_back(OpCase({"aten::flip", "aten::flip.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3, 4}}, {{5}}, {{}}, {{0, 3}}, {{3, 37}}})
                      .arg("dims", {ints({0}), ints({-1}), ints({0, 2}), ints({}), ints({0, 0}), ints({3})}));
  cases.push_back(OpCase({"aten::roll", "aten::roll.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{3, 4}}, {{5}}, {{0, 3}}, {{2, 3, 4}}, {{}}, {{3, 37}}})
                      .arg("shifts", {ints({1}), ints({-2}), ints({7}), ints({1, 2})})
                      .arg("dims", {ints({}), ints({0}), ints({-1}), ints({0, 1}), ints({1, 1})})
                      .product());
  cases.push_back(OpCase({"aten::repeat", "aten::repeat.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3}}, {{3}}, {{}}, {{0, 2}}, {{3, 37}}})
                      .arg("repeats", {ints({2, 2}), ints({1, 3, 2}), ints({2}), ints({}), ints({0, 2}),
                                       ints({2, 1, 1, 2})}));
  cases.push_back(OpCase({"aten::tril", "aten::tril.out", "aten::tril_"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{3, 4}}, {{4, 3}}, {{2, 3, 3}}, {{0, 3}}, {{3}}, {{}}, {{3, 37}}})
                      .arg("diagonal", {0, 1, -1, 5, -5}));
  cases.push_back(OpCase({"aten::constant_pad_nd", "aten::constant_pad_nd.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3}}, {{3}}, {{0, 3}}, {{2, 3, 4}}, {{}}})
                      .arg("pad", {ints({1, 2}), ints({1, 1, 2, 0}), ints({-1, 1}), ints({}), ints({1}),
                                   ints({0, 0, 0, 0, 0, 0}), ints({-2, -2})})
                      .arg("value", {0, 2.5, -3}));
  cases.push_back(OpCase({"aten::narrow_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{4, 5}}, {{6}}, {{0, 3}}, {{}}})
                      .arg("dim", {0, 1, -1})
                      .arg("start", {0, 1, -2, 5, -7})
                      .arg("length", {2, 0, 3, -1}));
  cases.push_back(OpCase({"aten::expand", "aten::expand_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{1, 3}}, {{3}}, {{}}, {{2, 1}}, {{0, 1}}})
                      .arg("size", {ints({2, 3}), ints({-1, 3}), ints({4, 2, 3}), ints({3}), ints({0, 3})})
                      .arg("implicit", {false})
                      .deviation(resizesOut("aten::expand_copy")));
  cases.push_back(OpCase({"aten::permute", "aten::permute_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3, 4}}, {{2, 3}}, {{}}, {{0, 2, 3}}})
                      .arg("dims", {ints({2, 0, 1}), ints({0, 1, 2}), ints({-1, 0, 1}), ints({1, 0}), ints({}),
                                    ints({0, 0, 1})})
                      .deviation(resizesOut("aten::permute_copy")));
  for (const std::vector<std::string>& ops :
       {std::vector<std::string>{"aten::reshape"}, std::vector<std::string>{"aten::view", "aten::view_copy.out"}}) {
    cases.push_back(OpCase(ops)
                        .dtypes(dtypes::kEvery)
                        .tensors({"self"})
                        .shapes({{{2, 3}}, {{6}}, {{}}, {{0, 3}}, {{1}}})
                        .arg(ops.front() == "aten::reshape" ? "shape" : "size",
                             {ints({6}), ints({-1}), ints({3, 2}), ints({1, 2, 3}), ints({-1, 3}), ints({}),
                              ints({0, -1}), ints({-1, -1})})
                        .deviation(resizesOut("aten::view_copy"))
                        .deviation(Deviation::referenced(
                            "view_copy.out copies a self no view can reshape (a transposed one) in row-major order, as "
                            "PyTorch 1.13's functional view_copy and 2.x's view_copy.out do; 1.13's view_copy.out "
                            "raises view's error",
                            [](const CallDescription& c) {
                              return c.op == "aten::view_copy.out" && c.out_variant == "sized out" &&
                                     c.layout != "contiguous";
                            },
                            outOfFunctional("aten::view_copy"))));
  }
  cases.push_back(OpCase({"aten::select.int", "aten::select_copy.int_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3}}, {{4}}, {{2, 3, 4}}, {{0, 3}}, {{}}})
                      .arg("dim", {0, 1, -1})
                      .arg("index", {0, -1, 1, 5})
                      .product()
                      .deviation(resizesOut("aten::select_copy.int")));
  cases.push_back(OpCase({"aten::slice.Tensor", "aten::slice_copy.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{4, 5}}, {{6}}, {{0, 3}}, {{}}})
                      .arg("dim", {0, 1, -1})
                      .arg("start", {kNone, 0, 1, -2, 10, -10})
                      .arg("end", {kNone, 3, -1, 100, 0})
                      .arg("step", {1, 2, 3, 0})
                      .deviation(resizesOut("aten::slice_copy.Tensor")));
  cases.push_back(OpCase({"aten::transpose.int", "aten::transpose_copy.int_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{2, 3}}, {{2, 3, 4}}, {{3}}, {{}}, {{0, 2}}})
                      .arg("dim0", {0, -1, 1, 3})
                      .arg("dim1", {1, 0, -2})
                      .product()
                      .deviation(resizesOut("aten::transpose_copy.int")));
  cases.push_back(OpCase({"aten::unsqueeze", "aten::unsqueeze_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1, 2, -3, 4})
                      .deviation(resizesOut("aten::unsqueeze_copy")));
  const std::vector<ShapeSet> squeezable{{{1, 3, 1}}, {{3}}, {{}}, {{1}}, {{0, 1}}, {{2, 1, 1, 4}}};
  cases.push_back(OpCase({"aten::squeeze"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(squeezable));
  cases.push_back(OpCase({"aten::squeeze.dim", "aten::squeeze_copy.dim_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(squeezable)
                      .arg("dim", {0, -1, 1, 2, 3})
                      .deviation(resizesOut("aten::squeeze_copy.dim")));
  // squeeze.dims came with PyTorch 2.0; its _copy twin is ExecuTorch's.
  cases.push_back(OpCase({"aten::squeeze.dims", "aten::squeeze_copy.dims_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(squeezable)
                      .arg("dim", {ints({0}), ints({0, 2}), ints({-1}), ints({}), ints({1, 2}), ints({0, 0}), ints({5})})
                      .reference("aten::squeeze.dims is PyTorch 2.0's (squeeze the listed size-1 dims)",
                                 [](const FunctionSchema& schema, Stack& stack) {
                                   const Tensor self = stack[0].toTensor();
                                   const Tensor result = squeezeDims(self, stack[1].toIntVector());
                                   if (!schema.arguments().back().is_out()) {
                                     stack = Stack{result};
                                     return;
                                   }
                                   Tensor out = stack.back().toTensor();
                                   SY_CHECK(out.scalar_type() == self.scalar_type(), "squeeze_copy: out dtype ",
                                            out.scalar_type(), " is not self's ", self.scalar_type());
                                   writeOut(out, result);
                                   stack = Stack{out};
                                 }));
}

}  // namespace sy::oracle
