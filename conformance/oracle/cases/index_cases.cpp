// gather, scatter (value form), index_select, the mask operators and embedding
// (backends/devices/cpu/index_ops.yaml, nn_ops.yaml).
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
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(gather_shapes)
                      .arg("dim", {0, 1, -1})
                      .arg("sparse_grad", {false}));
  cases.push_back(OpCase({"aten::gather", "aten::gather.out"})
                      .dtypes(dtypes::kEvery)
                      .label("0-dim and out-of-range indices")
                      .tensor("self")
                      .tensor("index", Values::range(-5, 4), kLong)
                      .shapes({{{}, {}}, {{3, 4}, {2, 3}}})
                      .arg("dim", {0, -1}));
  cases.push_back(OpCase({"aten::gather", "aten::gather.out"})
                      .dtypes(dtypes::kEvery)
                      .label("Int index")
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), OutDtype::fixedTo(ScalarType::Int))
                      .shapes({{{3, 4}, {2, 3}}})
                      .arg("dim", {0})
                      .errorsOnly());
  cases.push_back(OpCase({"aten::scatter.value", "aten::scatter.value_out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(gather_shapes)
                      .arg("dim", {0, 1, -1})
                      .arg("value", {2, -1.5, true})
                      .out("out", OutDtype::caseDtype()));
  // scatter.src and scatter_add: src of index's shape or larger. Indices in [0, 2] repeat, so
  // scatter.src's last write wins and scatter_add adds; duplicates make scatter's result order
  // dependent only in PyTorch's parallel kernel, which these sizes do not reach.
  const std::vector<ShapeSet> scatter_src_shapes{{{3, 4}, {2, 3}, {2, 3}}, {{3, 4}, {2, 3}, {3, 4}}, {{}, {}, {}},
                                                 {{3, 4}, {0, 3}, {2, 3}}, {{5}, {3}, {4}},
                                                 {{3, 4, 5}, {2, 3, 3}, {2, 3, 3}}};
  for (const char* op : {"aten::scatter.src", "aten::scatter_add"}) {
    const std::string out_form = std::string(op) == "aten::scatter.src" ? "aten::scatter.src_out" : "aten::scatter_add.out";
    cases.push_back(OpCase({op, out_form})
                        .dtypes(dtypes::kEvery)
                        .tensor("self")
                        .tensor("index", Values::range(0, 2), kLong)
                        .tensor("src")
                        .shapes(scatter_src_shapes)
                        .arg("dim", {0, 1, -1})
                        .out("out", OutDtype::caseDtype()));
  }
  // index_select: indices in [0, 2] fit every dimension here but the 0-dim self's; then Int indices,
  // out-of-range ones and a 2-D index, which both sides refuse.
  const std::vector<ShapeSet> select_shapes{{{3, 4}, {2}}, {{3, 4, 5}, {5}}, {{3, 4}, {0}}, {{3, 4}, {}},
                                            {{0, 3}, {0}}, {{3, 37}, {3}}};
  cases.push_back(OpCase({"aten::index_select", "aten::index_select.out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("index", Values::range(0, 2), kLong)
                      .shapes(select_shapes)
                      .arg("dim", {0, 1, -1}));
  cases.push_back(OpCase({"aten::index_select", "aten::index_select.out"})
                      .dtypes(dtypes::kEvery)
                      .label("Int and out-of-range indices")
                      .tensor("self")
                      .tensor("index", Values::range(-3, 4), OutDtype::fixedTo(ScalarType::Int))
                      .shapes({{{3, 4}, {3}}, {{}, {}}, {{}, {1}}, {{3, 4}, {2, 2}}})
                      .arg("dim", {0, -1}));
  // The mask operators: a Bool mask broadcast with self (both ways out of place).
  const OutDtype kBoolMask = OutDtype::fixedTo(ScalarType::Bool);
  cases.push_back(OpCase({"aten::masked_fill.Scalar", "aten::masked_fill.Scalar_out", "aten::masked_fill_.Scalar"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("mask", Values::any(), kBoolMask)
                      .shapes(shapes::kBroadcast)
                      .arg("value", {2, -1.5, true})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::masked_fill.Scalar")));
  cases.push_back(OpCase({"aten::masked_select", "aten::masked_select.out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("mask", Values::any(), kBoolMask)
                      .shapes(shapes::kBroadcast)
                      .out("out", OutDtype::caseDtype()));
  // masked_scatter: source as large as the broadcast shape, or smaller (refused when too few).
  cases.push_back(OpCase({"aten::masked_scatter", "aten::masked_scatter.out", "aten::masked_scatter_"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .tensor("mask", Values::any(), kBoolMask)
                      .tensor("source")
                      .shapes({{{2, 3}, {2, 3}, {2, 3}}, {{2, 3}, {3}, {7}}, {{3, 1}, {1, 4}, {12}}, {{}, {2, 3}, {6}},
                               {{}, {}, {}}, {{0, 3}, {3}, {0}}, {{2, 3}, {2, 3}, {1}}})
                      .out("out", OutDtype::caseDtype())
                      .deviation(resizesOut("aten::masked_scatter"))
                      .deviation(Deviation::skip(
                          "PyTorch 1.13's in-place masked_scatter_ walks a non-contiguous self in memory order; "
                          "Switchyard (as PyTorch 2.x) takes source's elements in row-major order of self; "
                          "tests/backends/devices/cpu/mask_scatter_shift_test.cpp",
                          [](const CallDescription& call) {
                            return call.op == "aten::masked_scatter_" && call.layout != "contiguous";
                          })));
  cases.push_back(OpCase({"aten::nonzero", "aten::nonzero.out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("self")
                      .shapes(shapes::kOne)
                      .out("out", kLong));
  const std::vector<ShapeSet> embedding_shapes{{{5, 3}, {2}}, {{5, 3}, {2, 3}}, {{5, 3}, {}}, {{5, 3}, {0}}, {{5, 37}, {4}}};
  cases.push_back(OpCase({"aten::embedding", "aten::embedding.out"})
                      .dtypes(dtypes::kEvery)
                      .tensor("weight")
                      .tensor("indices", Values::range(0, 4), kLong)
                      .shapes(embedding_shapes)
                      .arg("padding_idx", {-1, 1})
                      .out("out", OutDtype::caseDtype()));
  cases.push_back(OpCase({"aten::embedding", "aten::embedding.out"})
                      .dtypes(dtypes::kEvery)
                      .label("Int and out-of-range indices")
                      .tensor("weight")
                      .tensor("indices", Values::range(-2, 6), OutDtype::fixedTo(ScalarType::Int))
                      .shapes(embedding_shapes)
                      .out("out", OutDtype::caseDtype()));
}

}  // namespace sy::oracle
