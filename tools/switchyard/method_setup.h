// What `switchyard run` and `switchyard bench PROGRAM.pte` both do before a method executes: the
// method's options from the command line's data files, and its inputs from a JSON file or a seed.
//
//   absl::StatusOr<MethodOptions> options = sy::cli::methodOptions("weights.ptd", /*verbose=*/false);
//   absl::StatusOr<Method> method = program.load_method("forward", *options);
//   absl::StatusOr<std::vector<IValue>> inputs = sy::cli::methodInputs(meta, "inputs.json", std::nullopt);
//   absl::Status set = sy::cli::setInputs(*method, *inputs);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/program/program.h"

namespace sy::cli {

// The options of a method loaded with the comma-separated `data_files` (.ptd) and, with `verbose`,
// every registered backend told verbose=1.
absl::StatusOr<MethodOptions> methodOptions(const std::string& data_files, bool verbose);

// One value per input of `meta`: read from the JSON list in `inputs_path`, or made pseudo-randomly
// from `seed` (input i from seed + i). Neither, for a method that takes inputs, is an error that
// says what to give; both is an error too.
absl::StatusOr<std::vector<IValue>> methodInputs(const MethodMeta& meta, const std::string& inputs_path,
                                                 std::optional<int64_t> seed);

// Sets every input of `method`, in order; the first refusal is the error.
absl::Status setInputs(Method& method, const std::vector<IValue>& inputs);

}  // namespace sy::cli
