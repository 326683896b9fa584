#include "switchyard/conformance/oracle/oracle_case.h"

#include <sstream>

#include "absl/strings/str_join.h"
#include "switchyard/core/error.h"

namespace sy::oracle {

const IValue* CallDescription::argument(const std::string& name) const {
  for (const auto& [n, v] : arguments) {
    if (n == name) return &v;
  }
  return nullptr;
}

std::string CallDescription::describe() const {
  std::string text;
  for (const auto& [name, sizes] : shapes) {
    const auto dtype = dtypes.find(name);
    text += str("\n    ", name, ": ", dtype == dtypes.end() ? "?" : std::string(toString(dtype->second)), " [",
                absl::StrJoin(sizes, ", "), "]");
  }
  for (const auto& [name, value] : arguments) {
    std::ostringstream os;
    os << value;
    text += str("\n    ", name, " = ", os.str());
  }
  text += str("\n    layout: ", layout, "; values: ", fill, out_variant.empty() ? "" : "; " + out_variant, "; seed ", seed);
  return text;
}

When always() {
  return [](const CallDescription&) { return true; };
}

When whenDtype(const std::string& tensor, Dtypes dtypes) {
  return [tensor, dtypes](const CallDescription& call) {
    const auto it = call.dtypes.find(tensor);
    if (it == call.dtypes.end()) return false;
    for (ScalarType d : dtypes) {
      if (d == it->second) return true;
    }
    return false;
  };
}

When whenArgument(const std::string& name, IValue value) {
  std::ostringstream os;
  os << value;
  return [name, wanted = os.str()](const CallDescription& call) {
    const IValue* v = call.argument(name);
    if (v == nullptr) return false;
    std::ostringstream got;
    got << *v;
    return got.str() == wanted;
  };
}

When whenEmpty() {
  return [](const CallDescription& call) {
    for (const auto& [name, sizes] : call.shapes) {
      if (call.outs.count(name)) continue;
      for (int64_t s : sizes) {
        if (s == 0) return true;
      }
    }
    return false;
  };
}

When whenEdgeValues() {
  return [](const CallDescription& call) { return call.fill == "edge values"; };
}

When whenOutVariant(const std::string& variant) {
  return [variant](const CallDescription& call) { return call.out_variant == variant; };
}

When whenDtypesDiffer(const std::string& a, const std::string& b) {
  return [a, b](const CallDescription& call) {
    const auto x = call.dtypes.find(a), y = call.dtypes.find(b);
    return x != call.dtypes.end() && y != call.dtypes.end() && x->second != y->second;
  };
}

When anyOf(When a, When b) {
  return [a, b](const CallDescription& call) { return a(call) || b(call); };
}

When whenNot(When a) {
  return [a](const CallDescription& call) { return !a(call); };
}

When allOf(When a, When b) {
  return [a, b](const CallDescription& call) { return a(call) && b(call); };
}

std::map<ScalarType, Tolerance> defaultTolerances() {
  // Float: a few ULP where PyTorch vectorises (SLEEF's 1-ULP functions against libm's) or sums in
  // another order, with an absolute floor for results that cancel to near zero.
  // Half and BFloat16: a unit in the last place (2^-10 and 2^-7 relative) for a result rounded once
  // from a float that PyTorch computed in another order.
  return {{ScalarType::Float, {1e-5, 1e-5}},
          {ScalarType::Double, {1e-12, 1e-12}},
          {ScalarType::Half, {2e-3, 1e-3}},
          {ScalarType::BFloat16, {1.6e-2, 1e-2}},
          // A complex dtype compares part by part, as its parts' dtype does.
          {ScalarType::ComplexHalf, {2e-3, 1e-3}},
          {ScalarType::ComplexFloat, {1e-5, 1e-5}},
          {ScalarType::ComplexDouble, {1e-12, 1e-12}}};
}

OpCase& OpCase::tensors(const std::vector<std::string>& names) {
  for (const std::string& name : names) tensor(name);
  return *this;
}

OpCase& OpCase::tensor(std::string name, Values values, OutDtype dtype) {
  tensors_.push_back(TensorArgument{std::move(name), values, dtype, 0});
  return *this;
}

OpCase& OpCase::tensorList(std::string name, int length, Values values, OutDtype dtype) {
  tensors_.push_back(TensorArgument{std::move(name), values, dtype, length});
  return *this;
}

TensorArgument* OpCase::find(const std::string& tensor) {
  for (TensorArgument& t : tensors_) {
    if (t.name == tensor) return &t;
  }
  SY_CHECK(false, "oracle case for ", ops_.empty() ? "?" : ops_.front(), ": no tensor '", tensor,
           "' (name it with .tensor first)");
  return nullptr;
}

OpCase& OpCase::values(const std::string& tensor, Values v) {
  find(tensor)->values = v;
  return *this;
}

OpCase& OpCase::promote(const std::string& tensor, Dtypes second) {
  find(tensor)->dtype = OutDtype::second();
  second_ = std::move(second);
  return *this;
}

Tolerance OpCase::toleranceFor(ScalarType dtype) const {
  if (auto it = tolerances_.find(dtype); it != tolerances_.end()) return it->second;
  const auto defaults = defaultTolerances();
  if (auto it = defaults.find(dtype); it != defaults.end()) return it->second;
  return {};
}

}  // namespace sy::oracle
