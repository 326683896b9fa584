// The inputs the conformance harness (kernel_conformance.h) generates: tensors of a given dtype and
// dim order, dense or strided, filled with edge or pseudo-random values, and the candidate values
// of the other arguments.
//
//   sy::conformance::TensorSpec spec{{sy::ScalarType::Float, {0, 2, 3, 1}}, {2, 3, 4, 5}, true, Fill::EdgeValues};
//   sy::Tensor t = makeTensor(spec, 7);   // channels-last, every other innermost element, seed 7
//   spec.describe();                      // "Float [2, 3, 4, 5], dim order 0,2,3,1, strided, edge values"
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/kernel_key.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::conformance {

enum class Fill : uint8_t {
  EdgeValues,  // zeros of both signs, ±1, small and large magnitudes, NaN, ±infinity (floating dtypes)
  Random,      // seeded, in [-4, 4] (floating) or [-50, 50] (integer)
};

struct TensorSpec {
  TensorMeta meta;             // dtype and dim order
  std::vector<int64_t> sizes;  // logical sizes, as many as the dim order has entries
  bool strided = false;        // every other element of the innermost (last in dim order) dimension
  Fill fill = Fill::EdgeValues;
  std::string describe() const;
};

// A fresh tensor for `spec`; the same spec and seed always give the same tensor.
Tensor makeTensor(const TensorSpec& spec, uint64_t seed);

// The logical sizes tried for a rank: a small shape, one whose innermost size is no multiple of a
// vector width, and (from rank 1) an empty one.
std::vector<std::vector<int64_t>> shapesForRank(size_t rank);

// Note [How the harness picks the other arguments]
// A kernel key fixes only the tensors. For every other argument the harness tries, in order: the
// values Options::argument_values gives for "<operator>/<argument>" or for the argument's name; the
// schema's default; None for an optional; and otherwise a value of the argument's type that is
// valid for most operators: 0 and -1 for an int named dim (or [0] for a dim list), 1 for other ints,
// false and true for a bool, 0.5 for a float, 2 for a Scalar, the first tensor's dtype for a dtype.
// A case uses every argument's first value; each further value of an argument makes one more case
// with the others at their first. An argument it cannot make a value for (a string without a
// default, a device) makes the kernel's check fail with the argument's name, so the author can
// supply values instead of the kernel passing untested.
struct ArgumentValues {
  std::vector<IValue> values;  // empty when the harness has none
  std::string source;          // "options", "default", "harness"
};
ArgumentValues candidateValues(const std::string& op, const Argument& argument, ScalarType first_dtype,
                               const std::map<std::string, std::vector<IValue>>& overrides);

}  // namespace sy::conformance
