#include "switchyard/dispatcher/kernel_records.h"

#include <functional>

#include "switchyard/dispatcher/operator_handle.h"

namespace sy {

struct KernelRecords::GuardedRecord {
  GuardedRecord(const KernelFunction& kernel, OperatorEntry* entry)
      : handle(entry != nullptr ? std::make_unique<OperatorHandle>(entry) : nullptr),
        slot(kernel.boxedEntry(), handle.get()),
        record(kernel.guardedBy(&slot)) {}
  std::unique_ptr<OperatorHandle> handle;
  detail::GuardedKernelSlot slot;
  KernelFunction record;
  bool in_use = false;  // published for a live registration
};

namespace {
size_t mix(size_t seed, size_t value) { return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }
}  // namespace

size_t KernelRecords::KeyHash::operator()(const SharedKey& k) const {
  return mix(mix(std::hash<const void*>()(reinterpret_cast<const void*>(k.boxed)), std::hash<const void*>()(k.unboxed)),
             k.identity);
}

size_t KernelRecords::KeyHash::operator()(const GuardedKey& k) const {
  return mix(mix(mix(std::hash<const void*>()(k.entry), static_cast<size_t>(k.key)),
                 std::hash<const void*>()(reinterpret_cast<const void*>(k.boxed))),
             std::hash<const void*>()(k.unboxed));
}

KernelRecords::KernelRecords() = default;
// Only the process-wide dispatcher owns one, and it is never destroyed: records outlive every call.
KernelRecords::~KernelRecords() = default;

KernelRecords::Publication KernelRecords::publish(const KernelFunction& kernel, OperatorEntry* entry, DispatchKey key) {
  if (kernel.shareable()) {
    auto& record = shared_[SharedKey{kernel.boxedEntry(), kernel.unboxedEntry(), kernel.identity()}];
    if (!record) record = std::make_unique<KernelFunction>(kernel);  // keeps a stateless kernel object
    return {record.get(), nullptr};
  }
  auto& pool = guarded_[GuardedKey{entry, key, kernel.boxedEntry(), kernel.guardedUnboxedEntry()}];
  GuardedRecord* free_record = nullptr;
  for (const auto& record : pool) {
    if (!record->in_use) {
      free_record = record.get();
      break;
    }
  }
  if (free_record == nullptr) {
    pool.push_back(std::make_unique<GuardedRecord>(kernel, entry));
    free_record = pool.back().get();
    ++guarded_count_;
  }
  free_record->in_use = true;
  free_record->slot.setCurrent(kernel.functor().get());
  return {&free_record->record, free_record};
}

void KernelRecords::retire(const Publication& publication, std::shared_ptr<OperatorKernel> state) {
  GuardedRecord* record = publication.guarded;
  if (record == nullptr) return;
  record->slot.setCurrent(nullptr);  // after this, a call that counts itself cannot reach `state`
  record->in_use = false;
  retired_.push_back(Retired{&record->slot, std::move(state), {false, false}});
}

void KernelRecords::collect(std::vector<std::shared_ptr<OperatorKernel>>* reclaimed) {
  std::vector<detail::GuardedKernelSlot*> emptied;
  size_t kept = 0;
  for (size_t i = 0; i < retired_.size(); ++i) {
    Retired& retired = retired_[i];
    detail::GuardedKernelSlot& slot = *retired.slot;
    // Before reading the counters: a call that ends after the read sees it and calls back.
    slot.setAwaiting(true);
    for (uint32_t phase : {0u, 1u}) {
      if (!retired.drained[phase] && slot.inFlight(phase) == 0) retired.drained[phase] = true;
    }
    if (retired.drained[0] && retired.drained[1]) {
      reclaimed->push_back(std::move(retired.state));
      emptied.push_back(&slot);
      continue;
    }
    // New calls go to the counter already drained, so the other can drain too.
    if (!retired.drained[slot.phase()]) slot.setPhase(slot.phase() ^ 1);
    if (kept != i) retired_[kept] = std::move(retired);
    ++kept;
  }
  retired_.resize(kept);
  for (detail::GuardedKernelSlot* slot : emptied) {
    bool still_waiting = false;
    for (const Retired& retired : retired_) still_waiting |= retired.slot == slot;
    if (!still_waiting) slot->setAwaiting(false);
  }
}

}  // namespace sy
