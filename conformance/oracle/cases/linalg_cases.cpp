// The matrix products (backends/devices/cpu/linalg_ops.yaml).
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {
// Matrix products of Bool, or of two dtypes, are refused on both sides, except that PyTorch returns
// an empty result before it looks at the dtypes.
// PyTorch 1.13 accumulates BFloat16 products in BFloat16; Switchyard accumulates in float and rounds
// once, as PyTorch 2's CPU kernels do, so BFloat16 calls compare with PyTorch's Float product rounded back.
Deviation bfloat16InFloat(const std::string& tensor) {
  return Deviation::referenced("PyTorch 1.13 accumulates BFloat16 products in BFloat16; Switchyard in float",
                               whenDtype(tensor, {ScalarType::BFloat16}),
                               computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
}

Deviation boolProducts(const std::string& tensor, const std::string& other) {
  return Deviation::refuses(
      "Bool matrix products, and products of two dtypes, are refused; PyTorch refuses them too unless a "
      "dimension is empty",
      anyOf(whenDtype(tensor, {ScalarType::Bool}), whenDtypesDiffer(tensor, other)));
}
}  // namespace

void addLinalgCases(std::vector<OpCase>& cases) {
  cases.push_back(OpCase({"aten::mm", "aten::mm.out"})
                      .tensors({"self", "mat2"})
                      .promote("mat2", dtypes::kAll)
                      .shapes({{{2, 3}, {3, 4}}, {{0, 3}, {3, 4}}, {{2, 0}, {0, 4}}, {{1, 37}, {37, 2}}, {{2, 3}, {4, 5}},
                               {{3}, {3, 4}}})
                      .deviation(boolProducts("self", "mat2")));
  cases.push_back(OpCase({"aten::bmm", "aten::bmm.out"})
                      .tensors({"self", "mat2"})
                      .promote("mat2", dtypes::kAll)
                      .shapes({{{2, 2, 3}, {2, 3, 4}}, {{0, 2, 3}, {0, 3, 4}}, {{2, 0, 3}, {2, 3, 4}},
                               {{2, 2, 3}, {1, 3, 4}}, {{2, 3}, {3, 4}}})
                      .deviation(boolProducts("self", "mat2")));
  // Every computed dtype, both operands of one dtype.
  for (const char* op : {"aten::mm", "aten::bmm"}) {
    const bool batched = std::string(op) == "aten::bmm";
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .label("every dtype")
                        .tensors({"self", "mat2"})
                        .dtypes(dtypes::kEvery)
                        .shapes(batched ? std::vector<ShapeSet>{{{2, 2, 3}, {2, 3, 4}}, {{2, 1, 37}, {2, 37, 2}}}
                                        : std::vector<ShapeSet>{{{2, 3}, {3, 4}}, {{1, 37}, {37, 2}}})
                        .deviation(boolProducts("self", "mat2"))
                        .deviation(bfloat16InFloat("self")));
  }
  // bmm's complex products are its "every dtype" entry's complex variant (See Note [The complex
  // dtypes a kernel declares are checked too] in cases.cpp); mm refuses them (complex_arithmetic_test.cpp).
  cases.push_back(OpCase({"aten::addmm", "aten::addmm.out", "aten::addmm_"})
                      .tensors({"self", "mat1", "mat2"})
                      .dtypes(dtypes::kEvery)
                      .shapes({{{2, 4}, {2, 3}, {3, 4}}, {{4}, {2, 3}, {3, 4}}, {{}, {2, 3}, {3, 4}},
                               {{1, 4}, {2, 3}, {3, 4}}, {{2, 4}, {2, 0}, {0, 4}}, {{3}, {2, 3}, {3, 4}}})
                      .arg("beta", {1, 0, 0.5})
                      .arg("alpha", {1, 2, 0.5})
                      .deviation(boolProducts("mat1", "mat2"))
                      .deviation(bfloat16InFloat("mat1"))
                      .deviation(Deviation::refuses(
                          "a floating beta or alpha with integral tensors is refused (as add refuses such an alpha); "
                          "PyTorch 1.13's addmm truncates it",
                          allOf(whenDtype("mat1", dtypes::kEveryIntegral),
                                anyOf(whenArgument("beta", 0.5), whenArgument("alpha", 0.5))))));
  cases.push_back(OpCase({"aten::linear", "aten::linear.out"})
                      .tensors({"input", "weight", "bias"})
                      .dtypes(dtypes::kEvery)
                      .shapes({{{2, 3}, {4, 3}, {4}}, {{5, 2, 3}, {4, 3}, {4}}, {{3}, {4, 3}, {4}}, {{2, 3}, {4, 3}, {}},
                               {{0, 3}, {4, 3}, {4}}, {{2, 3}, {4, 2}, {4}}})
                      .deviation(boolProducts("input", "weight"))
                      .deviation(bfloat16InFloat("input")));
  cases.push_back(OpCase({"aten::linear", "aten::linear.out"})
                      .label("no bias")
                      .tensors({"input", "weight"})
                      .dtypes(dtypes::kEvery)
                      .shapes({{{2, 3}, {4, 3}}, {{3}, {4, 3}}, {{2, 3}, {3}}})
                      .deviation(boolProducts("input", "weight"))
                      .deviation(Deviation::refuses("a 1-D weight (PyTorch's matmul then gives one value per row) is "
                                                    "refused; linear takes a 2-D weight",
                                                    [](const CallDescription& c) { return c.shapes.at("weight").size() == 1; }))
                      .deviation(bfloat16InFloat("input")));
}

}  // namespace sy::oracle
