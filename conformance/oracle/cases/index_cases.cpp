// gather, scatter (value form), index_select and embedding (backends/devices/cpu/index_ops.yaml, nn_ops.yaml).
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {
const OutDtype kLong = OutDtype::fixedTo(ScalarType::Long);
}  // namespace

void addIndexCases(std::vector<OpCase>& cases) {
  // Indices in [0, 2] fit every dimension of every self here but the 0-dim one.
  const std::vector<ShapeSet> gather_shapes{{{3, 4}, {2, 3}}, {{3, 4}, {3, 4}}, {{}, {}},     {{3, 4}, {0, 3}},
                                            {{5}, {3}},       {{3, 4, 5}, {2, 3, 3}}, {{3, 4}, {2}}};
  cases.push_back(OpCase({"aten::gather", "aten::gather.out"})
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(gather_shapes)
                      .arg("dim", {0, 1, -1})
                      .arg("sparse_grad", {false}));
  cases.push_back(OpCase({"aten::gather", "aten::gather.out"})
                      .label("0-dim and out-of-range indices")
                      .tensor("self")
                      .tensor("index", Values::range(-5, 4), kLong)
                      .shapes({{{}, {}}, {{3, 4}, {2, 3}}})
                      .arg("dim", {0, -1}));
  cases.push_back(OpCase({"aten::gather", "aten::gather.out"})
                      .label("Int index")
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), OutDtype::fixedTo(ScalarType::Int))
                      .shapes({{{3, 4}, {2, 3}}})
                      .arg("dim", {0})
                      .errorsOnly());
  cases.push_back(OpCase({"aten::scatter.value", "aten::scatter.value_out"})
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(gather_shapes)
                      .arg("dim", {0, 1, -1})
                      .arg("value", {2, -1.5, true})
                      .out("out", OutDtype::caseDtype()));
  // index_select: indices in [0, 2] fit every dimension here but the 0-dim self's; then Int indices,
  // out-of-range ones and a 2-D index, which both sides refuse.
  const std::vector<ShapeSet> select_shapes{{{3, 4}, {2}}, {{3, 4, 5}, {5}}, {{3, 4}, {0}}, {{3, 4}, {}},
                                            {{0, 3}, {0}}, {{3, 37}, {3}}};
  cases.push_back(OpCase({"aten::index_select", "aten::index_select.out"})
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(select_shapes)
                      .arg("dim", {0, 1, -1}));
  cases.push_back(OpCase({"aten::index_select", "aten::index_select.out"})
                      .label("Int and out-of-range indices")
                      .tensor("self")
                      .tensor("index", Values::range(-3, 4), OutDtype::fixedTo(ScalarType::Int))
                      .shapes({{{3, 4}, {3}}, {{}, {}}, {{}, {1}}, {{3, 4}, {2, 2}}})
                      .arg("dim", {0, -1}));
  const std::vector<ShapeSet> embedding_shapes{{{5, 3}, {2}}, {{5, 3}, {2, 3}}, {{5, 3}, {}}, {{5, 3}, {0}}, {{5, 37}, {4}}};
  cases.push_back(OpCase({"aten::embedding", "aten::embedding.out"})
                      .tensor("weight")
                      .tensor("indices", Values::range(0, 4), kLong)
                      .shapes(embedding_shapes)
                      .arg("padding_idx", {-1, 1})
                      .out("out", OutDtype::caseDtype()));
  cases.push_back(OpCase({"aten::embedding", "aten::embedding.out"})
                      .label("Int and out-of-range indices")
                      .tensor("weight")
                      .tensor("indices", Values::range(-2, 6), OutDtype::fixedTo(ScalarType::Int))
                      .shapes(embedding_shapes)
                      .out("out", OutDtype::caseDtype()));
}

}  // namespace sy::oracle
