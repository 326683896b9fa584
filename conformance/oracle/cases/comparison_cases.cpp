// The comparisons eq, ne, lt, gt, le, ge and the logical operators (backends/devices/cpu/binary_ops.yaml):
// Bool results, or in place self's dtype.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

void addComparisonCases(std::vector<OpCase>& cases) {
  for (const std::string name : {"eq", "ne", "lt", "gt", "le", "ge"}) {
    const std::string op = "aten::" + name;
    cases.push_back(OpCase({op + ".Tensor", op + ".Tensor_out", "aten::" + name + "_.Tensor"})
                        .tensors({"self", "other"})
                        .promote("other", dtypes::kAll)
                        .shapes(shapes::kBroadcast)
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
    cases.push_back(OpCase({op + ".Scalar", op + ".Scalar_out", "aten::" + name + "_.Scalar"})
                        .tensors({"self"})
                        .shapes(shapes::kOne)
                        .arg("other", {0, 1, -1.5, true})
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  }
  for (const std::string name : {"logical_and", "logical_or", "logical_xor"}) {
    const std::string op = "aten::" + name;
    cases.push_back(OpCase({op, op + ".out", op + "_"})
                        .tensors({"self", "other"})
                        .promote("other", dtypes::kAll)
                        .shapes(shapes::kBroadcast)
                        .out("out", OutDtype::fixedTo(ScalarType::Bool)));
  }
}

}  // namespace sy::oracle
