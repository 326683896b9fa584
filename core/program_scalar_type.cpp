#include "switchyard/core/program_scalar_type.h"

namespace sy {

namespace {
struct TypeInfo {
  ProgramScalarType type;
  std::string_view name;
  size_t size;
};

constexpr TypeInfo kTypes[] = {
    {ProgramScalarType::Byte, "Byte", 1},
    {ProgramScalarType::Char, "Char", 1},
    {ProgramScalarType::Short, "Short", 2},
    {ProgramScalarType::Int, "Int", 4},
    {ProgramScalarType::Long, "Long", 8},
    {ProgramScalarType::Half, "Half", 2},
    {ProgramScalarType::Float, "Float", 4},
    {ProgramScalarType::Double, "Double", 8},
    {ProgramScalarType::Bool, "Bool", 1},
    {ProgramScalarType::QInt8, "QInt8", 1},
    {ProgramScalarType::QUInt8, "QUInt8", 1},
    {ProgramScalarType::QInt32, "QInt32", 4},
    {ProgramScalarType::BFloat16, "BFloat16", 2},
    {ProgramScalarType::QUInt4x2, "QUInt4x2", 1},
    {ProgramScalarType::QUInt2x4, "QUInt2x4", 1},
    {ProgramScalarType::Bits16, "Bits16", 2},
    {ProgramScalarType::Float8_e5m2, "Float8_e5m2", 1},
    {ProgramScalarType::Float8_e4m3fn, "Float8_e4m3fn", 1},
    {ProgramScalarType::Float8_e5m2fnuz, "Float8_e5m2fnuz", 1},
    {ProgramScalarType::Float8_e4m3fnuz, "Float8_e4m3fnuz", 1},
    {ProgramScalarType::UInt16, "UInt16", 2},
    {ProgramScalarType::UInt32, "UInt32", 4},
    {ProgramScalarType::UInt64, "UInt64", 8},
};

const TypeInfo* find(int code) {
  for (const TypeInfo& info : kTypes) {
    if (static_cast<int>(info.type) == code) return &info;
  }
  return nullptr;
}
}  // namespace

std::optional<ProgramScalarType> programScalarTypeFromCode(int code) {
  const TypeInfo* info = find(code);
  if (info == nullptr) return std::nullopt;
  return info->type;
}

std::string_view toString(ProgramScalarType t) {
  const TypeInfo* info = find(static_cast<int>(t));
  return info != nullptr ? info->name : "<unknown scalar type>";
}

size_t elementSize(ProgramScalarType t) {
  const TypeInfo* info = find(static_cast<int>(t));
  return info != nullptr ? info->size : 0;
}

std::optional<ScalarType> toSwitchyardScalarType(ProgramScalarType t) {
  if (find(static_cast<int>(t)) == nullptr) return std::nullopt;
  return static_cast<ScalarType>(t);
}

std::optional<ProgramScalarType> toProgramScalarType(ScalarType t) { return programScalarTypeFromCode(static_cast<int>(t)); }

}  // namespace sy
