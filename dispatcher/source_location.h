// SourceLocation: the file:line a registration came from, captured by a defaulted argument so
// `m.def(...)` records the line of the call itself, not the line of the macro.
#pragma once

#include <cstdint>
#include <string>

namespace sy {

struct SourceLocation {
  const char* file = "<unknown>";
  uint32_t line = 0;

  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          uint32_t line = __builtin_LINE()) {
    return SourceLocation{file, line};
  }
  std::string str() const { return std::string(file) + ":" + std::to_string(line); }
};

}  // namespace sy
