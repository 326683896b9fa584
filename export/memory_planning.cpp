#include "switchyard/export/memory_planning.h"

#include <algorithm>
#include <numeric>

#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

uint64_t alignUp(uint64_t n, uint64_t alignment) {
  SY_CHECK_VALUE(n <= UINT64_MAX - (alignment - 1), "memory plan: a tensor of ", n, " bytes is too large to align");
  return (n + alignment - 1) / alignment * alignment;
}

bool livesOverlap(const PlannedTensor& a, const PlannedTensor& b) { return a.first <= b.last && b.first <= a.last; }

}  // namespace

// See Note [Memory plans reuse bytes of tensors whose lifetimes are disjoint].
MemoryPlan planMemory(const std::vector<PlannedTensor>& tensors, uint64_t alignment) {
  SY_CHECK_VALUE(alignment > 0 && (alignment & (alignment - 1)) == 0, "memory plan: alignment ", alignment,
                 " is not a power of two");
  MemoryPlan plan;
  plan.offsets.assign(tensors.size(), 0);
  std::vector<uint64_t> sizes(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    SY_CHECK_VALUE(tensors[i].first <= tensors[i].last, "memory plan: tensor ", i, " is last read at step ",
                   tensors[i].last, ", before it is written at step ", tensors[i].first);
    sizes[i] = alignUp(tensors[i].bytes, alignment);
    SY_CHECK_VALUE(plan.unplanned_bytes <= UINT64_MAX - sizes[i], "memory plan: the tensors' sizes overflow");
    plan.unplanned_bytes += sizes[i];
  }
  std::vector<size_t> order(tensors.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });

  std::vector<size_t> placed;
  for (size_t i : order) {
    // The placed tensors alive with this one, by offset; the first gap that fits wins.
    std::vector<size_t> conflicts;
    for (size_t j : placed) {
      if (livesOverlap(tensors[i], tensors[j])) conflicts.push_back(j);
    }
    std::sort(conflicts.begin(), conflicts.end(), [&](size_t a, size_t b) { return plan.offsets[a] < plan.offsets[b]; });
    uint64_t offset = 0;
    for (size_t j : conflicts) {
      if (offset + sizes[i] <= plan.offsets[j]) break;
      offset = std::max(offset, plan.offsets[j] + sizes[j]);
    }
    plan.offsets[i] = offset;
    plan.planned_bytes = std::max(plan.planned_bytes, offset + sizes[i]);
    placed.push_back(i);
  }
  // The plan's own check: no two tensors alive together share a byte.
  for (size_t a = 0; a < tensors.size(); ++a) {
    for (size_t b = a + 1; b < tensors.size(); ++b) {
      if (!livesOverlap(tensors[a], tensors[b]) || sizes[a] == 0 || sizes[b] == 0) continue;
      const bool disjoint = plan.offsets[a] + sizes[a] <= plan.offsets[b] || plan.offsets[b] + sizes[b] <= plan.offsets[a];
      SY_CHECK(disjoint, "memory plan: tensors ", a, " and ", b, " are alive together but share memory (a planner bug)");
    }
  }
  return plan;
}

}  // namespace sy::export_
