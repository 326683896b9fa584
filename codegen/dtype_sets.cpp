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
// `T` is instantiated for exactly those. The set is that of the operator's main input (self, or the
// input it is computed from; a creation operator's result: acos declares REALHBBF16 although its
// result is floating), or, where the inputs promote to a computation type the kernel is written
// over (division, pow, atan2), that type's. Switchyard's own libraries declare it on every entry
// with a kernel (the build passes --require-dtypes); the generated registrations record the sets
// for the tools (dispatcher/declared_dtypes.h: `switchyard ops --coverage` reports them), and the
// PyTorch oracle runs each kernel on them (See Note [A kernel computes only the dtypes its YAML
// declares] in conformance/oracle/oracle_runner.cpp). The families, ExecuTorch's names for them:
const std::map<std::string, unsigned>& dtypeFamilies() {
  static const std::map<std::string, unsigned> families = [] {
    const unsigned integral = dtypeBit(ScalarType::Byte) | dtypeBit(ScalarType::Char) | dtypeBit(ScalarType::Short) |
                              dtypeBit(ScalarType::Int) | dtypeBit(ScalarType::Long);
    const unsigned full = dtypeBit(ScalarType::Float) | dtypeBit(ScalarType::Double);
    const unsigned half = dtypeBit(ScalarType::Half), bf16 = dtypeBit(ScalarType::BFloat16);
    const unsigned boolean = dtypeBit(ScalarType::Bool);
    // ExecuTorch's ALL: the real types above, complex, quantized and bits (not UInt16 to UInt64 or
    // the Float8 types), what its element-moving kernels (permute, padding) switch over.
    unsigned storage = 0;
    for (ScalarType t : {ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble, ScalarType::QInt8,
                         ScalarType::QUInt8, ScalarType::QInt32, ScalarType::QUInt4x2, ScalarType::QUInt2x4,
                         ScalarType::Bits1x8, ScalarType::Bits2x4, ScalarType::Bits4x2, ScalarType::Bits8,
                         ScalarType::Bits16}) {
      storage |= dtypeBit(t);
    }
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
        {"ALL", integral | full | half | bf16 | boolean | storage},
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
    } else if (std::optional<ScalarType> t = scalarTypeFromName(name); t && (isRealType(*t) || isComplexType(*t))) {
      bits = dtypeBit(*t);
    } else {
      fail(siteOf(file, item), "dtypes",
           "unknown dtype or family '" + name + "' (families: " + familyNames() + "; or a real or complex dtype such as Float)");
    }
    if ((set & bits) != 0) fail(siteOf(file, item), "dtypes", "'" + name + "' repeats dtypes already named");
    set |= bits;
  }
  return set;
}

void requireDeclaredDtypes(const KernelLibrary& library) {
  for (const OperatorEntry& op : library.operators) {
    bool has_default = false;
    for (const Kernel& k : op.kernels) has_default = has_default || k.key.isDefault();
    if (has_default && op.dtypes == 0) {
      fail(op.site, "dtypes",
           op.schema.operator_name().toString() + " has a kernel but no `dtypes:`; this library declares the dtypes of "
           "every kernel (a family such as REALHBBF16 or FLOATHBF16, or a list of dtypes)");
    }
  }
}

}  // namespace sy::codegen
