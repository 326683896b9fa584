// The reductions and softmax (backends/devices/cpu/reduction_ops.yaml).
#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"

namespace sy::oracle {

void addReductionCases(std::vector<OpCase>& cases) {
  const std::vector<IValue> dim_lists{ints({0}), ints({-1}), ints({0, 1}), kNone, ints({})};
  // sum: Bool and integral inputs sum to Long unless dtype says otherwise.
  cases.push_back(OpCase({"aten::sum", "aten::sum.out"})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dtype", {kNone, ScalarType::Double, ScalarType::Long, ScalarType::Int})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  cases.push_back(OpCase({"aten::sum.dim_IntList", "aten::sum.IntList_out"})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::Double})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  // mean: floating inputs (or a floating dtype) only.
  auto mean = [](std::vector<std::string> ops) {
    return OpCase(std::move(ops))
        .tensors({"self"})
        .shapes(shapes::kOne)
        .arg("dtype", {kNone, ScalarType::Double, ScalarType::Float})
        .out("out", OutDtype::caseDtype().orArgument("dtype"));
  };
  cases.push_back(mean({"aten::mean"}));
  cases.push_back(mean({"aten::mean.dtype_out"})
                      .reference("mean.dtype_out came after PyTorch 1.13; the out form of its aten::mean",
                                 outOfFunctional("aten::mean")));
  cases.push_back(OpCase({"aten::mean.dim", "aten::mean.out"})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::Double})
                      .out("out", OutDtype::caseDtype().orArgument("dtype")));
  cases.push_back(OpCase({"aten::amax", "aten::amax.out"})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", {ints({}), ints({0}), ints({-1}), ints({0, 1})})
                      .arg("keepdim", {false, true}));
  cases.push_back(OpCase({"aten::argmax", "aten::argmax.out"})
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", {kNone, 0, -1, 1})
                      .arg("keepdim", {false, true})
                      .out("out", OutDtype::fixedTo(ScalarType::Long))
                      .deviation(Deviation::computes("argmax takes every dtype, Bool too (backends/devices/cpu/softmax_ops.cpp); "
                                                     "PyTorch 1.13's CPU kernel refuses Bool",
                                                     allOf(whenDtype("self", {ScalarType::Bool}), whenNot(whenEmpty())),
                                                     computedVia({ScalarType::Bool}, ScalarType::Long, false))));
  // PyTorch returns an empty tensor before it looks at the dtype; Switchyard checks it first.
  const When empty_integral_input =
      allOf(whenDtype("self", {ScalarType::Bool, ScalarType::Int, ScalarType::Long}), whenEmpty());
  const std::string why = "softmax of an empty Bool or integral tensor is refused; PyTorch returns before checking the dtype";
  for (const char* op : {"aten::_softmax", "aten::_log_softmax"}) {
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .tensors({"self"})
                        .shapes(shapes::kOne)
                        .arg("dim", {-1, 0, 1})
                        .arg("half_to_float", {false})
                        .deviation(Deviation::refuses(why, empty_integral_input)));
  }
  for (const char* op : {"aten::softmax", "aten::log_softmax"}) {
    cases.push_back(OpCase({std::string(op) + ".int", std::string(op) + ".int_out"})
                        .tensors({"self"})
                        .shapes(shapes::kOne)
                        .arg("dim", {-1, 0, 1})
                        .arg("dtype", {kNone, ScalarType::Double, ScalarType::Float})
                        .out("out", OutDtype::caseDtype().orArgument("dtype"))
                        .deviation(Deviation::refuses(why, allOf(empty_integral_input, whenArgument("dtype", kNone)))));
  }
}

}  // namespace sy::oracle
