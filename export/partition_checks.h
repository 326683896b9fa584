// Internal to export/: what to_backend checks in a partitioner's result before lowering anything.
//
//   checkOnlyTagsChanged(program, result.tagged_exported_program);   // else sy::Error naming the node
//   std::vector<std::string> tags = checkedTags(result);              // in order of their first node
//   checkSelfContained(graph, "tag0", in_partition);
#pragma once

#include <string>
#include <vector>

#include "switchyard/export/partitioner.h"

namespace sy::export_ {

// Raises sy::Error naming the first difference between `given` and `tagged` other than delegation
// tags: nodes (kind, name, operator, arguments, results, debug handle, source stack), values,
// state tensors, lowered modules.
void checkOnlyTagsChanged(const ExportedProgram& given, const ExportedProgram& tagged);

// The tags on `result`'s nodes, in the order of each tag's first node. Raises sy::Error for a tag on
// the output node, on a placeholder (a tagged user input, parameter or constant), or on a delegate
// call, and for a tag partition_tags does not name (or names with an empty backend id).
std::vector<std::string> checkedTags(const PartitionResult& result);

// Raises sy::Error when a path leaves the partition `tag` (one entry per node) and re-enters it,
// naming the path. See Note [A partition must not leave and re-enter itself].
void checkSelfContained(const Graph& graph, const std::string& tag, const std::vector<bool>& in_partition);

}  // namespace sy::export_
