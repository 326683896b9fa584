// The elementwise unary operators and activations (backends/devices/cpu/unary_ops.yaml).
#include <cmath>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"

namespace sy::oracle {

void addUnaryCases(std::vector<OpCase>& cases) {
  // Same dtype as the input.
  cases.push_back(OpCase(threeForms("aten::abs"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .deviation(Deviation::computes("abs of Bool is the identity, as PyTorch's CUDA kernel has it; its CPU "
                                                     "kernel refuses Bool (backends/devices/cpu/unary_ops.cpp)",
                                                     whenDtype("self", {ScalarType::Bool}), computedVia({ScalarType::Bool}, ScalarType::Long, true))));
  cases.push_back(OpCase(threeForms("aten::neg")).tensors({"self"}).dtypes(dtypes::kEvery).shapes(shapes::kOne));
  // Floating results: an integral or Bool input gives Float (in place it needs a floating self).
  for (const char* op : {"aten::acos", "aten::cos", "aten::exp", "aten::log", "aten::rsqrt", "aten::sin", "aten::sqrt",
                         "aten::tanh", "aten::sigmoid"}) {
    cases.push_back(
        OpCase(threeForms(op)).tensors({"self"}).dtypes(dtypes::kEvery).shapes(shapes::kOne).out("out", OutDtype::floating()));
  }
  for (const char* op : {"aten::asin", "aten::asinh", "aten::atan", "aten::atanh", "aten::acosh", "aten::cosh",
                         "aten::sinh", "aten::tan", "aten::erf", "aten::expm1", "aten::log10", "aten::log1p", "aten::log2",
                         "aten::reciprocal"}) {
    cases.push_back(
        OpCase(threeForms(op)).tensors({"self"}).dtypes(dtypes::kEvery).shapes(shapes::kOne).out("out", OutDtype::floating()));
  }
  // Rounding keeps the dtype (integral inputs are copied, Bool is refused on both sides); sign too.
  for (const char* op : {"aten::ceil", "aten::floor", "aten::round", "aten::trunc", "aten::sign"}) {
    cases.push_back(OpCase(threeForms(op)).tensors({"self"}).dtypes(dtypes::kEvery).shapes(shapes::kOne));
  }
  // Bool results from self's own elements.
  for (const char* op : {"aten::isnan", "aten::isinf"}) {
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .tensors({"self"})
                        .dtypes(dtypes::kEvery)
                        .shapes(shapes::kOne)
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  }
  cases.push_back(OpCase(threeForms("aten::logical_not"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  cases.push_back(OpCase(threeForms("aten::bitwise_not")).tensors({"self"}).shapes(shapes::kOne).dtypes(dtypes::kEvery));
  cases.push_back(OpCase(threeForms("aten::relu")).tensors({"self"}).dtypes(dtypes::kEvery).shapes(shapes::kOne));
  cases.push_back(OpCase(threeForms("aten::leaky_relu"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("negative_slope", {0.01, 0.2, -1.5, 2}));
  cases.push_back(OpCase(threeForms("aten::elu"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("alpha", {1, 0.5})
                      .arg("scale", {1, 2})
                      .arg("input_scale", {1, 0.5}));
  cases.push_back(OpCase(threeForms("aten::gelu"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("approximate", {"none", "tanh", "sigmoid"})
                      .deviation(Deviation::referenced(
                          "gelu(+inf) = +inf and gelu(-inf) = -0, the limits; PyTorch's CPU kernel gives NaN for both "
                          "(backends/devices/cpu/activation_ops.cpp)",
                          allOf(whenEdgeValues(), whenDtype("self", dtypes::kEveryFloating)), patchedElementwise([](double x, double y) {
                            return std::isinf(x) ? (x > 0 ? x : -0.0) : y;
                          }))));
  cases.push_back(OpCase(threeForms("aten::hardtanh"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("min_val", {-1, -2.5, 0, true})
                      .arg("max_val", {1, 2.5, -3}));
  // Scalar bounds: either, both or neither (which PyTorch refuses), of either kind.
  cases.push_back(OpCase(threeForms("aten::clamp"))
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("min", {-1, IValue(), 0.5, -2.5})
                      .arg("max", {1, IValue(), 2.5})
                      .product()
                      .out("out", OutDtype::resultType("min")));
  // Tensor bounds broadcast with self; a missing bound is None.
  // _conj_physical: a copy for real dtypes.
  cases.push_back(OpCase({"aten::_conj_physical", "aten::_conj_physical.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .deviation(resizesOut("aten::_conj_physical")));
  const std::vector<std::string> clamp_tensor{"aten::clamp.Tensor", "aten::clamp.Tensor_out", "aten::clamp_.Tensor"};
  cases.push_back(OpCase(clamp_tensor)
                      .label("both bounds")
                      .tensors({"self", "min", "max"})
                      .dtypes(dtypes::kEvery)
                      .promote("min", dtypes::kPartners)
                      .shapes(shapes::kBroadcast3)
                      .deviation(Deviation::computes(
                          "clamp of Bools (False < True); PyTorch's CPU kernel has none (backends/devices/cpu/activation_ops.cpp)",
                          allOf(whenDtype("self", {ScalarType::Bool}), whenDtype("min", {ScalarType::Bool})),
                          computedVia({ScalarType::Bool}, ScalarType::Long, true))));
  cases.push_back(
      OpCase(clamp_tensor).label("min only").tensors({"self", "min"}).dtypes(dtypes::kEvery).shapes(shapes::kBroadcast));
  cases.push_back(
      OpCase(clamp_tensor).label("max only").tensors({"self", "max"}).dtypes(dtypes::kEvery).shapes(shapes::kBroadcast));
}

}  // namespace sy::oracle
