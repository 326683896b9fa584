// The per-thread scratch tensors behind scratch_tensor.h.
#include "switchyard/backends/devices/cpu/scratch_tensor.h"

#include <array>

#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {
namespace {

bool isFree(const Tensor& t) { return t.use_count() == 1 && t.storage().use_count() == 1; }

}  // namespace

Tensor scratchTensor(const char* op, IntArrayRef sizes, ScalarType dtype) {
  const int index = static_cast<int>(dtype);
  const size_t bytes = checkedStorageBytes(op, 0, checkedNumel(op, sizes), dtype, sizes);
  if (index < 0 || index >= kNumScalarTypes || bytes > kScratchSlotBytes) return sy::empty(sizes, dtype);
  thread_local std::array<std::array<Tensor, kScratchSlots>, kNumScalarTypes> kept;
  for (Tensor& slot : kept[static_cast<size_t>(index)]) {
    if (!slot.defined()) {
      slot = sy::empty(sizes, dtype);
      return slot;
    }
    if (isFree(slot)) {
      if (!sameSizes(slot.sizes(), sizes)) slot.unsafeGetTensorImpl()->resize(sizes);
      return slot;
    }
  }
  return sy::empty(sizes, dtype);
}

}  // namespace sy::cpu
