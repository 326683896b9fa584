// A program's methods as one Graphviz graph, for `switchyard inspect PROGRAM --format dot`:
//
//   switchyard inspect model.pte --format dot | dot -Tsvg > model.svg
//
// One node per instruction (operator and source line), the method's inputs and outputs, its
// constants and its external parameters (tensors whose data comes from a .ptd file); an edge per
// value from the instruction (or input, constant, parameter) that writes it to each instruction
// that reads it, labelled with the value's dtype and shape and "planned" when it lives in planned
// memory. Each delegate call is a cluster in its backend's colour holding the call and the original
// operators it runs (from the program's debug-handle frames), so a partitioned model shows which
// backend runs what. A program of several methods is still one graph (`dot` draws one graph per
// input, and several would make an invalid SVG): each method in a cluster of its own.
//
// Note [An edge starts where its value is written]
// An argument may be read or written, and a program's file does not say which: a kernel call
// lists its operator's arguments then its results. So a value's writer comes from the operator's
// schema (MethodMeta's InstructionInfo::writes: out= and in-place arguments, and results) where the
// operator is registered; the method's inputs, its constants and its external parameters are
// written before it runs, so no instruction writes them, even planned ones (a training program's
// parameters live in planned memory, loaded from the .ptd). Only for delegate calls and operators
// not registered here is a value taken to be written by the first instruction that names it.
#pragma once

#include <string>
#include <vector>

#include "switchyard/program/method_meta.h"

namespace sy::cli {

// One method as a graph named after it; several as one graph named `program`, a cluster each.
std::string methodsToDot(const std::vector<MethodMeta>& methods, const std::string& program);

}  // namespace sy::cli
