#include "switchyard/codegen/dtype_sets.h"

#include <map>
#include <optional>

#include "switchyard/codegen/yaml_reading.h"
#include "switchyard/core/scalar_type.h"

namespace sy::codegen {
namespace {

constexpr unsigned dtypeBit(ScalarType t) { return 1u << static_cast<int>(t); }

// Note [A kernel's dtypes are declared in its YAML]
// ExecuTorch's portable kernels name the dtypes they compute by switch families (ET_SWITCH_REALHBBF16_TYPES:
// the real types, Half, Bool and BFloat16); here an entry declares the same family as data, so the
// dtypes of every operator can be read, reported and changed in one place, and a kernel written over
// `T` is instantiated for exactly those. The families, ExecuTorch's names for them:
const std::map<std::string, unsigned>& dtypeFamilies() {
  static const std::map<std::string, unsigned> families = [] {
    const unsigned integral = dtypeBit(ScalarType::Byte) | dtypeBit(ScalarType::Char) | dtypeBit(ScalarType::Short) |
                              dtypeBit(ScalarType::Int) | dtypeBit(ScalarType::Long);
    const unsigned full = dtypeBit(ScalarType::Float) | dtypeBit(ScalarType::Double);
    const unsigned half = dtypeBit(ScalarType::Half), bf16 = dtypeBit(ScalarType::BFloat16);
    const unsigned boolean = dtypeBit(ScalarType::Bool);
    return std::map<std::string, unsigned>{
        {"BOOL", boolean},
        {"INT", integral},
        {"INTB", integral | boolean},
        {"FLOAT", full},
        {"FLOATH", full | half},
        {"FLOATHBF16", full | half | bf16},
        {"REAL", integral | full},
        {"REALB", integral | full | boolean},
        {"REALH", integral | full | half},
        {"REALHBF16", integral | full | half | bf16},
        {"REALHBBF16", integral | full | half | bf16 | boolean},
    };
  }();
  return families;
}

std::string familyNames() {
  std::string names;
  for (const auto& [name, set] : dtypeFamilies()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

unsigned readDtypeSet(const std::string& file, const YAML::Node& node) {
  std::vector<YAML::Node> items;
  if (node.IsSequence()) {
    for (const YAML::Node& n : node) items.push_back(n);
  } else if (node.IsScalar()) {
    items.push_back(node);
  } else {
    fail(siteOf(file, node), "dtypes", "must be a dtype family (" + familyNames() + "), a dtype, or a list of them");
  }
  if (items.empty()) fail(siteOf(file, node), "dtypes", "names no dtype, so the kernel could compute nothing");
  unsigned set = 0;
  for (const YAML::Node& item : items) {
    const std::string name = item.IsScalar() ? item.Scalar() : "?";
    unsigned bits = 0;
    if (auto family = dtypeFamilies().find(name); family != dtypeFamilies().end()) {
      bits = family->second;
    } else if (std::optional<ScalarType> t = scalarTypeFromName(name); t && isRealType(*t)) {
      bits = dtypeBit(*t);
    } else {
      fail(siteOf(file, item), "dtypes",
           "unknown dtype or family '" + name + "' (families: " + familyNames() + "; or a real dtype such as Float)");
    }
    if ((set & bits) != 0) fail(siteOf(file, item), "dtypes", "'" + name + "' repeats dtypes already named");
    set |= bits;
  }
  return set;
}

std::string dtypeSetText(unsigned set) {
  std::string text;
  for (int t = 0; t < kNumScalarTypes && t < 32; ++t) {
    if ((set & (1u << t)) != 0) text += (text.empty() ? "" : ", ") + std::string(toString(static_cast<ScalarType>(t)));
  }
  return text;
}

}  // namespace sy::codegen
