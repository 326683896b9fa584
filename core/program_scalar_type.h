// ProgramScalarType: every element type the program format can name, with its size and spelling.
//
//   std::optional<sy::ProgramScalarType> t = sy::programScalarTypeFromCode(6);  // Float
//   sy::elementSize(*t);                 // 4
//   sy::toSwitchyardScalarType(*t);      // ScalarType::Float; nullopt for Half, UInt16, ...
//
// Note [Every scalar type of the format loads]
// The format numbers types as PyTorch's c10::ScalarType does (Float = 6), and a program may hold
// tensors of types Switchyard's tensors cannot (Half, BFloat16, quantized and 8-bit float types,
// UInt16 ...). The loader knows them all: their sizes, for bounds checks, and their names, for
// inspection and messages, so such a program loads and can be inspected. Only making a tensor of
// one (loading a method that computes with it) is an error, naming the value and the type.
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
// The Switchyard tensor type, when Switchyard tensors can hold this type.
std::optional<ScalarType> toSwitchyardScalarType(ProgramScalarType t);
// The format's type for a Switchyard type (nullopt only for ScalarType::Undefined).
std::optional<ProgramScalarType> toProgramScalarType(ScalarType t);

}  // namespace sy
