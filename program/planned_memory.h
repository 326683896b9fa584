// PlannedMemory: the caller's buffers for a method's planned tensors (ExecuTorch's MemoryManager).
//
//   std::vector<uint8_t> arena(meta.planned_buffer_sizes[1]);
//   sy::PlannedMemory memory;
//   memory.buffers = {{}, absl::MakeSpan(arena)};   // one per planned buffer; entry 0 is unused
//   sy::MethodOptions options;
//   options.planned_memory = &memory;
//   auto method = program.load_method("forward", options);
//
// Without one, load_method allocates each buffer once, at its planned size. Each buffer must be
// at least its planned size (MethodMeta::planned_buffer_sizes) and outlive the Method; the
// method's tensors are views into it, at the offsets the exporter planned (values with disjoint
// lifetimes share bytes). Buffers should be aligned to 16 bytes, as an exporter's offsets are.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace sy {

struct PlannedMemory {
  std::vector<absl::Span<uint8_t>> buffers;
};

}  // namespace sy
