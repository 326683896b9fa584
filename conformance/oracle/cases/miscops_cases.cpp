// The reflection and replication paddings, topk, repeat_interleave's index form, the strided view
// copies (diagonal_copy, as_strided_copy, unfold_copy) and the row distances (_pdist_forward,
// _cdist_forward) and max_pool2d_with_indices_backward: backends/devices/cpu/boundary_padding.cpp,
// topk.cpp, repeat_interleave.cpp, strided_view_copies.cpp, pairwise_distance.cpp and
// max_pool_backward.cpp.
#include <limits>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/core/error.h"

namespace sy::oracle {

namespace {

// topk's expected outcome where PyTorch leaves it open (ties, sorted=False): the first k of PyTorch's
// stable sort along dim, descending for the largest (NaN first) and ascending for the smallest (NaN
// last). See Note [topk orders ties by index, sorted or not] in backends/devices/cpu/topk.cpp.
void topkByStableSort(const FunctionSchema& schema, Stack& stack) {
  const std::vector<IValue> arguments(stack.begin(), stack.end());
  const Tensor& self = arguments[0].toTensor();
  const int64_t k = arguments[1].toInt();
  const int64_t dim = arguments[2].toInt();
  const bool largest = arguments[3].toBool();
  std::vector<IValue> sorted = torchCall("aten::sort.stable", {self, IValue(true), dim, IValue(largest)});
  if (self.dim() > 0) {
    for (IValue& r : sorted) r = torchCall("aten::narrow", {r, dim, int64_t{0}, k})[0];
  } else {
    SY_CHECK(k == 0 || k == 1, "selected index k out of range");
  }
  stack.clear();
  if (arguments.size() > 5) {  // topk.values: write the outs and return them
    for (size_t r = 0; r < 2; ++r) {
      writeOut(arguments[5 + r].toTensor(), sorted[r].toTensor());
      stack.push_back(arguments[5 + r]);
    }
  } else {
    for (IValue& r : sorted) stack.push_back(r);
  }
  (void)schema;
}

// Reflection and replication padding of Bool and integral tensors: PyTorch 1.13's CPU kernels take
// floating dtypes only (replication) or refuse Bool (reflection); Switchyard moves every dtype's
// bytes, so the expected values are PyTorch's on the same values in Double.
const Dtypes kBoolAndIntegral{ScalarType::Bool, ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
                              ScalarType::Long};

Deviation paddingOfEveryDtype(const std::string& functional) {
  return Deviation::computes("padding moves elements, so every dtype is taken; PyTorch 1.13's CPU kernel refuses some",
                             whenDtype("self", kBoolAndIntegral),
                             computedVia(kBoolAndIntegral, ScalarType::Double, true, functional));
}

}  // namespace

void addMiscOpsCases(std::vector<OpCase>& cases) {
  // Reflection and replication padding: batched and unbatched, a zero batch, negative (cropping)
  // padding, paddings as large as reflection allows and larger (an error there, as in PyTorch).
  struct PadFamily {
    const char* name;
    std::vector<ShapeSet> shapes;
    std::vector<IValue> paddings;
  };
  const PadFamily families[] = {
      {"pad1d", {{{2, 5}}, {{2, 3, 5}}, {{0, 2, 4}}, {{3, 1}}, {{5}}, {{2, 0}}},
       {ints({1, 2}), ints({0, 0}), ints({-1, 2}), ints({4, 4}), ints({5, 0}), ints({-3, -2})}},
      {"pad2d", {{{2, 4, 5}}, {{1, 2, 3, 4}}, {{0, 2, 3, 4}}, {{2, 3}}, {{2, 0, 3}}},
       {ints({1, 2, 0, 1}), ints({0, 0, 0, 0}), ints({-1, 1, 2, -1}), ints({3, 3, 2, 2}), ints({1, 1, 4, 1}),
        ints({1, 1, -3, 0})}},
      {"pad3d", {{{1, 3, 4, 5}}, {{1, 2, 3, 3, 4}}, {{0, 1, 2, 2, 2}}, {{3, 4, 5}}},
       {ints({1, 0, 2, 1, 0, 1}), ints({0, 0, 0, 0, 0, 0}), ints({-1, 1, 1, -1, 1, 1}), ints({2, 1, 1, 2, 2, 2}),
        ints({0, 0, 0, 0, 3, 0})}},
  };
  for (const PadFamily& family : families) {
    for (const char* mode : {"reflection_", "replication_"}) {
      const std::string op = std::string("aten::") + mode + family.name;
      cases.push_back(OpCase({op, op + ".out"})
                          .tensors({"self"})
                          .dtypes(dtypes::kEvery)
                          .shapes(family.shapes)
                          .arg("padding", family.paddings)
                          .out("out", OutDtype::caseDtype())
                          .deviation(paddingOfEveryDtype(op)));
    }
  }

  // topk. Distinct values (random floats, no edge values) compare with PyTorch's topk itself, values
  // and indices; with ties, NaNs and sorted=False, PyTorch's order is unspecified, so those calls
  // compare with the first k of its stable sort (values exactly, and indices, which differ from
  // PyTorch's topk only among equal values).
  // Every computed dtype but Bool, which PyTorch's topk refuses too; Half and BFloat16 only with the
  // ties reference, as rounding to them makes random values tie.
  const Dtypes kTopkDtypes{ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long,
                           ScalarType::Half, ScalarType::Float, ScalarType::Double, ScalarType::BFloat16};
  const std::vector<ShapeSet> topk_shapes{{{2, 5}}, {{7}}, {{3, 4, 2}}, {{}}, {{0, 3}}, {{3, 70}}};
  cases.push_back(OpCase({"aten::topk", "aten::topk.values"})
                      .label("distinct values")
                      .tensors({"self"})
                      .dtypes(dtypes::kFloating)
                      .noEdgeValues()
                      .shapes(topk_shapes)
                      .arg("k", {1, 2, 0, 3, 8})
                      .arg("dim", {-1, 0, 1})
                      .arg("largest", {true, false})
                      .arg("sorted", {true})
                      .out("values", OutDtype::caseDtype())
                      .out("indices", OutDtype::fixedTo(ScalarType::Long)));
  cases.push_back(OpCase({"aten::topk", "aten::topk.values"})
                      .label("ties and NaN")
                      .tensors({"self"})
                      .dtypes(kTopkDtypes)
                      .shapes(topk_shapes)
                      .arg("k", {2, 1, 0, 3})
                      .arg("dim", {-1, 0})
                      .arg("largest", {true, false})
                      .arg("sorted", {true, false})
                      .out("values", OutDtype::caseDtype())
                      .out("indices", OutDtype::fixedTo(ScalarType::Long))
                      .deviation(Deviation::referenced(
                          "PyTorch leaves the order of equal elements (and every order when sorted=False) open; "
                          "Switchyard's is the first k of the stable sort, by index (backends/devices/cpu/topk.cpp)",
                          always(), topkByStableSort)));

  // repeat_interleave's index form: counts 0..3 (and negative ones, an error), an empty repeats, and
  // repeats that are not 1-D (an error).
  cases.push_back(OpCase({"aten::repeat_interleave.Tensor", "aten::repeat_interleave.Tensor_out"})
                      .tensor("repeats", Values::range(0, 3))
                      .dtypes(dtypes::kIntegral)
                      .shapes({{{5}}, {{0}}, {{1}}, {{40}}, {{}}, {{2, 2}}})
                      .arg("output_size", {kNone})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::repeat_interleave.Tensor")));
  cases.push_back(OpCase({"aten::repeat_interleave.Tensor", "aten::repeat_interleave.Tensor_out"})
                      .label("negative repeats")
                      .tensor("repeats", Values::range(-2, 1))
                      .dtypes(dtypes::kIntegral)
                      .shapes({{{6}}})
                      .arg("output_size", {kNone, 1000})
                      .out("out", OutDtype::caseDtype())
                      .errorsOnly());

  // The strided view copies.
  cases.push_back(OpCase({"aten::diagonal_copy", "aten::diagonal_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{3, 4}}, {{2, 3, 4}}, {{4, 3}}, {{0, 3}}, {{5}}})
                      .arg("offset", {0, 1, -1, 5, -5, -2})
                      .arg("dim1", {0, 1, -1})
                      .arg("dim2", {1, 0, -1, 2})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::diagonal_copy")));
  cases.push_back(OpCase({"aten::as_strided_copy", "aten::as_strided_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{3, 4}}, {{12}}, {{2, 3, 2}}, {{0, 2}}})
                      .arg("size", {ints({2, 2}), ints({3}), ints({}), ints({0, 5}), ints({5, 5}), ints({2, -1})})
                      .arg("stride", {ints({1, 2}), ints({4}), ints({}), ints({3, 3}), ints({1, -1})})
                      .arg("storage_offset", {kNone, 1, 0, 40, -1})
                      .contiguousOnly()
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::as_strided_copy")));
  cases.push_back(OpCase({"aten::unfold_copy", "aten::unfold_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes({{{5}}, {{3, 6}}, {{}}, {{0, 4}}, {{2, 3, 4}}})
                      .arg("dimension", {0, -1, 1, 3})
                      .arg("size", {2, 0, 1, 7, -1})
                      .arg("step", {1, 2, 3, 0})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::unfold_copy")));

  // Row distances. Edge values are left out: PyTorch's vectorised p = inf maximum and Switchyard's
  // disagree on where a NaN difference wins. PyTorch's _pdist_forward takes contiguous input only.
  const double inf = std::numeric_limits<double>::infinity();
  cases.push_back(OpCase({"aten::_pdist_forward", "aten::_pdist_forward.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEveryFloating)
                      .noEdgeValues()
                      .contiguousOnly()
                      .shapes({{{4, 3}}, {{1, 3}}, {{5, 0}}, {{0, 3}}, {{9, 7}}, {{3}}, {{2, 3, 4}}})
                      .arg("p", {2.0, 0.0, 1.0, inf, 1.5, 3.0, -1.0})
                      .out("out", OutDtype::caseDtype())
                      .deviation(Deviation::refuses("a negative p is refused, as by ExecuTorch's kernel and torch.pdist; "
                                                    "PyTorch's _pdist_forward itself computes with it",
                                                    whenArgument("p", -1.0)))
                      .deviation(Deviation::refuses("a self of more than 2 dimensions is refused, as by ExecuTorch's "
                                                    "kernel and torch.pdist; PyTorch's _pdist_forward itself reads its "
                                                    "first two sizes only",
                                                    [](const CallDescription& c) { return c.shapes.at("self").size() > 2; }))
                      .deviation(resizesOut("aten::_pdist_forward")));
  // Up to 25 rows each, where PyTorch computes p = 2 from the differences unless compute_mode is 1.
  cases.push_back(OpCase({"aten::_cdist_forward", "aten::_cdist_forward.out"})
                      .tensors({"x1", "x2"})
                      .dtypes(dtypes::kEveryFloating)
                      .noEdgeValues()
                      .shapes({{{3, 4}, {5, 4}}, {{2, 3, 4}, {2, 5, 4}}, {{2, 1, 3, 2}, {4, 2, 2}}, {{0, 4}, {3, 4}},
                               {{3, 0}, {2, 0}}, {{4}, {3, 4}}, {{3, 4}, {3, 5}}, {{2, 3, 4}, {3, 5, 4}}})
                      .arg("p", {2.0, 0.0, 1.0, inf, 1.5, -1.0})
                      .arg("compute_mode", {kNone, 2, 0, 5})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::_cdist_forward")));
  cases.push_back(OpCase({"aten::_cdist_forward", "aten::_cdist_forward.out"})
                      .label("euclidean through a matrix product")
                      .tensors({"x1", "x2"})
                      .dtypes(dtypes::kEveryFloating)
                      .noEdgeValues()
                      .shapes({{{3, 4}, {5, 4}}, {{30, 3}, {2, 3}}})
                      .arg("p", {2.0})
                      .arg("compute_mode", {1, kNone})
                      .out("out", OutDtype::caseDtype())
                      .tolerance(ScalarType::Float, 1e-4, 1e-3)
                      .tolerance(ScalarType::Double, 1e-9, 1e-9)
                      // PyTorch's product form (x1^2 + x2^2 - 2 x1.x2) cancels in Half and BFloat16;
                      // Switchyard sums the differences in double.
                      .tolerance(ScalarType::Half, 1e-2, 1e-2)
                      .tolerance(ScalarType::BFloat16, 6e-2, 6e-2)
                      .deviation(resizesOut("aten::_cdist_forward")));

  // max_pool2d's gradient: indices are any positions of the 4 x 5 plane (PyTorch's kernel, like
  // Switchyard's, adds each gradient where its index says, whether or not the forward could have
  // chosen it), so gradients meet and sum; the shapes are (grad_output, self, indices).
  cases.push_back(OpCase({"aten::max_pool2d_with_indices_backward", "aten::max_pool2d_with_indices_backward.grad_input"})
                      .tensor("grad_output")
                      .tensor("self")
                      .tensor("indices", Values::range(0, 19), OutDtype::fixedTo(ScalarType::Long))
                      .dtypes(dtypes::kEveryFloating)
                      .shapes({{{1, 2, 2, 2}, {1, 2, 4, 5}, {1, 2, 2, 2}},
                               {{2, 3, 4}, {2, 4, 5}, {2, 3, 4}},
                               {{0, 2, 2, 2}, {0, 2, 4, 5}, {0, 2, 2, 2}},
                               {{1, 2, 3, 3}, {1, 2, 4, 5}, {1, 2, 3, 3}},
                               {{1, 2, 2, 3}, {1, 2, 4, 5}, {1, 2, 2, 3}}})
                      .arg("kernel_size", {ints({2, 2}), ints({2})})
                      .arg("stride", {ints({2, 2}), ints({1, 1}), ints({})})
                      .arg("padding", {ints({0, 0}), ints({1, 1})})
                      .arg("dilation", {ints({1, 1})})
                      .arg("ceil_mode", {false, true})
                      .out("grad_input", OutDtype::caseDtype()));
}

}  // namespace sy::oracle
