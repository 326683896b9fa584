// Scratch tensors for the CPU kernels: a contiguous tensor a kernel computes into or converts an
// operand into during its call, taken from this thread's reused ones instead of the heap.
//
//   const Tensor converted = scratchTensor(self.sizes(), ScalarType::Float);
//   copyIntoCPU(op, converted, self, "converted", "self");
//   ... read `converted`; drop it before returning ...
//
// Note [Kernel scratch is reused, not allocated]
// ExecuTorch's rule is that nothing is allocated while a method executes, and an out kernel that
// converts an operand (sin of an Int tensor computes on a Float copy), stages a result of another
// dtype (a Bool comparison computed in Float) or accumulates in a wider dtype (a Float sum adds in
// Double) needs memory of its own for the call. Each thread keeps kScratchSlots tensors per dtype
// and hands out one that nothing else holds (neither it nor its storage has another reference),
// resized to the sizes asked: its storage only grows, so a kernel called again at the same or a
// smaller size allocates nothing. A slot is busy while its holder keeps the Tensor, so a kernel
// that converts two operands gets two, and a kernel called from inside another's computation
// cannot overwrite what the outer one still reads. When every slot of the dtype is busy, or the
// tensor would take more than kScratchSlotBytes (not kept: a thread would hold that memory until
// it exits, and the allocation is small beside the work on so many elements), it is a fresh tensor.
// Contents are unspecified; the tensor must not escape the kernel's call (never an operator's
// result).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "switchyard/core/scalar_type.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

inline constexpr int kScratchSlots = 8;
inline constexpr size_t kScratchSlotBytes = size_t{4} << 20;

// A contiguous CPU tensor of `sizes` and `dtype` with unspecified contents, reused per thread (See
// Note [Kernel scratch is reused, not allocated]). Errors name `op` (sizes that overflow).
Tensor scratchTensor(const char* op, IntArrayRef sizes, ScalarType dtype);

// `n` elements of T (trivially copyable) in scratch memory, valid while `holder` keeps the tensor
// that holds them: a kernel's row of running sums or extrema.
//
//   Tensor holder;
//   double* sums = scratchArray<double>(op, inner, holder);
template <class T>
T* scratchArray(const char* op, int64_t n, Tensor& holder) {
  static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 16, "scratch holds plain values");
  const int64_t bytes[] = {n, static_cast<int64_t>(sizeof(T))};
  holder = scratchTensor(op, bytes, ScalarType::Byte);
  return static_cast<T*>(holder.data_ptr());
}

}  // namespace sy::cpu
