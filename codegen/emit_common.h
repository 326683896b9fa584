// What the generator's writers share (emit.cpp writes the registrations and NativeFunctions.h,
// emit_functions.cpp the Functions.h/.cpp helpers): string spelling, operator-name parts and the
// common file preamble. Internal to codegen/.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "switchyard/codegen/emit.h"

namespace sy::codegen::detail {

// `s` as a C++ string literal, quotes and backslashes escaped.
std::string cppString(const std::string& s);
// "aten::add" -> "add" and "aten".
std::string baseName(const OperatorName& name);
std::string namespaceOf(const OperatorName& name);

// The first line of every generated file, and the includes of the generated headers.
extern const char* const kBanner;
extern const char* const kIncludes;

// Each namespace's lines, wrapped in `namespace ns { ... }`.
void forEachNamespace(std::ostringstream& out, const std::map<std::string, std::vector<std::string>>& blocks);

// Functions.h / Functions.cpp into `files` (emit_functions.cpp).
// With `aten_api`, also TensorMethods.h (and the methods' definitions in Functions.cpp) and Operators.h.
void writeHelpers(const std::vector<const OperatorEntry*>& selected, bool aten_api, GeneratedFiles& files);

}  // namespace sy::codegen::detail
