#include "switchyard/tools/switchyard/method_setup.h"

#include <memory>

#include "absl/strings/str_split.h"
#include "switchyard/core/error.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/file_bytes.h"
#include "switchyard/tools/switchyard/json_text.h"
#include "switchyard/tools/switchyard/value_json.h"

namespace sy::cli {

absl::StatusOr<MethodOptions> methodOptions(const std::string& data_files, bool verbose) {
  MethodOptions options;
  for (absl::string_view path : absl::StrSplit(data_files, ',', absl::SkipEmpty())) {
    absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(std::string(path));
    if (!data.ok()) return data.status();
    options.data_files.push_back(std::move(*data));
  }
  if (verbose) {
    for (const std::string& backend : registered_backend_names()) options.backend_options[backend] = {{"verbose", "1"}};
  }
  return options;
}

absl::StatusOr<std::vector<IValue>> methodInputs(const MethodMeta& meta, const std::string& inputs_path,
                                                 std::optional<int64_t> seed) {
  if (seed && *seed < 0) return absl::InvalidArgumentError(sy::str("--random takes a non-negative seed, not ", *seed));
  if (!inputs_path.empty() && seed) return absl::InvalidArgumentError("give --inputs or --random, not both");
  std::vector<IValue> values;
  if (inputs_path.empty() && !seed) {
    if (meta.inputs.empty()) return values;
    return absl::InvalidArgumentError(sy::str("method '", meta.name, "' takes ", meta.inputs.size(),
                                              " input(s); give --inputs FILE.json or --random SEED"));
  }
  nlohmann::json entries;
  if (!inputs_path.empty()) {
    absl::StatusOr<FileBytes> file = readFileBytes(inputs_path, "inputs file");
    if (!file.ok()) return file.status();
    absl::StatusOr<nlohmann::json> parsed = parseJson(file->text(), sy::str("inputs file '", inputs_path, "'"));
    if (!parsed.ok()) return parsed.status();
    entries = std::move(*parsed);
    if (!entries.is_array() || entries.size() != meta.inputs.size()) {
      return absl::InvalidArgumentError(sy::str("inputs file '", inputs_path, "' must hold a JSON list of ",
                                                meta.inputs.size(), " value(s), one per input of '", meta.name, "'"));
    }
  }
  for (size_t i = 0; i < meta.inputs.size(); ++i) {
    const std::string where = sy::str("input ", i);
    absl::StatusOr<IValue> v = entries.is_array() ? valueFromJson(entries[i], meta.inputs[i], where)
                                                  : randomValue(meta.inputs[i], static_cast<uint64_t>(*seed) + i, where);
    if (!v.ok()) return v.status();
    values.push_back(std::move(*v));
  }
  return values;
}

absl::Status setInputs(Method& method, const std::vector<IValue>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (absl::Status s = method.set_input(i, inputs[i]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace sy::cli
