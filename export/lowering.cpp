#include "switchyard/export/lowering.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_join.h"
#include "switchyard/export/partition_checks.h"
#include "switchyard/export/partitioners.h"
#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

// The nodes of one tag, in graph order.
struct Partition {
  std::string tag;
  DelegationSpec spec;
  std::vector<NodeId> nodes;
  std::vector<bool> contains;  // by NodeId
};

std::string nodeNames(const Graph& g, const std::vector<NodeId>& nodes) {
  std::vector<std::string> names;
  for (NodeId n : nodes) names.push_back(g.node(n).name);
  return absl::StrJoin(names, ", ");
}

std::vector<NodeArgument> remapArguments(const std::vector<NodeArgument>& args, const std::map<ValueId, ValueId>& to) {
  std::vector<NodeArgument> out = args;
  for (NodeArgument& a : out) {
    if (a.kind == NodeArgument::Kind::Value) a.value = to.at(a.value);
    for (ValueId& v : a.values) {
      if (v != NodeArgument::kNone) v = to.at(v);
    }
  }
  return out;
}

// A copy of call node `n` of `from` in `to`, reading the values `map` gives; maps its results.
void copyCall(const Graph& from, const Node& n, Graph& to, std::map<ValueId, ValueId>& map) {
  std::vector<TensorMeta> metas;
  for (ValueId v : n.outputs) metas.push_back(from.value(v).meta);
  NodeMeta meta = n.meta;
  meta.delegation_tag.clear();
  std::vector<NodeArgument> args = remapArguments(n.args, map);
  NodeId id;
  if (isDelegateCall(n)) {
    id = to.addDelegateCall(n.args[0].constant.toStringRef(), n.args[1].constant.toInt(), args[2].values,
                            std::move(metas), std::move(meta), n.name);
  } else {
    id = to.addCall(*n.op, std::move(args), std::move(metas), std::move(meta), n.name);
  }
  for (size_t r = 0; r < n.outputs.size(); ++r) map[n.outputs[r]] = to.node(id).outputs[r];
}

bool isStatePlaceholder(const Node& n) { return n.kind == NodeKind::Placeholder && n.input_kind != InputKind::User; }

// The partition's subprogram (See Note [Each tag is one delegate call], and see Note [Delegates
// own the constants of their partition]); `inputs` and `outputs` receive the program's values the
// delegate call reads and defines.
ExportedProgram subprogramOf(const ExportedProgram& program, const Partition& p, std::vector<ValueId>* inputs,
                             std::vector<ValueId>* outputs) {
  const Graph& g = program.graph();
  Graph sub;
  std::map<ValueId, ValueId> map;
  std::map<std::string, Tensor> state;
  for (NodeId id : p.nodes) {
    for (const NodeArgument& a : g.node(id).args) {
      for (ValueId v : a.readValues()) {
        if (map.count(v) != 0 || p.contains[static_cast<size_t>(g.producer(v))]) continue;
        const Node& producer = g.node(g.producer(v));
        if (isStatePlaceholder(producer)) {
          map[v] = sub.addPlaceholder(g.value(v).name, producer.input_kind, producer.target, g.value(v).meta);
          state[producer.target] = program.state().at(producer.target);
        } else {
          map[v] = sub.addPlaceholder(g.value(v).name, InputKind::User, "", g.value(v).meta);
          inputs->push_back(v);
        }
      }
    }
  }
  for (NodeId id : p.nodes) copyCall(g, g.node(id), sub, map);
  std::vector<ValueId> results;
  for (NodeId id : p.nodes) {
    for (ValueId v : g.node(id).outputs) {
      const std::vector<NodeId> users = g.usersOf(v);
      if (std::any_of(users.begin(), users.end(), [&](NodeId u) { return !p.contains[static_cast<size_t>(u)]; })) {
        outputs->push_back(v);
        results.push_back(map.at(v));
      }
    }
  }
  sub.setOutputs(results);
  return ExportedProgram(std::move(sub), std::move(state));
}

