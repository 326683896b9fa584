// KernelRecords: the KernelFunction records dispatch tables point at, and the reclamation of
// deregistered kernels' state once no call can still be running them. Internal to the Dispatcher,
// which calls every member with its mutex held.
//
//   KernelRecords::Publication p = records.publish(kernel, &entry, DispatchKey::CPU);
//   ... tables point at p.record ...
//   records.retire(p, kernel.functor());   // after the tables stopped pointing at it
//   records.collect(&reclaimed);           // reclaimed: destroy after unlocking
//
// Note [Reclaiming retired kernels]
// Callers read dispatch tables without locks and take no other step on the way into a kernel, so
// a kernel removed from a table may still be running, or about to run, on another thread: a
// thread may have read the table slot and be about to read the record it points at. Nothing on
// that path may be freed under it, and nothing may be added to it. So:
//  - Records are never freed, and registering the same kernel again reuses its record. A kernel
//    without state (a function, SY_FN, a capture-less lambda, a boxed function) is published as
//    one record shared by every registration of it, keyed by its entry points and, for a function
//    pointer, the pointer: such a kernel has nothing to reclaim, and the number of these records
//    is bounded by the code in the process. Their calls run exactly as before: no counting.
//  - A kernel with state (a capturing lambda, a functor) is published through a GuardedKernelSlot,
//    a record of its own per operator, key and kernel type, reused by the next registration of
//    that kind once the previous one is gone. A call through it counts itself in flight on the
//    slot (two atomic operations, paid only by kernels with state) around reading the slot's
//    current kernel and running it. Deregistration empties the slot, and the old state is
//    destroyed once each of the slot's two in-flight counters has been seen at zero after that:
//    a call that counted itself before the slot was emptied holds its counter above zero until
//    it returns, and a call that counts itself after finds the slot empty (or holding a newer
//    kernel) and runs what the table holds now. The counters alternate (readers use the one the
//    slot's phase names; reclamation flips the phase) so that a steady stream of calls cannot keep
//    the old counter from draining. State still in use when its registration goes is destroyed
//    when the last such call returns (or at the next registration), outside the dispatcher's lock.
//  - Schemas are immutable and interned by their text: defining the same schema again reuses it,
//    and a schema a fallback may still be reading is never freed.
// So a loop of register/deregister cycles runs in bounded memory, and a kernel's captured objects
// are destroyed once nothing can call it, with the dispatch path unchanged for kernels without state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "switchyard/core/dispatch_key.h"
#include "switchyard/dispatcher/kernel_function.h"
#include "tsl/robin_map.h"

namespace sy {

class OperatorEntry;

class KernelRecords {
 public:
  struct GuardedRecord;
  struct Publication {
    const KernelFunction* record = nullptr;  // what the dispatch tables point at
    GuardedRecord* guarded = nullptr;        // for a kernel with state, else null
  };

  KernelRecords();
  ~KernelRecords();
  KernelRecords(const KernelRecords&) = delete;
  KernelRecords& operator=(const KernelRecords&) = delete;

  // The record for `kernel` registered for `key` of `entry` (null for a backend fallback).
  Publication publish(const KernelFunction& kernel, OperatorEntry* entry, DispatchKey key);
  // Once no table points at the publication any more: `state` (the kernel object) is destroyed
  // when no call can still be using it. Kernels without state have nothing to retire.
  void retire(const Publication& publication, std::shared_ptr<OperatorKernel> state);
  // Moves the retired state no call can still be using into `reclaimed`, for the caller to destroy
  // after releasing the dispatcher's mutex (destructors may register or deregister).
  void collect(std::vector<std::shared_ptr<OperatorKernel>>* reclaimed);

  size_t awaitingReclamation() const { return retired_.size(); }
  size_t recordCount() const { return shared_.size() + guarded_count_; }

 private:
  struct SharedKey {
    BoxedKernelFunction* boxed;
    const void* unboxed;
    uintptr_t identity;
    bool operator==(const SharedKey& o) const {
      return boxed == o.boxed && unboxed == o.unboxed && identity == o.identity;
    }
  };
  struct GuardedKey {
    const OperatorEntry* entry;
    DispatchKey key;
    BoxedKernelFunction* boxed;
    const void* unboxed;
    bool operator==(const GuardedKey& o) const {
      return entry == o.entry && key == o.key && boxed == o.boxed && unboxed == o.unboxed;
    }
  };
  struct KeyHash {
    size_t operator()(const SharedKey& k) const;
    size_t operator()(const GuardedKey& k) const;
  };
  struct Retired {
    detail::GuardedKernelSlot* slot;
    std::shared_ptr<OperatorKernel> state;
    bool drained[2];  // each in-flight counter seen at zero since the slot was emptied
  };

  tsl::robin_map<SharedKey, std::unique_ptr<KernelFunction>, KeyHash> shared_;
  tsl::robin_map<GuardedKey, std::vector<std::unique_ptr<GuardedRecord>>, KeyHash> guarded_;
  size_t guarded_count_ = 0;
  std::vector<Retired> retired_;
};

}  // namespace sy
