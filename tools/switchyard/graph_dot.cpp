#include "switchyard/tools/switchyard/graph_dot.h"

#include <map>
#include <set>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "switchyard/core/error.h"

namespace sy::cli {
namespace {

// A double-quoted Graphviz string; "\n" in `text` becomes a line break.
std::string quoted(const std::string& text) {
  return "\"" + absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}}) + "\"";
}

std::string meta(const ValueInfo& v) {
  return sy::str(v.dtype ? std::string(toString(*v.dtype)) : "?", "[", absl::StrJoin(v.sizes, ", "), "]");
}

// Fill and border colours for a backend: the two delegates the demo uses get their own, others
// take turns from a small palette.
std::pair<std::string, std::string> backendColours(const std::string& backend) {
  static const std::pair<std::string, std::string> palette[] = {
      {"#fde4cf", "#d9822b"}, {"#dbe9f6", "#3b7dd8"}, {"#e2f0d9", "#4f9a3a"}, {"#eadcf3", "#8a54b5"}};
  if (backend == "BackendWithCompilerDemo") return palette[0];
  if (backend == "XnnpackBackend") return palette[1];
  size_t h = std::hash<std::string>()(backend);
  return palette[2 + h % 2];
}

// "delegate debug handle 1: aten::mul.Tensor (node 'mul') at model.cpp:43 (in forward)" becomes
// "#1 aten::mul.Tensor (node 'mul')" over "model.cpp:43 (in forward)".
std::string delegatedOperatorLabel(const std::string& frame) {
  constexpr std::string_view kPrefix = "delegate debug handle ";
  std::string label = frame;
  if (label.rfind(kPrefix, 0) == 0) {
    label = "#" + label.substr(kPrefix.size());
    const size_t colon = label.find(": ");
    if (colon != std::string::npos) label.replace(colon, 2, " ");
  }
  const size_t at = label.rfind(" at ");
  if (at != std::string::npos) label.replace(at, 4, "\n");
  return label;
}

