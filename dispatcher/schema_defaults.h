// Internal to the schema parser: default values as written, and the check that turns one into an
// IValue of the declared type. Not part of the public API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"

namespace sy::detail {

// A default value as written; it becomes an IValue only once checked against the declared type,
// because `1` means Int for `int`, Double for `float` and a two-element list for `int[2]`.
struct SchemaLiteral {
  enum class Kind { None, Int, Float, Bool, String, Identifier, List };
  Kind kind = Kind::None;
  int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::string text;  // String contents or Identifier name
  std::vector<SchemaLiteral> elements;
};

// The IValue `literal` denotes as a default of `type`, or nullopt when it does not fit.
std::optional<IValue> fitDefault(const Type& type, const SchemaLiteral& literal);

// How many scalars fitDefault(type, literal) would build, or some number above `limit` once it
// exceeds it (a scalar repeated over nested fixed-size lists
// multiplies: `int[64][64][64][64] x=0` would be 16 million values).
int64_t expandedDefaultSize(const Type& type, const SchemaLiteral& literal, int64_t limit);

// " (expected one of: ...)" for enum-like types, so a misspelt default is easy to fix; else "".
std::string acceptedSpellings(const Type& type);

}  // namespace sy::detail
