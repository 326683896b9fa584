// The JSON form of a method's inputs and outputs, as `switchyard run` reads and prints them.
//
//   [{"dtype": "Float", "sizes": [2, 2], "data": [1, 2, 3, 4]}, 3, true, [1, 2]]
//
// A tensor is an object with its dtype (the program format's spelling: "Float", "Long", "Bool"),
// its sizes and its elements in row-major order; any other value is plain JSON (a number, a bool,
// a string, null, a list of numbers). Float values may be NaN, Infinity and -Infinity, as Python's
// json module writes them (json_text.h reads and writes the text). Reading checks everything it is
// given and says which entry and field is wrong: a tensor's element count is checked against its
// sizes with overflow checks, and an element its dtype cannot hold (4294967297 in an Int tensor,
// 1e300 in a Float one) is an error naming the input, the element and the dtype.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/program/method_meta.h"

namespace sy::cli {

// One input from its JSON. `where` names it in errors ("input 0"); `expected` is what the method
// declares, so a plain number becomes an Int or a Double as the method wants it.
absl::StatusOr<IValue> valueFromJson(const nlohmann::json& json, const ValueInfo& expected, const std::string& where);

// The JSON form of an output. Tensors are copied to contiguous row-major order.
nlohmann::json valueToJson(const IValue& value);

// Deterministic pseudo-random inputs for a method (`switchyard run --random SEED`): tensors of the
// declared dtype and sizes (floats uniform in [-1, 1), integers in [0, 10), bools fair coins).
absl::StatusOr<IValue> randomValue(const ValueInfo& expected, uint64_t seed, const std::string& where);

}  // namespace sy::cli
