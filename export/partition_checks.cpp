#include "switchyard/export/partition_checks.h"

#include <set>

#include "absl/strings/str_join.h"
#include "switchyard/export/node_dependencies.h"
#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

bool sameStack(const std::vector<SourceFrame>& a, const std::vector<SourceFrame>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].file != b[i].file || a[i].line != b[i].line || a[i].function != b[i].function) return false;
  }
  return true;
}

bool sameArguments(const std::vector<NodeArgument>& a, const std::vector<NodeArgument>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].value != b[i].value || a[i].values != b[i].values) return false;
    if (a[i].kind == NodeArgument::Kind::Constant && !(a[i].constant == b[i].constant)) return false;
  }
  return true;
}

// What differs between two nodes apart from their tags; empty when nothing does.
std::string nodeDifference(const Node& a, const Node& b) {
  if (a.kind != b.kind) return sy::str("its kind (", toString(a.kind), " became ", toString(b.kind), ")");
  if (a.name != b.name) return sy::str("its name (now '", b.name, "')");
  if (a.input_kind != b.input_kind || a.target != b.target) return "what it stands for";
  if (a.op.has_value() != b.op.has_value() || (a.op && a.op->operator_name() != b.op->operator_name())) return "its operator";
  if (!sameArguments(a.args, b.args)) return "its arguments";
  if (a.outputs != b.outputs) return "its results";
  if (a.meta.debug_handle != b.meta.debug_handle) return "its debug handle";
  if (!sameStack(a.meta.stack, b.meta.stack)) return "its source stack";
  return "";
}

}  // namespace

void checkOnlyTagsChanged(const ExportedProgram& given, const ExportedProgram& tagged) {
  constexpr const char* kRule = "; a partitioner may only set delegation tags (start from PartitionResult::copyOf)";
  const Graph& a = given.graph();
  const Graph& b = tagged.graph();
  SY_CHECK(a.nodes().size() == b.nodes().size(), "to_backend: the partitioner returned a program of ", b.nodes().size(),
           " nodes for one of ", a.nodes().size(), kRule);
  for (NodeId id = 0; id < static_cast<NodeId>(a.nodes().size()); ++id) {
    const std::string difference = nodeDifference(a.node(id), b.node(id));
    SY_CHECK(difference.empty(), "to_backend: the partitioner changed node '", a.node(id).name, "' (", difference, ")",
             kRule);
  }
  SY_CHECK(a.numValues() == b.numValues(), "to_backend: the partitioner changed the number of values", kRule);
  for (ValueId v = 0; v < static_cast<ValueId>(a.numValues()); ++v) {
    SY_CHECK(a.value(v).meta == b.value(v).meta && a.value(v).name == b.value(v).name,
             "to_backend: the partitioner changed value %", a.value(v).name, kRule);
  }
  SY_CHECK(given.state().size() == tagged.state().size(), "to_backend: the partitioner changed the program's state", kRule);
  for (const auto& [name, tensor] : given.state()) {
    auto it = tagged.state().find(name);
    SY_CHECK(it != tagged.state().end() && it->second.is_same(tensor), "to_backend: the partitioner replaced '", name,
             "' in the program's state", kRule);
  }
  SY_CHECK(given.lowered_modules() == tagged.lowered_modules(), "to_backend: the partitioner changed the lowered modules",
           kRule);
}

std::vector<std::string> checkedTags(const PartitionResult& result) {
  const Graph& g = result.tagged_exported_program.graph();
  std::vector<std::string> tags;
  std::set<std::string> seen;
  for (const Node& n : g.nodes()) {
    const std::string& tag = n.meta.delegation_tag;
    if (tag.empty()) continue;
    SY_CHECK(n.kind != NodeKind::Output, "to_backend: the output node '", n.name, "' is tagged '", tag,
             "'; the program's outputs cannot be delegated, tag the nodes that compute them");
    SY_CHECK(n.kind != NodeKind::Placeholder || n.input_kind != InputKind::User, "to_backend: user input '", n.name,
             "' is tagged '", tag, "'; a program's input cannot be moved into a delegate, tag the nodes that read it");
    SY_CHECK(n.kind != NodeKind::Placeholder, "to_backend: ", toString(n.input_kind), " '", n.name, "' is tagged '", tag,
             "'; parameters and constants are not tagged, they go with the tagged nodes that read them");
    SY_CHECK(!isDelegateCall(n), "to_backend: delegate call '", n.name, "' is tagged '", tag,
             "'; a lowered module cannot be lowered again");
    auto spec = result.partition_tags.find(tag);
    SY_CHECK(spec != result.partition_tags.end(), "to_backend: node '", n.name, "' is tagged '", tag,
             "', which the partitioner's partition_tags does not name");
    SY_CHECK(!spec->second.backend_id.empty(), "to_backend: tag '", tag, "' names no backend");
    if (seen.insert(tag).second) tags.push_back(tag);
  }
  return tags;
}

void checkSelfContained(const Graph& graph, const std::string& tag, const std::vector<bool>& in_partition) {
  const std::vector<NodeId> path = NodeDependencies(graph).pathLeavingAndReentering(in_partition);
  if (path.empty()) return;
  std::vector<std::string> names;
  for (NodeId n : path) names.push_back(graph.node(n).name);
  std::vector<std::string> outside(names.begin() + 1, names.end() - 1);
  SY_ERROR("to_backend: partition '", tag, "' is not self-contained: the path ", absl::StrJoin(names, " -> "),
           " leaves it after '", names.front(), "' and re-enters it at '", names.back(), "' through '",
           absl::StrJoin(outside, "', '"),
           "', which would have to run both before and after its delegate call; tag the nodes on the path too, or "
           "split the partition");
}

}  // namespace sy::export_
