// CallLabel: how an observer of calls (the profiler, a trace) names one call of an operator. By
// default a call is its operator's name; an operator whose calls differ by their arguments registers
// a labeler that names each call from its boxed arguments. The delegate call is one: each call
// runs a different delegate, so delegate/ labels it `XnnpackBackend#0`, with the debug handles of
// the original operators it runs.
//
//   sy::registerCallLabeler(my_op, [](const sy::Stack& args) { return sy::CallLabel{...}; });
//   sy::CallLabel label = sy::labelOfCall(op, stack);   // {"aten::add.out", "operator", {}} by default
//
// Observers live below the operators they observe (fallback/ does not include delegate/, See Note
// [Layers] in tests/lint/check_layering.py), so the operator's owner registers the labeler and
// the observer only asks the dispatcher.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/stack.h"

namespace sy {

struct CallLabel {
  std::string name;                    // "aten::add.out", "XnnpackBackend#0"
  std::string category = "operator";   // "delegate" for a delegate call
  std::vector<int64_t> debug_handles;  // the original operators a delegate call runs, if any
};

// Names one call of an operator from its arguments (the stack holds them, last argument on top) by
// filling `label`; returns false to keep the default label for that call. Registered once per
// operator, when the library defining it loads.
using CallLabeler = bool (*)(const Stack& args, CallLabel& label);
void registerCallLabeler(const OperatorHandle& op, CallLabeler labeler);

// The label of a call of `op` whose arguments are on `args`.
CallLabel labelOfCall(const OperatorHandle& op, const Stack& args);

}  // namespace sy
