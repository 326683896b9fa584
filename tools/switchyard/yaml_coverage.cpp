#include "switchyard/tools/switchyard/yaml_coverage.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "switchyard/core/kernel_dtypes.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/dispatcher/declared_dtypes.h"
#include "switchyard/dispatcher/kernel_key.h"

namespace sy::cli {
namespace {

std::string entryPlace(const std::string& path, size_t index, const YAML::Node& entry) {
  return absl::StrCat(path, ": entry ", index + 1, " (line ", entry.Mark().line + 1, ")");
}

// "add.out" -> "aten::add.out"; "quantized_decomposed::add.out(Tensor a, ...) -> ..." -> its name.
std::string qualifiedName(std::string text) {
  const size_t paren = text.find('(');
  if (paren != std::string::npos) text = text.substr(0, paren);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
  return text.find("::") == std::string::npos ? "aten::" + text : text;
}

// The dtypes of `entry`'s type_alias map ({T0: [Float, Double], T1: [Long]}), each once, in order.
absl::StatusOr<std::vector<std::string>> declaredDtypes(const std::string& place, const YAML::Node& entry) {
  std::vector<std::string> dtypes;
  const YAML::Node aliases = entry["type_alias"];
  if (!aliases || aliases.IsNull()) return dtypes;
  if (!aliases.IsMap()) return absl::InvalidArgumentError(absl::StrCat(place, ": type_alias is not a map of dtype lists"));
  std::set<std::string> seen;
  for (const auto& alias : aliases) {
    if (!alias.second.IsSequence()) {
      return absl::InvalidArgumentError(
          absl::StrCat(place, ": type_alias ", alias.first.Scalar(), " is not a list of dtypes"));
    }
    for (const YAML::Node& dtype : alias.second) {
      if (!dtype.IsScalar()) {
        return absl::InvalidArgumentError(
            absl::StrCat(place, ": type_alias ", alias.first.Scalar(), " holds something other than a dtype name"));
      }
      if (seen.insert(dtype.Scalar()).second) dtypes.push_back(dtype.Scalar());
    }
  }
  return dtypes;
}

}  // namespace

absl::StatusOr<std::vector<YamlOperator>> readYamlOperators(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is a directory, not a kernel YAML file"));
  }
  if (!std::filesystem::exists(path, ec)) return absl::InvalidArgumentError(absl::StrCat("cannot open ", path, ": no such file"));
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ":", e.mark.line + 1, ": not valid YAML: ", e.msg));
  }
  std::vector<YamlOperator> operators;
  if (!root || root.IsNull()) return operators;  // an empty file names no operators
  if (!root.IsSequence()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": a kernel YAML file is a list of entries (`- op: add.out`), but its top level is not a list"));
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < root.size(); ++i) {
    const YAML::Node entry = root[i];
    const std::string place = entryPlace(path, i, entry);
    if (!entry.IsMap()) return absl::InvalidArgumentError(absl::StrCat(place, " is not a map with `op:` or `func:`"));
    const YAML::Node op = entry["op"];
    const YAML::Node func = entry["func"];
    const YAML::Node& named = op ? op : func;
    if (!named) return absl::InvalidArgumentError(absl::StrCat(place, " has neither `op:` nor `func:`"));
    if (!named.IsScalar() || named.Scalar().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(place, ": `", op ? "op" : "func", ":` is not an operator name"));
    }
    absl::StatusOr<std::vector<std::string>> dtypes = declaredDtypes(place, entry);
    if (!dtypes.ok()) return dtypes.status();
    YamlOperator found{qualifiedName(named.Scalar()), entry.Mark().line + 1, *std::move(dtypes)};
    if (seen.insert(found.name).second) operators.push_back(std::move(found));
  }
  return operators;
}

std::string coverageReport(const std::string& path, const std::vector<YamlOperator>& operators,
                           const std::vector<Coverage>& here) {
  std::ostringstream os;
  size_t width = 0;
  for (const YamlOperator& op : operators) width = std::max(width, op.name.size());
  os << "Operators of " << path << " in this build:\n";
  std::vector<std::string> missing, narrower;
  size_t count = 0;
  for (size_t i = 0; i < operators.size(); ++i) {
    const YamlOperator& op = operators[i];
    const Coverage& c = here[i];
    std::string line = "  " + std::string(c.registered ? "registered  " : "missing     ") + op.name;
    const std::string pad(width - op.name.size() + 2, ' ');
    if (!op.dtypes.empty()) line += pad + "dtypes: " + absl::StrJoin(op.dtypes, ", ");
    if (c.registered && c.dtypes) {
      line += (op.dtypes.empty() ? pad : "  ") + "here: " + dtypeSetText(*c.dtypes);
      std::vector<std::string> lacking;
      for (const std::string& name : op.dtypes) {
        std::optional<ScalarType> dtype = scalarTypeFromName(name);
        if (!dtype || (*c.dtypes & (1u << static_cast<int>(*dtype))) == 0) lacking.push_back(name);
      }
      if (!lacking.empty()) {
        line += "  lacks: " + absl::StrJoin(lacking, ", ");
        narrower.push_back(op.name);
      }
    }
    os << line << "\n";
    if (c.registered) {
      ++count;
    } else {
      missing.push_back(op.name);
    }
  }
  if (!missing.empty()) os << "missing (" << missing.size() << "): " << absl::StrJoin(missing, ", ") << "\n";
  if (!narrower.empty()) {
    os << "registered without some of the file's dtypes (" << narrower.size() << "): " << absl::StrJoin(narrower, ", ")
       << "\n";
  }
  os << count << " of " << operators.size() << " registered\n";
  // See Note [A build compiles its kernels for the dtypes it selects].
  if (kKernelDtypes != 0xFFFFFFFFu) {
    os << "this build compiles its computing kernels for " << dtypeSetText(kKernelDtypes)
       << " only (SWITCHYARD_KERNEL_DTYPES); \"here\" is what their YAML declares\n";
  }
  return os.str();
}

}  // namespace sy::cli
