// The dtypes each operator's CPU kernel computes, as its kernel YAML declares them (`dtypes:`, See
// Note [A kernel's dtypes are declared in its YAML] in codegen/dtype_sets.cpp). The generated
// registrations record them here, for the tools (`switchyard ops`, `--coverage`) and the tests;
// dispatch never reads them.
//
//   std::optional<unsigned> bits = sy::declaredDtypes(sy::OperatorName{"aten::acos", "out"});
//   sy::dtypeSetText(*bits);   // "Bool, Byte, Char, Short, Int, Long, Half, Float, Double, BFloat16"
#pragma once

#include <optional>
#include <string>

#include "absl/types/span.h"
#include "switchyard/dispatcher/function_schema.h"

namespace sy {

// One operator's declaration: "ns::name.overload" and its dtypes as bits indexed by ScalarType.
struct DeclaredDtypes {
  const char* op;
  unsigned dtypes;
};

// Records a table of declarations (of static storage: it is kept, not copied); a later record of
// the same operator replaces an earlier one. Thread-safe.
void recordDeclaredDtypes(absl::Span<const DeclaredDtypes> table);

// The dtypes the kernel YAML of `name` declares, or nullopt when none does.
std::optional<unsigned> declaredDtypes(const OperatorName& name);

// The dtypes of `bits` by name, in ScalarType order, comma-separated.
std::string dtypeSetText(unsigned bits);

}  // namespace sy
