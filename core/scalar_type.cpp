#include "switchyard/core/scalar_type.h"

namespace sy {

std::string_view toString(ScalarType t) {
  switch (t) {
#define SY_SCALAR_TYPE_NAME_CASE(cpp, name) \
  case ScalarType::name: return #name;
    SY_FORALL_SCALAR_TYPES(SY_SCALAR_TYPE_NAME_CASE)
#undef SY_SCALAR_TYPE_NAME_CASE
    case ScalarType::Undefined: return "Undefined";
  }
  return "Unknown";
}

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) return ScalarType::Undefined;
  // Enumerators are ordered by rank, so the higher one wins; the category rule (integral with
  // floating gives the floating type) falls out of Float and Double ranking above every integer.
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

bool canCast(ScalarType from, ScalarType to) {
  if (isFloatingType(from) && isIntegralType(to, /*include_bool=*/true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace sy
