// Internal to program/: the memory behind a loaded method's tensors, and the bounds within which
// their sizes may change while it runs (dynamic shapes).
//
//   TensorBound bound{pte::TensorShapeDynamism::DYNAMIC_BOUND, {8, 4}, {0, 1}};
//   auto memory = std::make_unique<BoundedMemory>(data, 128, value_index, bound);
//   Tensor t = tensorOver(ScalarType::Float, geometry, memory.get());   // sizes [8, 4], may shrink
//   absl::Status s = checkSizesWithin(bound, {3, 4}, [&] { return "input 0"; });   // ok
//
// Note [A method's tensors change sizes within the memory planned for them]
// A program exported with dynamic shapes marks its tensors DYNAMIC_BOUND: the sizes the file gives
// are an upper bound, memory is planned for that bound, and each run's real sizes follow from its
// inputs. So:
// - set_input accepts a tensor whose every dimension is at most its bound (same rank), checked
//   dimension by dimension, and sets the method's input to those sizes (strides in the input's dim
//   order) before copying the data in (checkSizesWithin names the dimension out of bounds);
// - kernels resize their out= arguments as they run (resize_, as PyTorch's out variants do), and
//   delegates resize their outputs; get_output returns the tensors at the sizes they were given;
// - every tensor the method holds memory for (planned, or allocated at load for a tensor with no
//   memory plan) has a storage whose allocator is a BoundedMemory: the storage starts as the
//   tensor's bytes at its bound, a resize within them changes only the sizes, and a resize past
//   them asks the allocator for more, which refuses, naming the value, its bound and the bytes
//   wanted. So a bounded program allocates nothing while it runs, and nothing ever writes past
//   the bytes planned for a value (the neighbouring values in the plan).
// STATIC tensors get the same treatment: the file says their sizes never change, and a correct
// program never resizes one, but shrinking one within its bytes is harmless and growing one is the
// same refused resize. (ExecuTorch refuses any resize of a STATIC tensor; we are more lenient.)
// Integer values that carry sizes between instructions (what executorch_prim::sym_size writes)
// reach the lists that read them before each call: See Note [Lists of numbers that change].
//
// Note [Unbounded tensors get memory at run time]
// A DYNAMIC_UNBOUND tensor has no meaningful sizes in the file, so nothing can be planned for it:
// the method gives it memory of its own from the CPU allocator, at load for the sizes the file
// gives, and grows it (keeping its contents, never shrinking) whenever a kernel, a delegate or
// set_input needs more. Its planned offset, when it has one, is still checked against its buffer
// at load (See Note [Every planned tensor fits its buffer, whatever its dynamism]) but not used.
// So a program with unbounded tensors may allocate while it executes, only when one of them grows
// past the largest size it has had; a bounded program never does. set_input accepts any sizes of
// the tensor's rank for an unbounded input. (ExecuTorch refuses such programs at load.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "switchyard/ivalue/storage.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/program/program_internal.h"

namespace sy {
namespace program_internal {

// What a tensor value's sizes may become: its dynamism and the sizes the file gives (the bound).
struct TensorBound {
  pte::TensorShapeDynamism dynamism = pte::TensorShapeDynamism::STATIC;
  SizesVector sizes;
  SizesVector dim_order;
};

// The storage allocator of one bounded tensor: See Note [A method's tensors change sizes within
// the memory planned for them]. Hands out `data` for a request of at most `capacity` bytes (the
// storage's own, made at load) and raises sy::Error naming the value for anything larger.
class BoundedMemory final : public Allocator {
 public:
  BoundedMemory(uint8_t* data, size_t capacity, size_t value_index, TensorBound bound)
      : data_(data), capacity_(capacity), value_index_(value_index), bound_(std::move(bound)) {}
  DataPtr allocate(size_t nbytes) override;

 private:
  uint8_t* data_;
  size_t capacity_;
  size_t value_index_;
  TensorBound bound_;
};

// A CPU tensor of `g`'s geometry on `storage`.
Tensor tensorOn(Storage storage, ScalarType dtype, const TensorGeometry& g, int64_t storage_offset);
// A CPU tensor of `g`'s geometry over the memory `memory` hands out (at most `capacity` bytes).
Tensor tensorOver(ScalarType dtype, const TensorGeometry& g, Allocator* memory, size_t capacity, int64_t storage_offset);

// Whether `sizes` may be given to a tensor of `bound`: same rank, and each dimension equal to
// (STATIC) or at most (DYNAMIC_BOUND) its bound; any sizes of the rank for DYNAMIC_UNBOUND. The
// error starts with what `where()` returns ("program 'm.pte': method 'forward': input 0") and
// names the first dimension out of bounds. Allocates nothing unless it fails.
absl::Status checkSizesWithin(const TensorBound& bound, IntArrayRef sizes, absl::FunctionRef<std::string()> where);

// The planned inputs of `plan` whose bytes the plan also gives another value, each as (its index
// among the inputs, the first such value): See Note [Inputs whose memory the plan reuses are
// restored before each execute] (method.cpp). The plan was validated at load.
std::vector<std::pair<uint32_t, uint32_t>> inputsSharingTheirBytes(const pte::ExecutionPlan& plan);

// "DYNAMIC_BOUND", as the file spells it.
const char* dynamismName(pte::TensorShapeDynamism dynamism);

}  // namespace program_internal
}  // namespace sy
