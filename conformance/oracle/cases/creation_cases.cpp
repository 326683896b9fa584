// The creation operators and _to_copy (backends/devices/cpu/creation_ops.yaml).
#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/ivalue/scalar.h"

namespace sy::oracle {

namespace {
const std::vector<IValue> kSizes{ints({2, 3}), ints({}), ints({0}), ints({3, 37}), ints({-1})};
const std::vector<IValue> kDtypeArgument{kNone,           ScalarType::Float, ScalarType::Long,  ScalarType::Bool,
                                         ScalarType::Int, ScalarType::Double, ScalarType::Byte, ScalarType::Char,
                                         ScalarType::Short, ScalarType::Half, ScalarType::BFloat16};
// The factories without tensors try their dtype through the `dtype` argument (or out's dtype), not
// through the entry's dtypes.
const Dtypes kOnce{ScalarType::Float};
}  // namespace

void addCreationCases(std::vector<OpCase>& cases) {
  cases.push_back(OpCase({"aten::empty.memory_format"})
                      .dtypes(kOnce)
                      .valuesUnspecified()
                      .arg("size", kSizes)
                      .arg("dtype", kDtypeArgument)
                      .arg("memory_format", {kNone, MemoryFormat::Contiguous}));
  // empty_strided: the strides as given, any layout (a stride 0 broadcasts); a negative size or stride
  // and a stride list of another length are refused on both sides.
  cases.push_back(OpCase({"aten::empty_strided"})
                      .dtypes(kOnce)
                      .valuesUnspecified()
                      .arg("size", {ints({2, 3}), ints({0, 3}), ints({-1, 3})})
                      .arg("stride", {ints({3, 1}), ints({1, 2}), ints({0, 1}), ints({1}), ints({1, -1})})
                      .arg("dtype", kDtypeArgument)
                      .product()
                      .deviation(Deviation::refuses("a negative stride is refused even for an empty tensor, which "
                                                    "PyTorch 1.13 takes (no element is ever addressed)",
                                                    whenArgument("stride", ints({1, -1})))));
  // The *_like.out forms take no dtype (out's is the result's): an entry of their own.
  cases.push_back(OpCase({"aten::empty_like"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .valuesUnspecified()
                      .arg("dtype", {kNone, ScalarType::Double}));
  cases.push_back(OpCase({"aten::empty_like.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .valuesUnspecified());
  for (const char* op : {"aten::zeros", "aten::ones"}) {
    cases.push_back(OpCase({op}).dtypes(kOnce).arg("size", kSizes).arg("dtype", kDtypeArgument));
    cases.push_back(OpCase({std::string(op) + ".out"}).dtypes(dtypes::kEvery).arg("size", kSizes));
    cases.push_back(OpCase({std::string(op) + "_like"})
                        .dtypes(dtypes::kEvery)
                        .tensors({"self"})
                        .shapes(shapes::kOne)
                        .arg("dtype", kDtypeArgument));
    cases.push_back(OpCase({std::string(op) + "_like.out"})
                        .dtypes(dtypes::kEvery)
                        .tensors({"self"})
                        .shapes(shapes::kOne));
  }
  const std::vector<IValue> fills{2, -1.5, true, 0};
  cases.push_back(OpCase({"aten::full"}).dtypes(kOnce).arg("size", kSizes).arg("fill_value", fills).arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::full.out"})
                      .dtypes(dtypes::kEvery)
                      .arg("size", kSizes)
                      .arg("fill_value", fills));
  cases.push_back(OpCase({"aten::full_like"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("fill_value", fills)
                      .arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::full_like.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("fill_value", fills));
  cases.push_back(OpCase({"aten::scalar_tensor"}).dtypes(kOnce).arg("s", fills).arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::scalar_tensor.out"}).dtypes(dtypes::kEvery).arg("s", fills));
  // arange: the length is ceil((end - start) / step); integral arguments give Long, others the
  // default dtype.
  const std::vector<IValue> ends{5, 2.5, 0, -3};
  const std::vector<IValue> starts{0, 1, -2.5};
  const std::vector<IValue> steps{1, 2, 0.5, -1, 0};
  cases.push_back(OpCase({"aten::arange"}).dtypes(kOnce).arg("end", ends).arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::arange.out"}).dtypes(dtypes::kEvery).arg("end", ends));
  cases.push_back(OpCase({"aten::arange.start"}).dtypes(kOnce).arg("start", starts).arg("end", ends).arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::arange.start_step"})
                      .dtypes(kOnce)
                      .arg("start", starts)
                      .arg("end", ends)
                      .arg("step", steps)
                      .arg("dtype", kDtypeArgument));
  cases.push_back(OpCase({"aten::arange.start_out"})
                      .dtypes(dtypes::kEvery)
                      .arg("start", starts)
                      .arg("end", ends)
                      .arg("step", steps));
  // _to_copy converts to `dtype` (or, out=, to out's dtype).
  cases.push_back(OpCase({"aten::_to_copy"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .arg("dtype", kDtypeArgument)
                      .arg("memory_format", {kNone, MemoryFormat::Contiguous, MemoryFormat::Preserve}));
  cases.push_back(OpCase({"aten::_to_copy.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .second(dtypes::kAll)
                      .out("out", OutDtype::second())
                      .arg("memory_format", {kNone, MemoryFormat::Contiguous, MemoryFormat::Preserve}));
  // fill: a tensor of self's shape and dtype holding one value (a 0-dim tensor's for fill.Tensor).
  cases.push_back(OpCase({"aten::fill.Scalar", "aten::fill.Scalar_out", "aten::fill_.Scalar"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shapes::kOne)
                      .out("out", OutDtype::caseDtype())
                      .arg("value", {2, -1.5, true, int64_t{3000000000}}));
  cases.push_back(OpCase({"aten::fill.Tensor", "aten::fill.Tensor_out", "aten::fill_.Tensor"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self", "value"})
                      .promote("value", dtypes::kEvery)
                      .out("out", OutDtype::caseDtype())
                      .shapes({{{2, 3}, {}}, {{}, {}}, {{0, 3}, {}}, {{3, 37}, {}}, {{2, 3}, {1}}})
                      .deviation(Deviation::skip(
                          "a NaN value converts to Int or Long only by undefined behaviour in PyTorch 1.13 (its "
                          "overflow check lets NaN through); Switchyard raises, as for full: a Scalar converts only to "
                          "a type that can hold it",
                          allOf(whenEdgeValues(),
                                allOf(whenDtype("self", dtypes::kEveryIntegral),
                                      whenDtype("value", dtypes::kEveryFloating))))));
  cases.push_back(OpCase({"aten::empty.out"}).dtypes(dtypes::kEvery).valuesUnspecified().arg("size", kSizes));
}

}  // namespace sy::oracle
