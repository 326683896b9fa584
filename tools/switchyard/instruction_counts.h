// Instructions per call of each cell of the overhead table (overhead_table.h), and per execute of
// a program's method, counted by running this executable again under valgrind's callgrind, as
// bench/overhead.py counts overhead_bench's.
//
//   absl::StatusOr<std::vector<std::vector<double>>> counts = sy::cli::countInstructionsPerCall();
//   if (!counts.ok()) std::cout << "not counted: " << counts.status().message();
//
//   // `switchyard bench model.pte --random 1`: the child loads the method and calls
//   // runLoopsInCallgrindChild(execute_once); the parent reads what it counted.
//   absl::StatusOr<double> per_execute =
//       sy::cli::countInstructionsPerLoop({"bench", "model.pte", "--random=1"}, 100, 300);
//
// Note [Instruction counts come from a callgrind child]
// Unlike a time, an instruction count is the same on an idle machine and a loaded one, so it is
// what `switchyard bench` leads with. Counting needs valgrind at run time: the parent finds
// `valgrind` on PATH and runs `/proc/self/exe bench` under callgrind with collection off and
// SWITCHYARD_BENCH_CALLGRIND_CHILD set. The child (isCallgrindChild) sets each row up and, for two
// loop counts, turns collection on around just the loop and dumps the counters with a label
// naming the cell (CALLGRIND_DUMP_STATS_AT): one file per dump, whose "summary:" line is the
// loop's instruction count. The parent reads them back and divides the difference between the two
// loops by the difference in calls, so start-up, set-up and warm-up cancel. `switchyard bench
// PROGRAM.pte` measures a method's execute the same way: the parent passes its own arguments to the
// child, and the child variable carries the two loop counts ("100,300"), chosen from the time an
// execute takes so that a large model is run a few times rather than hundreds. Without valgrind, or
// in a build whose binary valgrind cannot run (a sanitizer build), the counts are missing and the
// reason is printed instead.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace sy::cli {

// [row][column] instructions per call, in overheadCells()'s order; or why they could not be counted.
absl::StatusOr<std::vector<std::vector<double>>> countInstructionsPerCall();

// Whether this process is the callgrind child of countInstructionsPerCall (See Note [Instruction
// counts come from a callgrind child]); if so, runCallgrindChild measures every cell and returns
// the process's exit status.
bool isCallgrindChild();
int runCallgrindChild();

// Instructions per iteration of the loop a child run as `switchyard <child_args>` makes with
// runLoopsInCallgrindChild, from loops of `low` and `high` iterations (low < high).
absl::StatusOr<double> countInstructionsPerLoop(const std::vector<std::string>& child_args, int low, int high);

// In that child: runs `iteration` once to warm up, then in the two loops the parent asked for,
// collecting only those. An iteration that returns false stops the child with exit status 1.
int runLoopsInCallgrindChild(const std::function<bool()>& iteration);

}  // namespace sy::cli
