// The reductions and softmax (backends/devices/cpu/reduction_ops.yaml).
#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"

#include <algorithm>

#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/core/error.h"

namespace sy::oracle {

namespace {

// any.dims (PyTorch 2.2): PyTorch 1.13's self != 0 reduced by any.dim over each listed dim (every
// dim when None, none for an empty list), written into out for the out= form.
Reference anyOverDims() {
  return [](const FunctionSchema& schema, Stack& stack) {
    const std::vector<IValue> arguments(stack.begin(), stack.end());
    const Tensor self = arguments[0].toTensor();
    const bool keepdim = arguments[2].toBool();
    const int64_t bound = std::max<int64_t>(self.dim(), 1);
    std::vector<int64_t> dims;
    if (arguments[1].isNone()) {
      for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
    } else {
      for (int64_t d : arguments[1].toIntVector()) {
        SY_CHECK_INDEX(d >= -bound && d < bound, "Dimension out of range (expected to be in range of [", -bound, ", ",
                       bound - 1, "], but got ", d, ")");
        const int64_t wrapped = d < 0 ? d + bound : d;
        SY_CHECK(std::find(dims.begin(), dims.end(), wrapped) == dims.end(), "dim ", wrapped,
                 " appears multiple times in the list of dims");
        dims.push_back(wrapped);
      }
    }
    std::sort(dims.rbegin(), dims.rend());
    IValue result = torchCallWithFloatCopies("aten::ne.Scalar", {arguments[0], IValue(int64_t{0})})[0];
    for (int64_t d : dims) result = torchCall("aten::any.dim", {result, IValue(d), IValue(keepdim)})[0];
    // any of a Byte tensor is Byte, as PyTorch's any.dim gives it.
    if (self.scalar_type() == ScalarType::Byte) result = convertedTo(result.toTensor(), ScalarType::Byte);
    stack.clear();
    if (arguments.size() > 3) {
      writeOut(arguments[3].toTensor(), result.toTensor());
      stack.push_back(arguments[3]);
    } else {
      stack.push_back(result);
    }
    (void)schema;
  };
}

}  // namespace

void addReductionCases(std::vector<OpCase>& cases) {
  const std::vector<IValue> dim_lists{ints({0}), ints({-1}), ints({0, 1}), kNone, ints({})};
  // sum: Bool and integral inputs sum to Long unless dtype says otherwise.
  cases.push_back(OpCase({"aten::sum", "aten::sum.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dtype", {kNone, ScalarType::Double, ScalarType::Long, ScalarType::Int})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  cases.push_back(OpCase({"aten::sum.dim_IntList", "aten::sum.IntList_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::Double})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  // See Note [Complex sums add in ComplexDouble] in backends/devices/cpu/reduction_ops.cpp.
  cases.push_back(OpCase({"aten::sum.dim_IntList", "aten::sum.IntList_out"})
                      .label("complex")
                      .tensors({"self"})
                      .dtypes(dtypes::kComplex)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::ComplexDouble}));
  // mean: floating inputs (or a floating dtype) only.
  auto mean = [](std::vector<std::string> ops) {
    return OpCase(std::move(ops))
        .tensors({"self"})
        .dtypes(dtypes::kEvery)
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
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::Double})
                      .out("out", OutDtype::caseDtype().orArgument("dtype")));
  cases.push_back(OpCase({"aten::amax", "aten::amax.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {ints({}), ints({0}), ints({-1}), ints({0, 1})})
                      .arg("keepdim", {false, true}));
  cases.push_back(OpCase({"aten::amin", "aten::amin.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {ints({}), ints({0}), ints({-1}), ints({0, 1})})
                      .arg("keepdim", {false, true}));
  cases.push_back(OpCase({"aten::max"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(shapes::kOne));
  cases.push_back(OpCase({"aten::max.unary_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .reference("max.unary_out came after PyTorch 1.13; the out form of its aten::max",
                                 outOfFunctional("aten::max")));
  cases.push_back(OpCase({"aten::min"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(shapes::kOne));
  cases.push_back(OpCase({"aten::min.unary_out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .reference("min.unary_out came after PyTorch 1.13; the out form of its aten::min",
                                 outOfFunctional("aten::min")));
  cases.push_back(OpCase({"aten::max.dim", "aten::max.dim_max"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1})
                      .arg("keepdim", {false, true})
                      .out("max", OutDtype::caseDtype())
                      .out("max_values", OutDtype::fixedTo(ScalarType::Long)));
  cases.push_back(OpCase({"aten::min.dim", "aten::min.dim_min"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1})
                      .arg("keepdim", {false, true})
                      .out("min", OutDtype::caseDtype())
                      .out("min_indices", OutDtype::fixedTo(ScalarType::Long)));
  cases.push_back(OpCase({"aten::prod", "aten::prod.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dtype", {kNone, ScalarType::Double, ScalarType::Long})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  cases.push_back(OpCase({"aten::prod.dim_int", "aten::prod.int_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1})
                      .arg("keepdim", {false, true})
                      .arg("dtype", {kNone, ScalarType::Double})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  cases.push_back(OpCase({"aten::cumsum", "aten::cumsum.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1})
                      .arg("dtype", {kNone, ScalarType::Double, ScalarType::Long})
                      .out("out", OutDtype::integralToLong().orArgument("dtype")));
  // var and var_mean: floating self only; correction an int here (1.13's schema says int?).
  cases.push_back(OpCase({"aten::var.dim", "aten::var.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("unbiased", {true, false})
                      .arg("keepdim", {false, true}));
  cases.push_back(OpCase({"aten::var.correction", "aten::var.correction_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("correction", {kNone, 0, 2})
                      .arg("keepdim", {false, true}));
  cases.push_back(OpCase({"aten::var_mean.correction", "aten::var_mean.correction_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", dim_lists)
                      .arg("correction", {kNone, 0, 2})
                      .arg("keepdim", {false, true})
                      .out("out0", OutDtype::caseDtype())
                      .out("out1", OutDtype::caseDtype())
                      .deviation(Deviation::skip("PyTorch 1.13's Welford mean of a slice holding an infinity is NaN; "
                                                 "Switchyard sums first, so the mean is that infinity",
                                                 whenEdgeValues())));
  const OutDtype kBoolOut = OutDtype::fixedTo(ScalarType::Bool);
  cases.push_back(OpCase({"aten::any", "aten::any.all_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .out("out", kBoolOut));
  cases.push_back(OpCase({"aten::any.dim", "aten::any.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {0, -1, 1})
                      .arg("keepdim", {false, true})
                      .out("out", kBoolOut));
  cases.push_back(OpCase({"aten::any.dims", "aten::any.dims_out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {kNone, ints({0}), ints({-1}), ints({0, 1}), ints({})})
                      .arg("keepdim", {false, true})
                      .out("out", kBoolOut)
                      .reference("any.dims came with PyTorch 2.2: any.dim over each listed dim", anyOverDims()));
  for (const char* op : {"aten::argmax", "aten::argmin"}) {
  cases.push_back(OpCase({op, std::string(op) + ".out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("dim", {kNone, 0, -1, 1})
                      .arg("keepdim", {false, true})
                      .out("out", OutDtype::fixedTo(ScalarType::Long))
                      .deviation(Deviation::computes("argmax and argmin take every dtype, Bool too "
                                                     "(backends/devices/cpu/arg_reduction_ops.cpp); "
                                                     "PyTorch 1.13's CPU kernel refuses Bool",
                                                     allOf(whenDtype("self", {ScalarType::Bool}), whenNot(whenEmpty())),
                                                     computedVia({ScalarType::Bool}, ScalarType::Long, false))));
  }
  // PyTorch returns an empty tensor before it looks at the dtype; Switchyard checks it first.
  const When empty_integral_input =
      allOf(whenDtype("self", {ScalarType::Bool, ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
                               ScalarType::Long}),
            whenEmpty());
  const std::string why = "softmax of an empty Bool or integral tensor is refused; PyTorch returns before checking the dtype";
  // PyTorch 1.13's BFloat16 log_softmax kernel gives NaN beside infinities along a non-last dim where
  // its Float kernel does not; Switchyard computes BFloat16 in float.
  const Deviation bfloat16_in_float = Deviation::referenced(
      "BFloat16 computes as PyTorch's Float kernel, rounded once (its 1.13 BFloat16 kernel differs at infinities)",
      whenDtype("self", {ScalarType::BFloat16}), computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
  for (const char* op : {"aten::_softmax", "aten::_log_softmax"}) {
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .tensors({"self"})
                        .dtypes(dtypes::kEvery)
                        .shapes(shapes::kOne)
                        .arg("dim", {-1, 0, 1})
                        .arg("half_to_float", {false})
                        .deviation(Deviation::refuses(why, empty_integral_input))
                        .deviation(bfloat16_in_float));
  }
  for (const char* op : {"aten::softmax", "aten::log_softmax"}) {
    cases.push_back(OpCase({std::string(op) + ".int", std::string(op) + ".int_out"})
                        .tensors({"self"})
                        .dtypes(dtypes::kEvery)
                        .shapes(shapes::kOne)
                        .arg("dim", {-1, 0, 1})
                        .arg("dtype", {kNone, ScalarType::Double, ScalarType::Float})
                        .out("out", OutDtype::caseDtype().orArgument("dtype"))
                        .deviation(Deviation::refuses(why, allOf(empty_integral_input, whenArgument("dtype", kNone))))
                        .deviation(Deviation::referenced(bfloat16_in_float.why,
                                                         allOf(whenDtype("self", {ScalarType::BFloat16}),
                                                               whenArgument("dtype", kNone)),
                                                         bfloat16_in_float.reference)));
  }
}

}  // namespace sy::oracle
