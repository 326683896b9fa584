// Memory planning: offsets in one buffer for tensors whose lifetimes are known, so that tensors
// never alive at the same time share bytes.
//
//   std::vector<sy::export_::PlannedTensor> ts = {{/*bytes=*/64, /*first=*/0, /*last=*/1},
//                                                 {64, 1, 2}, {64, 2, 3}};
//   sy::export_::MemoryPlan plan = sy::export_::planMemory(ts);
//   // plan.offsets == {0, 64, 0}: the third reuses the first's bytes; plan.planned_bytes == 128,
//   // plan.unplanned_bytes == 192 (what one buffer per tensor would take)
//
// Note [Memory plans reuse bytes of tensors whose lifetimes are disjoint]
// A tensor is alive from the instruction that writes it (`first`) to the last instruction that
// reads it (`last`), both inclusive; inputs start before the first instruction, outputs end after
// the last. An instruction's inputs and outputs are therefore alive at the same step and never
// share memory, which is what an out= kernel requires (its `out` must not overlap its inputs).
// Tensors are placed largest first, each at the lowest aligned offset where it overlaps no placed
// tensor that is alive at any step it is: greedy by size, as ExecuTorch's planner does. The plan
// is checked after it is made (no two overlapping lifetimes share a byte), so a bug shows up as an
// error, not as a wrong result.
#pragma once

#include <cstdint>
#include <vector>

namespace sy::export_ {

struct PlannedTensor {
  uint64_t bytes = 0;
  int64_t first = 0;  // the step that writes it (-1 for an input)
  int64_t last = 0;   // the last step that reads it (a large number for an output)
};

struct MemoryPlan {
  std::vector<uint64_t> offsets;  // one per tensor, in the order given
  uint64_t planned_bytes = 0;     // the buffer's size
  uint64_t unplanned_bytes = 0;   // the sum of every tensor's (aligned) size: the cost without reuse
};

// Raises sy::Error for a tensor whose `last` is before its `first`, or sizes that overflow.
MemoryPlan planMemory(const std::vector<PlannedTensor>& tensors, uint64_t alignment = 16);

}  // namespace sy::export_
