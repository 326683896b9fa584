// to_backend: lowers the partitions a partitioner tagged to their delegate backends, each through
// the backend's preprocess (export/backend_details.h), and puts one delegate call in place of each.
// ExecuTorch's to_backend, in C++.
//
//   sy::export_::OperatorSupportPartitioner partitioner(
//       {"BackendWithCompilerDemo", {}},
//       sy::export_::OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul", "aten::sin"}));
//   sy::export_::ExportedProgram lowered = sy::export_::to_backend(ep, partitioner);
//   std::vector<sy::Tensor> y = lowered.run({x});                   // delegate calls run their backend
//   sy::export_::emitProgram(lowered)->save("model.pte");           // BackendDelegate entries
//   // or the whole program for one backend:
//   sy::export_::ExportedProgram all = sy::export_::to_backend("BackendWithCompilerDemo", ep, {});
//
// Several backends: call to_backend once per partitioner (what the first lowers, the second
// never sees: the order matters), or use one partitioner whose tags name several backends.
//
// Note [Each tag is one delegate call]
// All nodes with one tag become one lowered module, run by one delegate call; they need not be
// connected, but no data path may leave them and come back (See Note [A partition must not leave
// and re-enter itself]). The partition's subprogram reads, as user inputs, the values that flow
// into it (in order of first use), and returns the values that nodes outside it (or the program's
// output) read, in the order they are defined. Its nodes keep their names, debug handles and
// source stacks, so preprocess errors and the debug-handle map name the original nodes. The new
// program keeps every other node in its order, with each delegate call at the earliest place its
// inputs allow.
//
// Note [Delegates own the constants of their partition]
// Every parameter or constant a partition reads becomes a placeholder of its subprogram, so the
// backend can bake it into its processed bytes: the delegate owns it. The program keeps the
// placeholder only while a node outside every lowered partition still reads it; so a constant
// read by two partitions is owned by each (duplicated, once per blob), and a parameter also read
// outside is both delegate-owned and program-owned.
//
// Errors (sy::Error, each naming the nodes and tags involved): a partitioner that changed
// anything but delegation tags, a tag on the output node or on a placeholder (a user input cannot
// be moved into a delegate; parameters and constants follow the nodes that read them), a tagged
// delegate call (lowered already), a tag the result's partition_tags does not name, a partition
// that leaves and re-enters itself, a backend id with no registered BackendDetails, a preprocess
// that fails, or a debug-handle map naming nodes its partition does not have.
#pragma once

#include <string>
#include <vector>

#include "switchyard/export/lowered_module.h"
#include "switchyard/export/partitioner.h"

namespace sy::export_ {

ExportedProgram to_backend(const ExportedProgram& program, const Partitioner& partitioner);
// Every call node of `program` (but earlier delegate calls) in one lowered module for `backend_id`.
ExportedProgram to_backend(const std::string& backend_id, const ExportedProgram& program,
                           const std::vector<CompileSpec>& compile_specs);

}  // namespace sy::export_
