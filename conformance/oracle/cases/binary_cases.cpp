// The binary arithmetic operators and where (backends/devices/cpu/binary_ops.yaml); comparisons are in
// comparison_cases.cpp.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {

// name.Tensor, name.out, name_.Tensor.
std::vector<std::string> tensorForms(const std::string& name) {
  return {"aten::" + name + ".Tensor", "aten::" + name + ".out", "aten::" + name + "_.Tensor"};
}
// name.Scalar, name.Scalar_out, name_.Scalar.
std::vector<std::string> scalarForms(const std::string& name) {
  return {"aten::" + name + ".Scalar", "aten::" + name + ".Scalar_out", "aten::" + name + "_.Scalar"};
}

// Tensor with tensor: every dtype with every dtype, broadcasting both ways.
OpCase tensorTensor(std::vector<std::string> ops) {
  return OpCase(std::move(ops)).tensors({"self", "other"}).promote("other", dtypes::kAll).shapes(shapes::kBroadcast);
}

// The same over every computed dtype, for the kernels that take them all.
OpCase everyTensorTensor(std::vector<std::string> ops) {
  return OpCase(std::move(ops))
      .tensors({"self", "other"})
      .dtypes(dtypes::kEvery)
      .promote("other", dtypes::kPartners)
      .shapes(shapes::kBroadcast);
}

// Tensor with Scalar: integral, floating and Bool scalars (the Scalar counts as a wrapped number in
// the result type).
OpCase tensorScalar(std::vector<std::string> ops) {
  return OpCase(std::move(ops))
      .tensors({"self"})
      .shapes(shapes::kOne)
      .arg("other", {2, -1.5, true, 0})
      .out("out", OutDtype::resultType("other"));
}

// A Half or BFloat16 quotient rounded by 'trunc' or 'floor' is rounded from its float value, as
// every reduced-precision result is (See Note [Reduced-precision floats compute in float] in
// core/half.h). PyTorch 1.13's vectorised loop rounds the quotient to the reduced type first, and
// only there: its result can be one more where the float quotient lies within half a unit of an
// integer (Byte 241 / Half 1.0039 is 240.06, which Half rounds to 240.0 but 240.97 to 241). The
// expected values are PyTorch's on Float copies, rounded back.
Deviation reducedQuotientsRoundOnce() {
  const Dtypes reduced{ScalarType::Half, ScalarType::BFloat16};
  return Deviation::referenced(
      "a reduced-precision quotient is truncated or floored from its float value; PyTorch 1.13's vectorised "
      "loop rounds it to Half or BFloat16 first",
      [](const CallDescription& c) {
        // Where the result type is Half or BFloat16: no Float or Double operand, no mix of the two.
        auto dtype = [&](const char* name) {
          const auto it = c.dtypes.find(name);
          return it == c.dtypes.end() ? ScalarType::Undefined : it->second;
        };
        const ScalarType self = dtype("self"), other = dtype("other");
        const bool self_reduced = isReducedFloatingType(self), other_reduced = isReducedFloatingType(other);
        const bool any_full = isFloatingType(self) != self_reduced || isFloatingType(other) != other_reduced;
        return (self_reduced || other_reduced) && !any_full && !(self_reduced && other_reduced && self != other);
      },
      computedVia(reduced, ScalarType::Float, true));
}

}  // namespace

