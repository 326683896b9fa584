// The quantized_decomposed:: operators PyTorch 1.13 can answer through an equivalent of its own:
// quantize_per_tensor over the full range of Byte and Char is aten::quantize_per_tensor to quint8
// and qint8 (fbgemm's float arithmetic: x * (1 / scale) rounded half to even, plus the zero point,
// clamped), whose bytes are the integers. Every quantized_decomposed:: operator is also an
// exclusion (cases.cpp; PyTorch 1.13 has no such library) and is checked against a double reference
// in tests/backends/kernels/quantized/.
#include <cstring>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {
namespace {

// aten::quantize_per_tensor(input, scale, zero_point, quantized) read back as the integers of
// `storage` (the quantized tensor's own bytes), written into the out= argument when there is one.
void quantizeViaPyTorch(const FunctionSchema& schema, Stack& stack, ScalarType quantized, ScalarType storage) {
  const std::vector<IValue> q = torchCall("aten::quantize_per_tensor", {stack[0], stack[1], stack[2], IValue(quantized)});
  const Tensor qt = q.at(0).toTensor();
  Tensor values = empty(qt.sizes(), storage);
  if (qt.numel() > 0) std::memcpy(values.data_ptr(), qt.data_ptr(), static_cast<size_t>(qt.numel()));
  if (!schema.arguments().back().is_out()) {
    stack = Stack{values};
    return;
  }
  Tensor out = stack.back().toTensor();
  writeOut(out, values);
  stack = Stack{out};
}

}  // namespace

void addQuantizedCases(std::vector<OpCase>& cases) {
  const char* why = "PyTorch 1.13 has no quantized_decomposed library; its aten::quantize_per_tensor to a quantized "
                    "dtype computes the same integers over the dtype's full range";
  cases.push_back(OpCase({"quantized_decomposed::quantize_per_tensor.out", "quantized_decomposed::quantize_per_tensor"})
                      .label("Byte")
                      .tensors({"input"})
                      .dtypes({ScalarType::Float})
                      .shapes(shapes::kOne)
                      .noEdgeValues()
                      .arg("scale", {0.125, 0.5, 0.03125})
                      .arg("zero_point", {int64_t{128}, int64_t{3}})
                      .arg("quant_min", {int64_t{0}})
                      .arg("quant_max", {int64_t{255}})
                      .arg("dtype", {IValue(ScalarType::Byte)})
                      .out("out", OutDtype::fixedTo(ScalarType::Byte))
                      .reference(why, [](const FunctionSchema& schema, Stack& stack) {
                        quantizeViaPyTorch(schema, stack, ScalarType::QUInt8, ScalarType::Byte);
                      }));
  cases.push_back(OpCase({"quantized_decomposed::quantize_per_tensor.out", "quantized_decomposed::quantize_per_tensor"})
                      .label("Char")
                      .tensors({"input"})
                      .dtypes({ScalarType::Float})
                      .shapes(shapes::kOne)
                      .noEdgeValues()
                      .arg("scale", {0.125, 0.03125})
                      .arg("zero_point", {int64_t{0}, int64_t{-5}})
                      .arg("quant_min", {int64_t{-128}})
                      .arg("quant_max", {int64_t{127}})
                      .arg("dtype", {IValue(ScalarType::Char)})
                      .out("out", OutDtype::fixedTo(ScalarType::Char))
                      .reference(why, [](const FunctionSchema& schema, Stack& stack) {
                        quantizeViaPyTorch(schema, stack, ScalarType::QInt8, ScalarType::Char);
                      }));
}

}  // namespace sy::oracle
