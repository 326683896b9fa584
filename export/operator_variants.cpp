#include "switchyard/export/operator_variants.h"

#include <string>
#include <vector>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

// See Note [Operator variants are matched by schema].
bool sameArgument(const Argument& a, const Argument& b) { return a.name == b.name && a.type->matches(*b.type); }

bool leadingArgumentsMatch(const FunctionSchema& shorter, const FunctionSchema& longer) {
  if (longer.arguments().size() < shorter.arguments().size()) return false;
  for (size_t i = 0; i < shorter.arguments().size(); ++i) {
    if (!sameArgument(shorter.arguments()[i], longer.arguments()[i])) return false;
  }
  return true;
}

// Index of the first trailing out= argument (arguments().size() when there is none).
size_t firstOutArgument(const FunctionSchema& s) {
  size_t i = s.arguments().size();
  while (i > 0 && s.arguments()[i - 1].is_out() && s.arguments()[i - 1].type->kind() == TypeKind::Tensor) --i;
  return i;
}

std::vector<OperatorHandle> operatorsNamed(const std::string& name) {
  std::vector<OperatorHandle> out;
  Dispatcher& d = Dispatcher::singleton();
  for (const OperatorName& n : d.getAllOpNames()) {
    if (n.name != name) continue;
    if (std::optional<OperatorHandle> h = d.findSchema(n)) out.push_back(*h);
  }
  return out;
}

std::optional<OperatorHandle> unique(const std::vector<OperatorHandle>& found, const FunctionSchema& of,
                                     const char* what) {
  if (found.empty()) return std::nullopt;
  SY_CHECK(found.size() == 1, "the ", what, " of ", of.operator_name(), " is ambiguous: both ",
           found[0].operator_name(), " and ", found[1].operator_name(), " fit its schema");
  return found[0];
}

}  // namespace

bool isViewOperator(const FunctionSchema& schema) {
  for (const Argument& r : schema.returns()) {
    if (!r.alias_info || r.alias_info->is_write) continue;
    for (const Argument& a : schema.arguments()) {
      if (a.alias_info && !a.alias_info->is_write && a.alias_info->set == r.alias_info->set) return true;
    }
  }
  return false;
}

bool isMutatingOperator(const FunctionSchema& schema) {
  for (const Argument& a : schema.arguments()) {
    if (a.is_write()) return true;
  }
  return false;
}

std::optional<OperatorHandle> findOutVariant(const FunctionSchema& functional) {
  const std::string name = isViewOperator(functional) ? functional.name() + "_copy" : functional.name();
  const size_t num_arguments = functional.arguments().size();
  std::vector<OperatorHandle> found;
  for (const OperatorHandle& candidate : operatorsNamed(name)) {
    const FunctionSchema& s = candidate.schema();
    if (s.operator_name() == functional.operator_name()) continue;
    if (s.arguments().size() != num_arguments + functional.returns().size()) continue;
    if (s.returns().size() != functional.returns().size()) continue;
    if (firstOutArgument(s) != num_arguments || !leadingArgumentsMatch(functional, s)) continue;
    found.push_back(candidate);
  }
  return unique(found, functional, "out variant");
}

std::optional<OperatorHandle> findFunctionalVariant(const FunctionSchema& mutating) {
  const size_t first_out = firstOutArgument(mutating);
  const bool is_out = first_out < mutating.arguments().size();
  std::string name = mutating.name();
  if (!is_out) {
    // In-place: `f_` writes its first argument.
    if (name.empty() || name.back() != '_' || mutating.arguments().empty() || !mutating.arguments()[0].is_write()) {
      return std::nullopt;
    }
    name.pop_back();
  }
  std::vector<OperatorHandle> found;
  for (const OperatorHandle& candidate : operatorsNamed(name)) {
    const FunctionSchema& s = candidate.schema();
    if (isMutatingOperator(s) || isViewOperator(s)) continue;
    if (is_out) {
      if (s.arguments().size() != first_out || s.returns().size() != mutating.arguments().size() - first_out) continue;
      if (!leadingArgumentsMatch(s, mutating)) continue;
    } else {
      if (s.overload_name() != mutating.overload_name()) continue;
      if (s.arguments().size() != mutating.arguments().size() || !leadingArgumentsMatch(s, mutating)) continue;
    }
    found.push_back(candidate);
  }
  return unique(found, mutating, "functional form");
}

}  // namespace sy::export_
