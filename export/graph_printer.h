// Printing graphs: one line per node, and inspect_node, which points at one node and shows its
// metadata and where in the C++ source it came from.
//
//   std::cout << ep.graph();
//   //   graph():
//   //       %input_0 : Float[2, 4] = placeholder[user input]
//   //       %fc1_weight : Float[8, 4] = placeholder[parameter 'fc1.weight']
//   //       %linear : Float[2, 8] = aten::linear(%input_0, %fc1_weight, %fc1_bias)  # mlp.cpp:12 (in forward)
//   //       return (%linear)
//   std::cout << sy::export_::inspect_node(ep.graph(), "linear");
//   //   the same listing with "-->" at %linear, then its kind, operator, schema, debug handle,
//   //   delegation tag, source location, stack and users
//   std::cout << sy::export_::toString(lowered);   // the graph, then each lowered module's graph
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "switchyard/export/graph.h"

namespace sy::export_ {

// The whole graph, as above.
std::string toString(const Graph& graph);
std::ostream& operator<<(std::ostream& os, const Graph& graph);
// A program after to_backend: its graph, then per lowered module its index, backend, blob size,
// compile specs and the partition's graph as preprocess saw it.
class ExportedProgram;
std::string toString(const ExportedProgram& program);

// One node's line, without indentation or newline.
std::string nodeLine(const Graph& graph, NodeId node);

// The graph with an arrow at `node`, followed by the node's metadata. Raises sy::Error for a node
// the graph does not have (naming the graph's nodes when looked up by name).
std::string inspect_node(const Graph& graph, NodeId node);
std::string inspect_node(const Graph& graph, std::string_view node_name);

}  // namespace sy::export_
