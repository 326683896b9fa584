// What `switchyard ops --coverage FILE.yaml` reads: the operators a kernel YAML file names
// (ExecuTorch's functions.yaml format: entries with `op:` or `func:`, an optional `type_alias:`
// declaring the dtypes its kernels take), and the report of which of them this build registers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace sy::cli {

struct YamlOperator {
  std::string name;                 // "aten::add.out" (an entry without a namespace is aten's)
  int line = 0;                     // the entry's first line in the file
  std::vector<std::string> dtypes;  // the dtypes its type aliases declare, in order; empty when none
};

// The operators of the kernel YAML file at `path`, one per distinct name, in file order. Errors
// (InvalidArgument) name the file and, for a bad entry, its number and line: a missing file, a
// directory, malformed YAML, a top level that is not a list, an entry that is not a map or has
// neither `op:` nor `func:`, a type_alias that is not a map of dtype lists.
absl::StatusOr<std::vector<YamlOperator>> readYamlOperators(const std::string& path);

// What this build has of one operator of the file.
struct Coverage {
  bool registered = false;
  // The dtypes its kernel YAML declares here (bits by ScalarType; dispatcher/declared_dtypes.h),
  // nullopt when it declares none.
  std::optional<unsigned> dtypes;
};

// The coverage report: each operator as registered or missing, with the dtypes the file declares
// for it, the dtypes this build's kernel computes ("here:") and those of the file it lacks; the
// missing operators and those lacking dtypes listed again at the end, then "N of M registered".
std::string coverageReport(const std::string& path, const std::vector<YamlOperator>& operators,
                           const std::vector<Coverage>& here);

}  // namespace sy::cli
