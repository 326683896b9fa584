// ProgramScalarType: every element type the program format can name, with its size and spelling.
//
//   std::optional<sy::ProgramScalarType> t = sy::programScalarTypeFromCode(6);  // Float
//   sy::elementSize(*t);                 // 4
//   sy::toSwitchyardScalarType(*t);      // ScalarType::Float (the same number)
//
// Note [Every scalar type of the format loads]
// The format numbers types as PyTorch's c10::ScalarType does (Float = 6), and so does ScalarType
// (See Note [Scalar types are PyTorch's, numbered as PyTorch numbers them]): every type the format
// names (Half, BFloat16, the quantized and 8-bit float types, UInt16 ...) is a ScalarType, so a
// program holding tensors of any of them loads, and a kernel that cannot take one refuses it by
// name when called. The format lacks the complex types and the bit containers other than Bits16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "switchyard/core/scalar_type.h"

namespace sy {

enum class ProgramScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits16 = 22,
  Float8_e5m2 = 23,
  Float8_e4m3fn = 24,
  Float8_e5m2fnuz = 25,
  Float8_e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

// The type with that number, or nullopt for a number the format does not define.
std::optional<ProgramScalarType> programScalarTypeFromCode(int code);
// "Float", "Half", "QUInt4x2" (PyTorch's spelling).
std::string_view toString(ProgramScalarType t);
// Bytes per stored element; the packed sub-byte types (QUInt4x2, QUInt2x4) store one byte per element.
size_t elementSize(ProgramScalarType t);
// The Switchyard tensor type (every type of the format is one; optional for callers written when
// some were not).
std::optional<ScalarType> toSwitchyardScalarType(ProgramScalarType t);
// The format's type for a Switchyard type (nullopt for the complex types, the bit containers other
// than Bits16, and ScalarType::Undefined).
std::optional<ProgramScalarType> toProgramScalarType(ScalarType t);

}  // namespace sy
