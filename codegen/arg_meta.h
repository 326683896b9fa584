// The kernel keys of a kernel YAML entry: its aliases (`type_alias: {T0: [Float, Double]}`,
// `dim_order_alias: {D0: [0, 1]}`) and the keys each `arg_meta` stands for, one per combination of
// the aliases it uses (See Note [Kernel keys follow ExecuTorch] in dispatcher/kernel_key.h).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "switchyard/codegen/kernel_yaml.h"
#include "yaml-cpp/yaml.h"

namespace sy::codegen {

// The most kernel keys one generation (every kernel YAML file of a library) may make. See Note
// [An arg_meta's kernel keys are counted before they are made] in codegen/arg_meta.cpp.
inline constexpr int64_t kMaxKernelKeys = int64_t{1} << 16;

struct Aliases {
  std::map<std::string, std::vector<ScalarType>> types;
  std::map<std::string, std::vector<DimOrder>> dim_orders;
};

// The `type_alias` and `dim_order_alias` of `entry`. An unknown dtype, a dimension index that is
// not one, an order that is not a permutation, a value named twice in one alias or an empty type
// alias is an error at its line.
Aliases readAliases(const std::string& file, const YAML::Node& entry);

// The kernel keys `arg_meta` (a map, not null) of `kernel` stands for, in the schema's argument
// order. `keys_before` is how many keys the library has already: a combination that would take it
// past kMaxKernelKeys is an error before any key is made.
std::vector<KernelKey> expandArgMeta(const std::string& file, const YAML::Node& arg_meta, const FunctionSchema& schema,
                                     const Aliases& aliases, const Kernel& kernel, size_t keys_before);

}  // namespace sy::codegen
