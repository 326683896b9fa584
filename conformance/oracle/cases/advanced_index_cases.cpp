// index.Tensor and index_put: advanced indexing with a list of optional index tensors
// (backends/devices/cpu/index_ops.yaml, index_tensor_ops.cpp). PyTorch 1.13 takes Long and Bool
// indices only (Int came later); Int indices are checked in tests/backends/devices/cpu/advanced_index_test.cpp.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {
const OutDtype kAdvancedIndexLong = OutDtype::fixedTo(ScalarType::Long);
const Shape& kSkipIndex = shapes::kNoneTensor;
}  // namespace

void addAdvancedIndexCases(std::vector<OpCase>& cases) {
  // Two entries, negative ones included; every indexed dimension here has at least 3 elements.
  cases.push_back(OpCase({"aten::index.Tensor", "aten::index.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensorList("indices", 2, Values::range(-3, 2), kAdvancedIndexLong)
                      .shapes({{{3, 4}, {2}, {2}},
                               {{3, 4}, kSkipIndex, {5}},
                               {{3, 4, 5}, {2, 1}, {3}},
                               {{3, 4, 5}, kSkipIndex, {2, 2}},
                               {{3, 4, 5}, {0}, kSkipIndex},
                               {{0, 4}, kSkipIndex, {2}},
                               {{3, 4}, {}, {}},
                               {{3, 37}, {4}, kSkipIndex}})
                      .out("out", OutDtype::caseDtype()));
  // Index tensors apart (B comes first), too many, not broadcastable; then out of range. (All None
  // trips an internal assert in PyTorch 1.13; advanced_index_test.cpp checks Switchyard's copy.)
  cases.push_back(OpCase({"aten::index.Tensor", "aten::index.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .label("separated, too many and unbroadcastable indices")
                      .tensor("self")
                      .tensorList("indices", 3, Values::range(-3, 2), kAdvancedIndexLong)
                      .shapes({{{3, 4, 5}, {2}, kSkipIndex, {2}},
                               {{3, 4, 5}, {2, 1}, kSkipIndex, {3}},
                               {{3, 4}, {2}, {2}, {2}},
                               {{3, 4, 5}, {2}, {3}, kSkipIndex}})
                      .out("out", OutDtype::caseDtype()));
  cases.push_back(OpCase({"aten::index.Tensor", "aten::index.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .label("out-of-range indices")
                      .tensor("self")
                      .tensorList("indices", 2, Values::range(-7, 6), kAdvancedIndexLong)
                      .shapes({{{3, 4}, {6}, kSkipIndex}, {{3, 4}, kSkipIndex, {6}}})
                      .errorsOnly()
                      .out("out", OutDtype::caseDtype()));
  // Bool masks over one or two dimensions, and one of the wrong shape.
  cases.push_back(OpCase({"aten::index.Tensor", "aten::index.Tensor_out"})
                      .dtypes(dtypes::kEvery)
                      .label("Bool masks")
                      .tensor("self")
                      .tensorList("indices", 1, Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .shapes({{{3, 4}, {3, 4}}, {{3, 4}, {3}}, {{3, 4, 5}, {3, 4}}, {{3, 4}, {4}}, {{0, 4}, {0}}})
                      .out("out", OutDtype::caseDtype()));
  // index_put: values of the indexing result's shape or broadcast to it, added or written.
  cases.push_back(OpCase({"aten::index_put", "aten::index_put.out", "aten::index_put_"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensorList("indices", 2, Values::range(-3, 2), kAdvancedIndexLong)
                      .tensor("values")
                      .shapes({{{3, 4}, {2}, {2}, {2}},
                               {{3, 4}, {2}, {2}, {}},
                               {{3, 4}, kSkipIndex, {2}, {3, 2}},
                               {{3, 4}, kSkipIndex, {2}, {2}},
                               {{3, 4, 5}, {2, 1}, {3}, {5}},
                               {{3, 4}, {2}, {2}, {3}},
                               {{0, 4}, kSkipIndex, {2}, {0, 2}}})
                      .arg("accumulate", {true, false})
                      .out("out", OutDtype::caseDtype()));
  cases.push_back(OpCase({"aten::index_put", "aten::index_put.out", "aten::index_put_"})
                      .dtypes(dtypes::kEvery)
                      .label("Bool masks")
                      .tensor("self")
                      .tensorList("indices", 1, Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .tensor("values")
                      .shapes({{{3, 4}, {3, 4}, {}}, {{3, 4}, {3}, {4}}})
                      .arg("accumulate", {true, false})
                      .out("out", OutDtype::caseDtype()));
}

}  // namespace sy::oracle
