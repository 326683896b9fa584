#include "switchyard/export/lowered_module.h"

#include "switchyard/core/error.h"

namespace sy::export_ {

std::string describeLoweredNode(const Node& node) {
  return sy::str(node.op ? node.op->operator_name().toString() : std::string(toString(node.kind)), " (node '", node.name,
                 "')");
}

std::map<int64_t, std::string> LoweredModule::debugHandleSources() const {
  std::map<int64_t, std::string> out;
  if (original_program == nullptr) return out;
  const Graph& g = original_program->graph();
  for (const auto& [own, handles] : debug_handle_map) {
    std::string text;
    for (int64_t h : handles) {
      std::optional<NodeId> id = g.findByDebugHandle(h);
      if (!id) continue;  // to_backend checked the map; a module built by hand may not be
      const Node& n = g.node(*id);
      if (!text.empty()) text += "; ";
      text += describeLoweredNode(n);
      if (const SourceFrame* at = n.meta.location()) text += " at " + at->str();
    }
    if (!text.empty()) out.emplace(own, std::move(text));
  }
  return out;
}

}  // namespace sy::export_
