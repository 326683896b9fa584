// The comparisons eq, ne, lt, gt, le, ge and the logical operators (backends/devices/cpu/binary_ops.yaml):
// Bool results, or in place self's dtype; and equal, one bool for two whole tensors.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

void addComparisonCases(std::vector<OpCase>& cases) {
  for (const std::string name : {"eq", "ne", "lt", "gt", "le", "ge"}) {
    const std::string op = "aten::" + name;
    cases.push_back(OpCase({op + ".Tensor", op + ".Tensor_out", "aten::" + name + "_.Tensor"})
                        .tensors({"self", "other"})
                        .dtypes(dtypes::kEvery)
                        .promote("other", dtypes::kPartners)
                        .shapes(shapes::kBroadcast)
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
    cases.push_back(OpCase({op + ".Scalar", op + ".Scalar_out", "aten::" + name + "_.Scalar"})
                        .tensors({"self"})
                        .dtypes(dtypes::kEvery)
                        .shapes(shapes::kOne)
                        .arg("other", {0, 1, -1.5, true})
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  }
  // Random values are unequal, so a second case draws all-zero tensors, equal wherever the shapes are.
  const std::vector<ShapeSet> equal_shapes{{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{}, {}}, {{0, 3}, {0, 3}}, {{3, 37}, {3, 37}}};
  cases.push_back(OpCase({"aten::equal"}).tensors({"self", "other"}).dtypes(dtypes::kEvery).shapes(equal_shapes));
  cases.push_back(OpCase({"aten::equal"})
                      .label("zeros")
                      .dtypes(dtypes::kEvery)
                      .tensor("self", Values::range(0, 0), OutDtype::caseDtype())
                      .tensor("other", Values::range(0, 0), OutDtype::caseDtype())
                      .shapes(equal_shapes));
  for (const std::string name : {"logical_and", "logical_or", "logical_xor"}) {
    const std::string op = "aten::" + name;
    cases.push_back(OpCase({op, op + ".out", op + "_"})
                        .tensors({"self", "other"})
                        .dtypes(dtypes::kEvery)
                        .promote("other", dtypes::kPartners)
                        .shapes(shapes::kBroadcast)
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  }
}

}  // namespace sy::oracle
