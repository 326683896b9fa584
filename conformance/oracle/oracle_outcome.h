// What one call of an operator did, on either side of the oracle (Switchyard, PyTorch or a
// reference), and how two such outcomes are compared: results and every argument after the call
// (so an out= argument, an in-place self, and an input the kernel must not touch), each returned
// alias, and errors (both raise or neither).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/conformance/oracle/oracle_case.h"
#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/stack.h"

namespace sy::oracle {

// How a result relates to the call's arguments: the argument object itself (an out= or in-place
// result), a view of its memory (a view operator), or neither.
struct ResultAlias {
  enum class Kind : uint8_t { None, SameTensor, SharesStorage };
  Kind kind = Kind::None;
  int argument = -1;  // index into the Switchyard schema's arguments
  friend bool operator==(const ResultAlias& a, const ResultAlias& b) {
    return a.kind == b.kind && a.argument == b.argument;
  }
  std::string describe(const FunctionSchema& schema) const;
};

struct Outcome {
  std::optional<std::string> error;     // what the operator raised
  std::optional<std::string> unusable;  // why the call could not be made at all (a harness problem)
  std::vector<IValue> results;          // Switchyard values (PyTorch's tensors copied out)
  std::vector<ResultAlias> aliases;     // per result
  std::vector<IValue> arguments;        // every argument after the call, in the Switchyard schema's order
};

// How values are compared: per-dtype tolerances (exact where a dtype has none), or, for results
// whose values are unspecified (empty), dtypes and sizes only.
struct Comparison {
  std::map<ScalarType, Tolerance> tolerances;
  bool values = true;
};

// Runs `call` (Switchyard's dispatcher or a reference) on `arguments` as a boxed call and reads
// its outcome; sy::Error becomes Outcome::error (any other exception is the harness's, and escapes).
Outcome runBoxed(const std::vector<IValue>& arguments, const std::function<void(Stack&)>& call);

// "" when `got` (Switchyard's) agrees with `want` (PyTorch's or the reference's), else what
// differs first, naming the result or argument and the element.
std::string compareOutcomes(const Outcome& got, const Outcome& want, const FunctionSchema& schema,
                            const Comparison& comparison);

// "" when the tensors agree: dtype, sizes, and each element within the dtype's tolerance.
std::string compareTensors(const Tensor& got, const Tensor& want, const Comparison& comparison);

}  // namespace sy::oracle