std::shared_ptr<const LoweredModule> lower(const ExportedProgram& program, const Partition& p,
                                           std::vector<ValueId>* inputs, std::vector<ValueId>* outputs) {
  const Graph& g = program.graph();
  const std::string what = sy::str("to_backend: partition '", p.tag, "' (nodes ", nodeNames(g, p.nodes), ")");
  const BackendDetails* details = findBackendDetails(p.spec.backend_id);
  if (details == nullptr) {
    const std::vector<std::string> known = registeredBackendDetails();
    SY_ERROR(what, " is for backend '", p.spec.backend_id,
             "', which has no ahead-of-time half registered (sy::export_::registerBackendDetails); registered: ",
             known.empty() ? std::string("none") : absl::StrJoin(known, ", "));
  }
  auto module = std::make_shared<LoweredModule>();
  module->backend_id = p.spec.backend_id;
  module->compile_specs = p.spec.compile_specs;
  module->original_program = std::make_shared<const ExportedProgram>(subprogramOf(program, p, inputs, outputs));
  absl::StatusOr<PreprocessResult> result = details->preprocess(*module->original_program, module->compile_specs);
  SY_CHECK(result.ok(), what, ": backend '", p.spec.backend_id, "' failed to preprocess it: ", result.status().message());
  const Graph& sub = module->original_program->graph();
  for (const auto& [own, handles] : result->debug_handle_map) {
    for (int64_t h : handles) {
      SY_CHECK(sub.findByDebugHandle(h).has_value(), what, ": backend '", p.spec.backend_id,
               "' maps its debug handle ", own, " to debug handle ", h, ", which no node of the partition has");
    }
  }
  module->processed_bytes = std::move(result->processed_bytes);
  module->debug_handle_map = std::move(result->debug_handle_map);
  module->named_data = std::move(result->named_data);
  return module;
}

// One node of the lowered program, before ordering: a node kept from the program, or a partition.
struct Unit {
  NodeId first = 0;          // where it was: sorts ties
  const Partition* partition = nullptr;
  std::vector<ValueId> reads;    // values of the program
  std::vector<ValueId> defines;  // values of the program
};

}  // namespace

