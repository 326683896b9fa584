// Emission: turns exported programs into a program file (.pte) that sy::Program::load runs.
//
//   absl::StatusOr<sy::export_::EmittedProgram> file = sy::export_::emitProgram({{"forward", &ep}});
//   if (!file.ok()) { std::cerr << file.status() << "\n"; return 1; }
//   std::cout << file->methods[0].planned_bytes << " of " << file->methods[0].unplanned_bytes << " bytes\n";
//   absl::Status saved = file->save("model.pte");
//
// What the emitter does with each method's graph:
// - every call_function node becomes one KernelCall of its operator's out variant, found through
//   the schemas (See Note [Operator variants are matched by schema]); a view node becomes a call
//   of its `_copy` out variant, which writes a value of its own (See Note [Graphs are functional]),
//   or of view_copy.out (See Note [Views that keep element order are emitted as view_copy]);
// - user inputs and every node's results are planned in one buffer (memory id 1), values whose
//   lifetimes are disjoint sharing bytes (See Note [Memory plans reuse bytes of tensors whose
//   lifetimes are disjoint]); the report gives the planned size against the sum of all sizes;
// - parameters and constants go into the program's constant segment, a data segment behind the
//   extended header, each stored once even when several methods read the same tensor;
// - each instruction's source stack becomes its entry in the chain's stack traces (Frame:
//   filename, lineno, name = the function, context = the node's name);
// - a delegate call (export/lowering.h) becomes a DelegateCall of a BackendDelegate entry (the
//   backend's id, its compile specs, its processed blob in a data segment or inline), and its
//   debug-handle map becomes its stack frames (See Note [A program file keeps a delegate's
//   debug-handle map in its stack traces]).
//
// Errors are absl::Status values naming the method and node: an operator without an out variant,
// a tensor dtype the format cannot hold, a non-CPU constant, a constant argument the format has
// no value for (a Device), duplicate or empty method names.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "switchyard/export/exported_program.h"

namespace sy::export_ {

struct EmittedMethod {
  std::string name;
  size_t instructions = 0;
  uint64_t planned_bytes = 0;    // the planned buffer's size
  uint64_t unplanned_bytes = 0;  // the sum of every planned tensor's size: what no reuse would take
  size_t constants = 0;          // parameter and constant tensors it reads
  size_t delegates = 0;          // BackendDelegate entries
};

struct EmittedProgram {
  std::vector<uint8_t> bytes;  // the whole file
  std::vector<EmittedMethod> methods;
  uint64_t constant_bytes = 0;  // the constant segment's size

  // Writes `bytes` to `path`; an error names the path.
  absl::Status save(const std::string& path) const;
};

struct MethodToEmit {
  std::string name;
  const ExportedProgram* program = nullptr;
};

struct EmitOptions {
  // Delegates' processed blobs as data segments after the FlatBuffers data (what ExecuTorch writes
  // by default), or inline in Program.backend_delegate_data.
  bool delegate_blobs_in_segments = true;
};

absl::StatusOr<EmittedProgram> emitProgram(const std::vector<MethodToEmit>& methods, const EmitOptions& options = {});
// One method.
absl::StatusOr<EmittedProgram> emitProgram(const ExportedProgram& program, std::string method = "forward",
                                           const EmitOptions& options = {});

}  // namespace sy::export_
