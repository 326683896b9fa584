// Partitioner: decides which nodes of an exported program each delegate backend takes, by tagging
// them (NodeMeta::delegation_tag) and saying which backend and compile specs each tag stands for.
// ExecuTorch's Partitioner, in C++; to_backend (export/lowering.h) does the lowering.
//
//   class AddMulPartitioner final : public sy::export_::Partitioner {
//    public:
//     sy::export_::PartitionResult partition(const sy::export_::ExportedProgram& program) const override {
//       sy::export_::PartitionResult result = sy::export_::PartitionResult::copyOf(program);
//       for (... each node to delegate ...) result.tagged_exported_program.setDelegationTag(node, "tag0");
//       result.partition_tags["tag0"] = {"BackendWithCompilerDemo", {}};
//       return result;
//     }
//   };
//
// A partitioner returns a tagged copy: it may set delegation tags and nothing else (to_backend
// compares the copy with the program it was given, and any other change is an error naming the
// node).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "switchyard/export/backend_details.h"
#include "switchyard/export/exported_program.h"

namespace sy::export_ {

struct DelegationSpec {
  std::string backend_id;
  std::vector<CompileSpec> compile_specs;
};

struct PartitionResult {
  ExportedProgram tagged_exported_program;
  // Every tag the partitioner set -> the backend and compile specs its nodes are lowered with.
  std::map<std::string, DelegationSpec> partition_tags;

  // A result holding an untagged copy of `program` (every delegation tag cleared) and no tags.
  static PartitionResult copyOf(const ExportedProgram& program);
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  virtual PartitionResult partition(const ExportedProgram& program) const = 0;
};

}  // namespace sy::export_
