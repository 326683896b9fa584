// JSON text as the `switchyard` command line reads and writes it: RFC 8259, plus the three
// non-finite numbers Python's json module reads and writes (`NaN`, `Infinity`, `-Infinity`), so
// that every float value a tensor holds survives a round trip through a file.
//
//   absl::StatusOr<nlohmann::json> j = sy::cli::parseJson("[1.5, NaN, -Infinity]", "inputs file 'x.json'");
//   std::string text = sy::cli::dumpJson(*j);     // "[1.5,NaN,-Infinity]"
//
// Note [The command line parses JSON with a depth bound]
// nlohmann::json's own parser refuses the non-finite tokens, so parseJson reads the structure
// itself: an iterative loop over the text with an explicit stack of open lists and objects, which
// hands each string to nlohmann (escapes, UTF-8) and reads numbers itself (integers that int64 or
// uint64 hold stay integers; others are doubles; 1e999 is Infinity, as in Python). nlohmann::json
// values are destroyed, copied and dumped by recursion, so a value nested a million deep would
// overflow the stack long after parsing; parseJson refuses anything nested deeper than
// kMaxJsonDepth lists and objects before it builds it, so every value the command line holds is
// shallow. dumpJson writes floats with the shortest digits that read back to the same double
// (-0.0 included), and strings with invalid UTF-8 replaced rather than throwing.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace sy::cli {

// The deepest nesting of lists and objects parseJson accepts (inputs need three: the list of
// inputs, a tensor's object, its data).
inline constexpr size_t kMaxJsonDepth = 64;

// Parses `text`; an error starts with `where` and gives the line and column.
absl::StatusOr<nlohmann::json> parseJson(std::string_view text, std::string_view where);

// Compact text (no spaces), non-finite floats as NaN, Infinity and -Infinity.
std::string dumpJson(const nlohmann::json& value);

// dumpJson's text cut to about `max_chars`, for error messages ("[1,2,3,...] (4000 characters)").
std::string jsonExcerpt(const nlohmann::json& value, size_t max_chars = 60);

}  // namespace sy::cli