void addBinaryCases(std::vector<OpCase>& cases) {
  // add and sub: alpha must be integral for integral operands and is refused for Bool ones.
  for (const char* name : {"add", "sub"}) {
    cases.push_back(everyTensorTensor(tensorForms(name)).arg("alpha", {1, 2, 0.5, true}));
    cases.push_back(tensorScalar(scalarForms(name)).dtypes(dtypes::kEvery).arg("alpha", {1, 2, 0.5}));
  }
  cases.push_back(everyTensorTensor({"aten::mul.Tensor", "aten::mul.out", "aten::mul_.Tensor"}));
  cases.push_back(tensorScalar(scalarForms("mul")).dtypes(dtypes::kEvery));

  // True division: integral operands give Float.
  cases.push_back(
      everyTensorTensor({"aten::div.Tensor", "aten::div.out", "aten::div_.Tensor"}).out("out", OutDtype::floating()));
  cases.push_back(tensorScalar(scalarForms("div")).dtypes(dtypes::kEvery).out("out", OutDtype::floating()));
  // Rounded division; an integral division by zero raises, so the divisors here are nonzero, and
  // the next entry divides by zero on purpose.
  const std::vector<std::string> mode{"aten::div.Tensor_mode", "aten::div.out_mode", "aten::div_.Tensor_mode"};
  cases.push_back(everyTensorTensor(mode)
                      .values("other", Values::nonzeroIntegers())
                      .arg("rounding_mode", {"trunc", "floor", IValue(), "round"})
                      .deviation(reducedQuotientsRoundOnce()));
  cases.push_back(OpCase(mode)
                      .label("by zero")
                      .tensors({"self", "other"})
                      .dtypes(dtypes::kEvery)
                      .values("other", Values::range(0, 0))
                      .shapes({{{2, 3}, {2, 3}}, {{3}, {}}})
                      .arg("rounding_mode", {"trunc", "floor"}));
  const std::vector<std::string> scalar_mode{"aten::div.Scalar_mode", "aten::div.Scalar_mode_out",
                                             "aten::div_.Scalar_mode"};
  cases.push_back(tensorScalar(scalar_mode)
                      .label("rounded")
                      .dtypes(dtypes::kEvery)
                      .deviation(reducedQuotientsRoundOnce())
                      .arg("other", {2, -1.5, 3, true, 0})
                      .arg("rounding_mode", {"trunc", "floor"}));
  cases.push_back(tensorScalar(scalar_mode)
                      .label("true division")
                      .dtypes(dtypes::kEvery)
                      .arg("other", {2, -1.5, true, 0})
                      .arg("rounding_mode", {IValue()})
                      .out("out", OutDtype::floating()));

  // floor_divide is div with rounding_mode='floor' (PyTorch 1.13 floors, as 2.x does).
  cases.push_back(everyTensorTensor({"aten::floor_divide", "aten::floor_divide.out", "aten::floor_divide_.Tensor"})
                      .values("other", Values::nonzeroIntegers())
                      .deviation(reducedQuotientsRoundOnce()));
  // fmod and remainder: nonzero integral divisors, then division by zero on purpose.
  for (const char* name : {"fmod", "remainder"}) {
    const std::string op = std::string("aten::") + name;
    const std::vector<std::string> tensor_forms{op + ".Tensor", op + ".Tensor_out", op + "_.Tensor"};
    cases.push_back(everyTensorTensor(tensor_forms).values("other", Values::nonzeroIntegers()));
    cases.push_back(OpCase(tensor_forms)
                        .label("by zero")
                        .tensors({"self", "other"})
                        .dtypes(dtypes::kEvery)
                        .values("other", Values::range(0, 0))
                        .shapes({{{2, 3}, {2, 3}}, {{3}, {}}}));
    cases.push_back(tensorScalar(scalarForms(name)).dtypes(dtypes::kEvery).arg("other", {2, -1.5, 3, -4, true, 0}));
  }
  cases.push_back(
      everyTensorTensor({"aten::atan2", "aten::atan2.out", "aten::atan2_"}).out("out", OutDtype::floating()));

  // pow: every exponent PyTorch's kernel specialises (0, 1, 0.5, -0.5, -1, 2, 3, -2), a general
  // one, Bool exponents and a negative integer one (refused for integral and Bool tensors; a Bool
  // result is refused whatever the exponent).
  cases.push_back(OpCase({"aten::pow.Tensor_Tensor", "aten::pow.Tensor_Tensor_out", "aten::pow_.Tensor"})
                      .tensors({"self", "exponent"})
                      .dtypes(dtypes::kEvery)
                      .promote("exponent", dtypes::kPartners)
                      .shapes(shapes::kBroadcast));
  cases.push_back(OpCase({"aten::pow.Tensor_Scalar", "aten::pow.Tensor_Scalar_out", "aten::pow_.Scalar"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("exponent", {2, 0, 1, 0.5, -0.5, -1.0, 3, -2.0, 2.5, 1.0, true, false, -3, 0.0})
                      .out("out", OutDtype::resultType("exponent")));
  cases.push_back(OpCase({"aten::pow.Scalar", "aten::pow.Scalar_out"})
                      .tensors({"exponent"})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("self", {2, 1, -1.5, 0.5, 1.0, true, false, -2})
                      .out("out", OutDtype::resultType("self")));

  // Bitwise operators: Bool and integral operands; floating ones are refused on both sides.
  for (const char* name : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    const std::string op = std::string("aten::") + name;
    cases.push_back(tensorTensor({op + ".Tensor", op + ".Tensor_out", op + "_.Tensor"}).dtypes(dtypes::kEvery));
    cases.push_back(tensorScalar(scalarForms(name)).dtypes(dtypes::kEvery).arg("other", {2, -1, true, false, 0, -1.5}));
  }
  // Shifts: integral operands only. Counts stay in [0, 31]: PyTorch 1.13 shifts by a negative count
  // or one past the width as the hardware does (x86 masks the count), which PyTorch 2.x and
  // Switchyard define as 0 or the sign (tests/backends/devices/cpu/mask_scatter_shift_test.cpp).
  for (const char* name : {"bitwise_left_shift", "bitwise_right_shift"}) {
    const std::string op = std::string("aten::") + name;
    cases.push_back(tensorTensor({op + ".Tensor", op + ".Tensor_out", op + "_.Tensor"})
                        .dtypes(dtypes::kEvery)
                        .values("other", Values::range(0, 31)));
    cases.push_back(tensorScalar({op + ".Tensor_Scalar", op + ".Tensor_Scalar_out", op + "_.Tensor_Scalar"})
                        .dtypes(dtypes::kEvery)
                        .arg("other", {2, 0, 31, true, -1.5}));
  }
  // rsub: other - alpha * self, functional and out= only.
  cases.push_back(tensorScalar({"aten::rsub.Scalar", "aten::rsub.Scalar_out"}).dtypes(dtypes::kEvery).arg("alpha", {1, 2, 0.5}));

  // maximum and minimum propagate NaN.
  for (const char* op : {"aten::maximum", "aten::minimum"}) {
    cases.push_back(everyTensorTensor({op, std::string(op) + ".out"}));
  }

  // where: a Bool (or, in PyTorch 1.13, Byte) condition chooses between self and other.
  cases.push_back(OpCase({"aten::where.self", "aten::where.self_out"})
                      .tensor("condition", Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .tensors({"self", "other"})
                      .dtypes(dtypes::kEvery)
                      .promote("other", dtypes::kPartners)
                      .shapes(shapes::kBroadcast3));
  cases.push_back(OpCase({"aten::where.ScalarOther"})
                      .tensor("condition", Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .tensor("self")
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kBroadcast)
                      .arg("other", {2, -1.5, true}));
  cases.push_back(OpCase({"aten::where.ScalarSelf"})
                      .tensor("condition", Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .tensor("other")
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kBroadcast)
                      .arg("self", {2, -1.5, true}));
  cases.push_back(OpCase({"aten::where.Scalar"})
                      .tensor("condition", Values::any(), OutDtype::fixedTo(ScalarType::Bool))
                      .dtypes({ScalarType::Bool})
                      .shapes(shapes::kOne)
                      .arg("self", {2, -1.5, true})
                      .arg("other", {3, 0.25, false})
                      .product());
}

}  // namespace sy::oracle
