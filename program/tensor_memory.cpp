// See Note [A method's tensors change sizes within the memory planned for them] (tensor_memory.h).
#include "switchyard/program/tensor_memory.h"

#include <optional>

#include "switchyard/core/error.h"

namespace sy {
namespace program_internal {

const char* dynamismName(pte::TensorShapeDynamism dynamism) {
  switch (dynamism) {
    case pte::TensorShapeDynamism::STATIC: return "STATIC";
    case pte::TensorShapeDynamism::DYNAMIC_BOUND: return "DYNAMIC_BOUND";
    case pte::TensorShapeDynamism::DYNAMIC_UNBOUND: return "DYNAMIC_UNBOUND";
  }
  return "an unknown dynamism";
}

DataPtr BoundedMemory::allocate(size_t nbytes) {
  if (nbytes <= capacity_) return DataPtr{data_, nullptr, nullptr, kCPU};
  const bool is_static = bound_.dynamism == pte::TensorShapeDynamism::STATIC;
  SY_ERROR_KIND(Value, "value ", value_index_, " cannot grow to ", nbytes, " bytes: the program plans ", capacity_,
           " bytes for it (", is_static ? "static sizes " : "sizes up to ", formatSizes(bound_.sizes), ", ",
           dynamismName(bound_.dynamism), "), so its inputs are larger than the program was exported for");
}

Tensor tensorOver(ScalarType dtype, const TensorGeometry& g, Allocator* memory, size_t capacity, int64_t storage_offset) {
  return tensorOn(make_intrusive<StorageImpl>(capacity, memory, kCPU), dtype, g, storage_offset);
}

Tensor tensorOn(Storage storage, ScalarType dtype, const TensorGeometry& g, int64_t storage_offset) {
  auto impl = make_intrusive<TensorImpl>(std::move(storage), dtype, kCPU);
  SizesVector sizes(g.sizes.begin(), g.sizes.end());
  SizesVector strides(g.strides.begin(), g.strides.end());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

absl::Status checkSizesWithin(const TensorBound& bound, IntArrayRef sizes, absl::FunctionRef<std::string()> where) {
  const IntArrayRef limit(bound.sizes.data(), bound.sizes.size());
  if (bound.dynamism == pte::TensorShapeDynamism::STATIC) {
    if (sameSizes(sizes, limit)) return absl::OkStatus();
    std::string which;
    for (size_t d = 0; sizes.size() == limit.size() && d < sizes.size(); ++d) {
      if (sizes[d] == limit[d]) continue;
      which = sy::str(" (dimension ", d, " is ", sizes[d], " where the program's static sizes say ", limit[d], ")");
      break;
    }
    return absl::InvalidArgumentError(sy::str(where(), " expects sizes ", formatSizes(limit), ", but the tensor given has sizes ",
                                              formatSizes(sizes), which));
  }
  if (sizes.size() != limit.size()) {
    return absl::InvalidArgumentError(sy::str(where(), " has ", limit.size(), " dimensions (sizes ", formatSizes(limit),
                                              ", ", dynamismName(bound.dynamism), "), but the tensor given has ",
                                              sizes.size(), " (sizes ", formatSizes(sizes), ")"));
  }
  if (bound.dynamism == pte::TensorShapeDynamism::DYNAMIC_UNBOUND) return absl::OkStatus();
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] <= limit[d]) continue;
    return absl::InvalidArgumentError(sy::str(where(), ": dimension ", d, " has size ", sizes[d], ", above its bound of ",
                                              limit[d], " (the tensor given has sizes ", formatSizes(sizes),
                                              "; the program takes sizes up to ", formatSizes(limit), ")"));
  }
  return absl::OkStatus();
}

namespace {

struct Extent {
  uint32_t buffer;
  uint64_t begin, end;
};

// Where value `index` lives in the planned buffers, when it is a planned tensor of at least one
// byte (an unbounded one has memory of its own: See Note [Unbounded tensors get memory at run time]).
std::optional<Extent> plannedExtent(const pte::ExecutionPlan& plan, uint32_t index) {
  const pte::Tensor* t = plan.values()->Get(index)->val_as_Tensor();
  const pte::AllocationDetails* alloc = t == nullptr ? nullptr : t->allocation_info();
  if (alloc == nullptr || t->shape_dynamism() == pte::TensorShapeDynamism::DYNAMIC_UNBOUND) return std::nullopt;
  absl::StatusOr<TensorGeometry> g = tensorGeometry(*t);
  if (!g.ok() || g->nbytes == 0) return std::nullopt;
  const uint64_t offset = static_cast<uint64_t>(alloc->memory_offset_high()) << 32 | alloc->memory_offset_low();
  return Extent{alloc->memory_id(), offset, offset + g->nbytes};  // within its buffer: checked at load
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> inputsSharingTheirBytes(const pte::ExecutionPlan& plan) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  if (plan.inputs() == nullptr || plan.values() == nullptr) return out;
  std::vector<std::optional<Extent>> extents;
  for (uint32_t j = 0; j < plan.values()->size(); ++j) extents.push_back(plannedExtent(plan, j));
  for (uint32_t k = 0; k < plan.inputs()->size(); ++k) {
    const uint32_t input = static_cast<uint32_t>(plan.inputs()->Get(k));
    if (input >= extents.size() || !extents[input]) continue;
    const Extent& in = *extents[input];
    for (uint32_t j = 0; j < extents.size(); ++j) {
      const std::optional<Extent>& other = extents[j];
      if (j == input || !other || other->buffer != in.buffer || other->end <= in.begin || in.end <= other->begin) continue;
      out.emplace_back(k, j);
      break;
    }
  }
  return out;
}

}  // namespace program_internal
}  // namespace sy
