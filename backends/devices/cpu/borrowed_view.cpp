// The per-thread pool behind borrowed_view.h.
#include "switchyard/backends/devices/cpu/borrowed_view.h"

#include <array>

#include "switchyard/ivalue/tensor_impl.h"

namespace sy::cpu {
namespace {

struct ViewPool {
  std::array<Tensor, kBorrowedViews> slots;
  std::array<bool, kBorrowedViews> lent{};
  int depth = 0;  // open BorrowedViews scopes on this thread
};

ViewPool& pool() {
  thread_local ViewPool p;
  return p;
}

}  // namespace

BorrowedViews::BorrowedViews() { ++pool().depth; }

BorrowedViews::~BorrowedViews() {
  ViewPool& p = pool();
  if (--p.depth > 0) return;
  for (int i = 0; i < kBorrowedViews; ++i) {
    if (!p.lent[i]) continue;
    p.lent[i] = false;
    Tensor& slot = p.slots[static_cast<size_t>(i)];
    if (slot.use_count() == 1) {
      slot.unsafeGetTensorImpl()->set_storage(Storage());
    } else {
      slot = Tensor();  // escaped: its holder keeps it, storage and all
    }
  }
}

std::optional<Tensor> borrowedView(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                   DispatchKeySet keys) {
  ViewPool& p = pool();
  if (p.depth == 0 || !base.defined() || !base.device().is_cpu()) return std::nullopt;
  for (int i = 0; i < kBorrowedViews; ++i) {
    Tensor& slot = p.slots[static_cast<size_t>(i)];
    if (!slot.defined()) slot = Tensor(make_intrusive<TensorImpl>(Storage(), base.scalar_type(), kCPU));
    if (slot.use_count() != 1) continue;
    TensorImpl* impl = slot.unsafeGetTensorImpl();
    p.lent[i] = true;
    impl->set_storage(base.storage());
    impl->set_dtype(base.scalar_type());
    impl->set_key_set(keys);
    impl->set_sizes_and_strides(sizes, strides, storage_offset);
    return slot;
  }
  return std::nullopt;
}

}  // namespace sy::cpu
