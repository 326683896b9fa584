// Internal to the schema parser and printer: the identifiers a default value may be spelled with.
// One table serves both directions, so what toString prints is what parseSchema reads back.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/types/span.h"
#include "switchyard/dispatcher/function_schema.h"

namespace sy::detail {

struct NamedSchemaConstant {
  std::string_view name;
  int64_t value;
};

inline constexpr NamedSchemaConstant kMemoryFormatConstants[] = {
    {"contiguous_format", static_cast<int64_t>(MemoryFormat::Contiguous)},
    {"preserve_format", static_cast<int64_t>(MemoryFormat::Preserve)},
    {"channels_last", static_cast<int64_t>(MemoryFormat::ChannelsLast)},
};
inline constexpr NamedSchemaConstant kLayoutConstants[] = {{"strided", static_cast<int64_t>(Layout::Strided)}};
// PyTorch's at::Reduction, spelled in schemas such as `int reduction=Mean`.
inline constexpr NamedSchemaConstant kReductionConstants[] = {{"Mean", 1}, {"Sum", 2}};

// The identifier constants a (non-optional, non-list) type accepts; empty for most types.
inline absl::Span<const NamedSchemaConstant> namedConstantsOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::MemoryFormat: return kMemoryFormatConstants;
    case TypeKind::Layout: return kLayoutConstants;
    case TypeKind::Int:
    case TypeKind::SymInt: return kReductionConstants;
    default: return {};
  }
}

struct ScalarTypeLiteral {
  std::string_view name;
  ScalarType type;
};
// `ScalarType dtype=float` means float32, as in PyTorch's schemas.
inline constexpr ScalarTypeLiteral kScalarTypeLiterals[] = {
    {"float", ScalarType::Float}, {"double", ScalarType::Double}, {"long", ScalarType::Long},
    {"int", ScalarType::Int},     {"bool", ScalarType::Bool},
};

inline std::optional<ScalarType> scalarTypeFromLiteral(std::string_view name) {
  for (const auto& literal : kScalarTypeLiterals) {
    if (literal.name == name) return literal.type;
  }
  return std::nullopt;
}

inline std::optional<std::string_view> scalarTypeLiteral(ScalarType type) {
  for (const auto& literal : kScalarTypeLiterals) {
    if (literal.type == type) return literal.name;
  }
  return std::nullopt;
}

}  // namespace sy::detail
