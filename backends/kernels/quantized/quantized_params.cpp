// The checks and readers of quantization parameters the quantized_decomposed:: kernels share
// (quantized_kernels.h).
#include <cstdint>
#include <limits>

#include "switchyard/backends/kernels/quantized/quantized_kernels.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::quantized {

void checkQuantizationRange(const char* op, ScalarType dtype, int64_t quant_min, int64_t quant_max) {
  cpu::dispatchDtype<kQuantizedStorageDtypes>(dtype, op, "dtype", [&](auto tag) {
    using Q = typename decltype(tag)::type;
    const int64_t lowest = std::numeric_limits<Q>::lowest();
    const int64_t highest = std::numeric_limits<Q>::max();
    SY_CHECK_VALUE(quant_min >= lowest, op, ": quant_min ", quant_min, " is out of bounds for dtype ", dtype,
                   ", whose smallest value is ", lowest);
    SY_CHECK_VALUE(quant_max <= highest, op, ": quant_max ", quant_max, " is out of bounds for dtype ", dtype,
                   ", whose largest value is ", highest);
  });
}

double scaleOfTensor(const char* op, const char* argument, const Tensor& scale) {
  cpu::checkOnCPU(op, argument, scale);
  SY_CHECK_VALUE(scale.numel() == 1, op, ": expected '", argument, "' to have one element, but it has ", scale.numel());
  const ScalarType t = scale.scalar_type();
  SY_CHECK_TYPE(t == ScalarType::Double || t == ScalarType::Float, op, ": expected '", argument,
                "' to be a Double or Float tensor, but got ", t);
  return t == ScalarType::Double ? *static_cast<const double*>(scale.data_ptr())
                                 : static_cast<double>(*static_cast<const float*>(scale.data_ptr()));
}

int64_t zeroPointOfTensor(const char* op, const char* argument, const Tensor& zero_point) {
  cpu::checkOnCPU(op, argument, zero_point);
  SY_CHECK_VALUE(zero_point.numel() == 1, op, ": expected '", argument, "' to have one element, but it has ",
                 zero_point.numel());
  const ScalarType t = zero_point.scalar_type();
  SY_CHECK_TYPE(t == ScalarType::Long || t == ScalarType::Int, op, ": expected '", argument,
                "' to be a Long or Int tensor, but got ", t);
  return t == ScalarType::Long ? *static_cast<const int64_t*>(zero_point.data_ptr())
                               : static_cast<int64_t>(*static_cast<const int32_t*>(zero_point.data_ptr()));
}

double parameterAt(const Tensor& t, int64_t i) {
  const int64_t offset = t.dim() == 0 ? 0 : t.dim() == 1 ? i * t.stride(0) : i;
  double value = 0;
  visitScalarType(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    value = static_cast<double>(static_cast<const T*>(t.data_ptr())[offset]);
  });
  return value;
}

Tensor contiguousOperand(const char* op, const char* argument, const Tensor& t) {
  return cpu::contiguousCopyIfNeeded(op, argument, t);
}

void checkQuantizeInput(const char* op, const Tensor& input, ScalarType dtype, int64_t quant_min, int64_t quant_max) {
  cpu::checkOnCPU(op, "input", input);
  cpu::checkDtypeSupported(op, "input", input.scalar_type(), kQuantizedFloatDtypes);
  checkQuantizationRange(op, dtype, quant_min, quant_max);
}

void checkQuantizedOutDtype(const char* op, const Tensor& out, ScalarType dtype) {
  SY_CHECK_TYPE(out.scalar_type() == dtype, op, ": expected 'out' to have the quantized dtype ", dtype,
                " (the 'dtype' argument), but got ", out.scalar_type());
}

}  // namespace sy::quantized
