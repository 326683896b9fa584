// A method of a program as a Graphviz graph, for `switchyard inspect PROGRAM --format dot`:
//
//   switchyard inspect model.pte --format dot | dot -Tsvg > model.svg
//
// One node per instruction (operator and source line), the method's inputs and outputs, and its
// constants; an edge per value from the instruction that writes it to each that reads it, labelled
// with the value's dtype and shape and "planned" when it lives in planned memory. Each delegate
// call is a cluster in its backend's colour holding the call and the original operators it runs
// (from the program's debug-handle frames), so a partitioned model shows which backend runs what.
#pragma once

#include <string>

#include "switchyard/program/method_meta.h"

namespace sy::cli {

std::string methodToDot(const MethodMeta& method);

}  // namespace sy::cli
