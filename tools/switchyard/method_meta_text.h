// A method's interface as `switchyard run --method-meta` prints it: each input and output with its
// dtype, sizes, dynamism and bytes, and the memory the method plans.
//
//   method 'forward' of program 'dynamic.pte':
//     input 0: Float[<=8] dynamic (bounded), 32 bytes at its bound (value 1, planned)
//     output 0: Float[<=8] dynamic (bounded), 32 bytes at its bound (value 2, planned)
//     planned memory: 128 bytes in 1 buffer(s)
//
// and as JSON, {"name": "forward", "inputs": [{"kind": "Tensor", "dtype": "Float", "sizes": [8],
// "dim_order": [0], "dynamism": "DYNAMIC_BOUND", "nbytes": 32, "planned": true}], ...}.
#pragma once

#include <string>

#include "nlohmann/json.hpp"
#include "switchyard/program/method_meta.h"

namespace sy::cli {

std::string methodMetaText(const MethodMeta& meta, const std::string& program);
nlohmann::json methodMetaJson(const MethodMeta& meta);

}  // namespace sy::cli