ExportedProgram to_backend(const ExportedProgram& program, const Partitioner& partitioner) {
  PartitionResult result = partitioner.partition(program);
  checkOnlyTagsChanged(program, result.tagged_exported_program);
  const Graph& g = result.tagged_exported_program.graph();
  std::vector<std::string> tags = checkedTags(result);

  std::vector<Partition> partitions;
  std::vector<int> partition_of(g.nodes().size(), -1);
  for (const std::string& tag : tags) {
    Partition p{tag, result.partition_tags.at(tag), {}, std::vector<bool>(g.nodes().size(), false)};
    for (NodeId id = 0; id < static_cast<NodeId>(g.nodes().size()); ++id) {
      if (g.node(id).meta.delegation_tag != tag) continue;
      p.nodes.push_back(id);
      p.contains[static_cast<size_t>(id)] = true;
      partition_of[static_cast<size_t>(id)] = static_cast<int>(partitions.size());
    }
    checkSelfContained(g, tag, p.contains);
    partitions.push_back(std::move(p));
  }

  // Lower each partition, then order what is left with one delegate call per partition.
  std::vector<std::shared_ptr<const LoweredModule>> modules = program.lowered_modules();
  std::vector<Unit> units;
  std::vector<bool> read_outside(g.numValues(), false);  // by a node no partition has, or the output
  for (NodeId id = 0; id < static_cast<NodeId>(g.nodes().size()); ++id) {
    const Node& n = g.node(id);
    if (partition_of[static_cast<size_t>(id)] >= 0 || n.kind == NodeKind::Placeholder) continue;
    for (const NodeArgument& a : n.args) {
      for (ValueId v : a.readValues()) read_outside[static_cast<size_t>(v)] = true;
    }
    if (n.kind == NodeKind::CallFunction) {
      Unit u{id, nullptr, {}, n.outputs};
      for (const NodeArgument& a : n.args) {
        for (ValueId v : a.readValues()) u.reads.push_back(v);
      }
      units.push_back(std::move(u));
    }
  }
  std::vector<std::vector<ValueId>> partition_outputs(partitions.size());
  std::vector<std::vector<ValueId>> partition_inputs(partitions.size());
  for (size_t i = 0; i < partitions.size(); ++i) {
    modules.push_back(lower(result.tagged_exported_program, partitions[i], &partition_inputs[i], &partition_outputs[i]));
    units.push_back(Unit{partitions[i].nodes.front(), &partitions[i], partition_inputs[i], partition_outputs[i]});
  }
  std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) { return a.first < b.first; });

  Graph lowered;
  std::map<ValueId, ValueId> map;
  std::map<std::string, Tensor> state;
  std::vector<bool> available(g.numValues(), false);
  for (const Node& n : g.nodes()) {
    if (n.kind != NodeKind::Placeholder) continue;
    available[static_cast<size_t>(n.outputs[0])] = true;
    if (n.input_kind != InputKind::User && !read_outside[static_cast<size_t>(n.outputs[0])]) continue;
    map[n.outputs[0]] = lowered.addPlaceholder(n.name, n.input_kind, n.target, g.value(n.outputs[0]).meta);
    if (n.input_kind != InputKind::User) state[n.target] = program.state().at(n.target);
  }
  int64_t next_debug_handle = 1;
  for (const Node& n : g.nodes()) next_debug_handle = std::max(next_debug_handle, n.meta.debug_handle + 1);
  // Stable topological order: always the earliest unit whose inputs are all there.
  std::vector<bool> done(units.size(), false);
  for (size_t emitted = 0; emitted < units.size(); ++emitted) {
    size_t pick = 0;
    while (done[pick] || !std::all_of(units[pick].reads.begin(), units[pick].reads.end(),
                                      [&](ValueId v) { return available[static_cast<size_t>(v)]; })) {
      ++pick;
      SY_CHECK(pick < units.size(), "to_backend: no order of the lowered program's nodes satisfies their dependencies");
    }
    done[pick] = true;
    const Unit& u = units[pick];
    if (u.partition == nullptr) {
      copyCall(g, g.node(u.first), lowered, map);
    } else {
      const size_t index = static_cast<size_t>(u.partition - partitions.data());
      const size_t module_index = program.lowered_modules().size() + index;
      std::vector<ValueId> inputs;
      for (ValueId v : u.reads) inputs.push_back(map.at(v));
      std::vector<TensorMeta> metas;
      for (ValueId v : u.defines) metas.push_back(g.value(v).meta);
      NodeMeta meta;
      meta.debug_handle = next_debug_handle++;
      const NodeId id = lowered.addDelegateCall(u.partition->spec.backend_id, static_cast<int64_t>(module_index),
                                                std::move(inputs), std::move(metas), std::move(meta));
      for (size_t r = 0; r < u.defines.size(); ++r) map[u.defines[r]] = lowered.node(id).outputs[r];
    }
    for (ValueId v : u.defines) available[static_cast<size_t>(v)] = true;
  }
  std::vector<ValueId> outputs;
  for (ValueId v : g.outputs()) outputs.push_back(map.at(v));
  lowered.setOutputs(std::move(outputs));
  return ExportedProgram(std::move(lowered), std::move(state), std::move(modules));
}

ExportedProgram to_backend(const std::string& backend_id, const ExportedProgram& program,
                           const std::vector<CompileSpec>& compile_specs) {
  return to_backend(program, WholeProgramPartitioner(DelegationSpec{backend_id, compile_specs}));
}

}  // namespace sy::export_
