// What the optimized kernels check before reading tensors as flat Float arrays, shared by
// unary_ops.cpp and softmax_ops.cpp:
//
//   if (!isFlatCpuFloat(self) || !prepareFlatOut(self, out)) return continueAfterPartialKernels(op, self, out);
//   loop(self.data_ptr<float>(), out.data_ptr<float>(), self.numel());
//
// A false answer is never an error: the call is handed on (partial_kernel_decline.h) to the
// portable kernel, which reports whatever is wrong.
#pragma once

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::optimized {

// A defined CPU Float tensor whose elements are one dense array in order.
inline bool isFlatCpuFloat(const Tensor& t) {
  return t.defined() && t.is_cpu() && t.scalar_type() == ScalarType::Float && t.is_contiguous();
}

// Gives the flat `out` self's shape (resizing an out= of another shape, as PyTorch does) and says
// whether a loop may now write out while it reads self: false when out shares self's memory with
// another geometry, where writing one element could clobber another still to be read, or where
// resizing would move self's elements under the loop.
inline bool prepareFlatOut(const Tensor& self, const Tensor& out) {
  if (!isFlatCpuFloat(out)) return false;
  if (sameSizes(out.sizes(), self.sizes())) return !cpu::partiallyOverlaps(out, self);
  if (cpu::sameMemory(out, self)) return false;
  cpu::resizeOutput(out, self.sizes());
  return true;
}

}  // namespace sy::optimized
