// Borrowed views: the views a kernel makes of its operands and outs for the length of its call
// (the view a permute_copy copies, the pieces of a split_copy, linear.out's matrices), made in
// this thread's reused TensorImpls instead of fresh ones while a BorrowedViews scope is open.
//
//   Tensor& permute_copy_out(...) {
//     const BorrowedViews borrow;                        // views made below are borrowed
//     const Tensor view = permute(self, dims, ...);      // no allocation
//     copyIntoCPU(op, out, view, "out", "self");
//     return out;
//   }                                                     // the scope drops what the views held
//
// Note [A kernel's own views are borrowed]
// A view is a TensorImpl over its base's storage, one heap allocation per view, in out kernels that
// must allocate nothing while a method executes (ExecuTorch's rule). Inside a BorrowedViews scope,
// makeView and viewOf take a TensorImpl from this thread's kBorrowedViews instead, one that nothing
// else holds, and point it at the base's storage with the view's geometry. When the outermost
// scope closes, every TensorImpl it lent lets go of its storage, so no user memory is kept alive by
// the pool; one still held then (a view that escaped the kernel) leaves the pool and stays its
// holder's, with its storage, as any view would. The scope is for a kernel's own reading and
// writing: a view returned to a caller (aten::permute's result) is never made inside one. Views of
// other devices' tensors, or more than the pool has at once, are ordinary allocations.
#pragma once

#include <cstdint>
#include <optional>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

inline constexpr int kBorrowedViews = 8;

class BorrowedViews {
 public:
  BorrowedViews();
  ~BorrowedViews();
  BorrowedViews(const BorrowedViews&) = delete;
  BorrowedViews& operator=(const BorrowedViews&) = delete;
};

// A view of `base` with the given geometry and dispatch `keys` in a borrowed TensorImpl when a
// BorrowedViews scope is open on this thread and base is a CPU tensor, else nothing (the caller
// makes the view itself). The geometry is checked as set_sizes_and_strides checks it.
std::optional<Tensor> borrowedView(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                   DispatchKeySet keys);

}  // namespace sy::cpu