// A method's nodes and edges, their ids prefixed with `prefix` (several methods share one graph).
std::string drawMethod(const MethodMeta& m, const std::string& prefix) {
  std::string out;
  const auto id = [&](const char* kind, size_t n) { return sy::str(prefix, kind, n); };
  std::set<size_t> inputs;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    inputs.insert(m.inputs[i].value_index);
    out += sy::str("  ", id("v", m.inputs[i].value_index),
                   " [shape=invhouse, style=filled, fillcolor=\"#f2f2f2\", label=",
                   quoted(sy::str("input ", i, "\n", meta(m.inputs[i]))), "];\n");
  }
  const auto isTensor = [&](size_t v) { return v < m.values.size() && m.values[v].kind == "Tensor"; };
  // Values written before the method runs (See Note [An edge starts where its value is written]).
  const auto isExternal = [&](size_t v) { return isTensor(v) && !m.values[v].external_name.empty() && !inputs.count(v); };
  const auto isConstant = [&](size_t v) {
    return isTensor(v) && !m.values[v].planned && !inputs.count(v) && !isExternal(v);
  };

  // Who wrote each value last: an input, a constant, a parameter or an instruction.
  std::map<size_t, std::string> writer;
  for (size_t v : inputs) writer[v] = id("v", v);
  // Draws a constant or an external parameter the first time something reads it.
  const auto source = [&](size_t v) {
    if (writer.count(v) || !(isConstant(v) || isExternal(v))) return;
    writer[v] = id("v", v);
    if (isExternal(v)) {
      out += sy::str("  ", id("v", v), " [shape=cylinder, style=filled, fillcolor=\"#fff4cc\", fontsize=8, label=",
                     quoted(sy::str("parameter '", m.values[v].external_name, "' (.ptd)\n%", v, " ",
                                    meta(m.values[v]))),
                     "];\n");
    } else {
      out += sy::str("  ", id("v", v), " [shape=note, style=filled, fillcolor=\"#eeeeee\", fontsize=8, label=",
                     quoted(sy::str("constant %", v, "\n", meta(m.values[v]))), "];\n");
    }
  };
  std::string edges;
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    const InstructionInfo& ins = m.instructions[i];
    const std::string node = id("i", i);
    if (ins.delegate_index >= 0) {
      const auto [fill, border] = backendColours(ins.op);
      out += sy::str("  subgraph cluster_", node, " {\n    label=",
                     quoted(sy::str("delegate ", ins.delegate_index, ": ", ins.op)),
                     "; style=\"rounded,filled\"; fillcolor=\"", fill, "\"; color=\"", border, "\";\n");
      out += sy::str("    ", node, " [style=\"rounded,filled\", fillcolor=\"", border, "\", fontcolor=white, label=",
                     quoted(sy::str("delegate call", ins.source.empty() ? "" : "\n" + ins.source)), "];\n");
      std::string previous = node;
      for (size_t k = 0; k < ins.delegated.size(); ++k) {
        const std::string op_node = sy::str(node, "_", k);
        out += sy::str("    ", op_node, " [style=\"rounded,filled\", fillcolor=white, label=",
                       quoted(delegatedOperatorLabel(ins.delegated[k])), "];\n");
        out += sy::str("    ", previous, " -> ", op_node, " [style=dotted, arrowhead=none];\n");
        previous = op_node;
      }
      out += "  }\n";
    } else {
      const std::string label = ins.op.empty() ? ins.text : ins.op;
      out += sy::str("  ", node, " [label=", quoted(label + (ins.source.empty() ? "" : "\n" + ins.source)), "];\n");
    }
    // What this instruction writes: by its operator's schema, or else every value no one wrote yet.
    std::set<size_t> writes(ins.writes.begin(), ins.writes.end());
    if (!ins.writes_known) {
      for (size_t v : ins.values) {
        if (!writer.count(v) && !isConstant(v) && !isExternal(v)) writes.insert(v);
      }
    }
    std::set<size_t> read;
    for (size_t v : ins.values) {
      if (!isTensor(v) || writes.count(v) || !read.insert(v).second) continue;
      source(v);
      const auto it = writer.find(v);
      if (it == writer.end() || it->second == node) continue;
      edges += sy::str("  ", it->second, " -> ", node, " [label=",
                       quoted(sy::str("%", v, " ", meta(m.values[v]), m.values[v].planned ? " planned" : "")), "];\n");
    }
    for (size_t v : writes) {
      if (isTensor(v)) writer[v] = node;
    }
  }
  for (size_t o = 0; o < m.outputs.size(); ++o) {
    const size_t v = m.outputs[o].value_index;
    out += sy::str("  ", id("out", o), " [shape=house, style=filled, fillcolor=\"#f2f2f2\", label=",
                   quoted(sy::str("output ", o, "\n", meta(m.outputs[o]))), "];\n");
    source(v);
    const auto it = writer.find(v);
    if (it != writer.end()) edges += sy::str("  ", it->second, " -> ", id("out", o), ";\n");
  }
  return out + edges;
}

std::string graphHeader(const std::string& name) {
  return sy::str("digraph ", quoted(name), " {\n  rankdir=TB;\n",
                 "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=rounded];\n",
                 "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n");
}

}  // namespace

std::string methodsToDot(const std::vector<MethodMeta>& methods, const std::string& program) {
  if (methods.size() == 1) return graphHeader(methods[0].name) + drawMethod(methods[0], "") + "}\n";
  std::string out = graphHeader(program);
  for (size_t k = 0; k < methods.size(); ++k) {
    out += sy::str("  subgraph cluster_method_", k, " {\n    label=", quoted(sy::str("method '", methods[k].name, "'")),
                   "; style=\"rounded,dashed\"; color=\"#999999\"; fontname=\"Helvetica\";\n");
    out += drawMethod(methods[k], sy::str("m", k, "_"));
    out += "  }\n";
  }
  return out + "}\n";
}

}  // namespace sy::cli
