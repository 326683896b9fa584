#include "switchyard/export/graph_printer.h"

#include <sstream>

#include "absl/strings/str_join.h"
#include "switchyard/export/lowered_module.h"
#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

std::string valueRef(const Graph& g, ValueId v) {
  return v == NodeArgument::kNone ? std::string("None") : "%" + g.value(v).name;
}

std::string argumentText(const Graph& g, const NodeArgument& a) {
  switch (a.kind) {
    case NodeArgument::Kind::Value: return valueRef(g, a.value);
    case NodeArgument::Kind::ValueList:
    case NodeArgument::Kind::OptionalValueList: {
      std::vector<std::string> items;
      for (ValueId v : a.values) items.push_back(valueRef(g, v));
      return "[" + absl::StrJoin(items, ", ") + "]";
    }
    case NodeArgument::Kind::Constant: {
      std::ostringstream os;
      os << a.constant;
      return os.str();
    }
  }
  return "?";
}

}  // namespace

std::string nodeLine(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  std::vector<std::string> defs;
  for (ValueId v : n.outputs) defs.push_back(sy::str("%", g.value(v).name, " : ", g.value(v).meta.str()));
  switch (n.kind) {
    case NodeKind::Placeholder: {
      std::string kind(toString(n.input_kind));
      if (n.input_kind != InputKind::User) kind += sy::str(" '", n.target, "'");
      return sy::str(defs[0], " = placeholder[", kind, "]");
    }
    case NodeKind::Output: {
      std::vector<std::string> items;
      for (const NodeArgument& a : n.args) items.push_back(argumentText(g, a));
      return "return (" + absl::StrJoin(items, ", ") + ")";
    }
    case NodeKind::CallFunction: {
      std::vector<std::string> items;
      for (const NodeArgument& a : n.args) items.push_back(argumentText(g, a));
      std::string line = sy::str(defs.size() == 1 ? defs[0] : "(" + absl::StrJoin(defs, ", ") + ")", " = ",
                                 n.op->operator_name(), "(", absl::StrJoin(items, ", "), ")");
      if (!n.meta.delegation_tag.empty()) line += sy::str("  [tag ", n.meta.delegation_tag, "]");
      if (const SourceFrame* at = n.meta.location()) line += "  # " + at->str();
      return line;
    }
  }
  return "?";
}

std::string toString(const Graph& g) {
  std::string out = "graph():\n";
  for (size_t i = 0; i < g.nodes().size(); ++i) out += "    " + nodeLine(g, static_cast<NodeId>(i)) + "\n";
  return out;
}

std::ostream& operator<<(std::ostream& os, const Graph& g) { return os << toString(g); }

std::string toString(const ExportedProgram& program) {
  std::string out = toString(program.graph());
  for (size_t i = 0; i < program.lowered_modules().size(); ++i) {
    const LoweredModule& m = *program.lowered_modules()[i];
    std::vector<std::string> specs;
    for (const CompileSpec& spec : m.compile_specs) specs.push_back(sy::str(spec.key, " (", spec.value.size(), " bytes)"));
    out += sy::str("\nlowered module ", i, ": backend '", m.backend_id, "', ", m.processed_bytes.size(), " bytes",
                   specs.empty() ? std::string() : ", compile specs " + absl::StrJoin(specs, ", "), "\n");
    out += toString(m.original_program->graph());
  }
  return out;
}

std::string inspect_node(const Graph& g, NodeId id) {
  const Node& target = g.node(id);
  std::string out = "graph():\n";
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    out += (static_cast<NodeId>(i) == id ? "--> " : "    ") + nodeLine(g, static_cast<NodeId>(i)) + "\n";
  }
  out += sy::str("\nnode '", target.name, "': ", toString(target.kind));
  if (target.kind == NodeKind::Placeholder) out += sy::str(" (", toString(target.input_kind), ")");
  out += "\n";
  if (target.op) {
    out += sy::str("  operator: ", target.op->operator_name(), "\n");
    out += sy::str("  schema: ", target.op->schema(), "\n");
  }
  if (target.kind == NodeKind::CallFunction) out += sy::str("  debug handle: ", target.meta.debug_handle, "\n");
  out += sy::str("  delegation tag: ", target.meta.delegation_tag.empty() ? "none" : target.meta.delegation_tag, "\n");
  const SourceFrame* at = target.meta.location();
  out += sy::str("  source: ", at ? at->str() : std::string("unknown (made outside every SourceScope)"), "\n");
  if (target.meta.stack.size() > 1) {
    out += "  stack (outermost first):\n";
    for (const SourceFrame& f : target.meta.stack) out += "    " + f.str() + "\n";
  }
  std::vector<std::string> users;
  for (ValueId v : target.outputs) {
    for (NodeId u : g.usersOf(v)) users.push_back(g.node(u).name);
  }
  if (target.kind != NodeKind::Output) out += sy::str("  users: ", users.empty() ? "none" : absl::StrJoin(users, ", "), "\n");
  return out;
}

std::string inspect_node(const Graph& g, std::string_view node_name) {
  std::optional<NodeId> id = g.findNode(node_name);
  if (!id) {
    std::vector<std::string> names;
    for (const Node& n : g.nodes()) names.push_back(n.name);
    SY_ERROR_KIND(Index, "inspect_node: the graph has no node called '", node_name, "'; its nodes are ",
                  absl::StrJoin(names, ", "));
  }
  return inspect_node(g, *id);
}

}  // namespace sy::export_
