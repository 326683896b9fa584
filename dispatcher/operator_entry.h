// OperatorEntry: everything the dispatcher knows about one operator: its schema, the kernels
// registered per dispatch key, and the precomputed dispatch table the call path indexes.
//
// Note [Precomputed dispatch tables]
// Calls never search. Each registration or deregistration recomputes the affected table slots,
// in this order of precedence:
//   1. a kernel registered for the key itself (the newest of a stack of them);
//   2. an alias kernel: CompositeExplicit, then CompositeImplicit, for backend keys and for
//      Undefined (so operators without tensor arguments can run composite kernels); for an
//      autograd key, CompositeImplicit when its backend has neither a kernel nor a
//      CompositeExplicit one, then the Autograd alias kernel;
//   3. the backend fallback registered for the key: a backend's own, else the library's default
//      for that key (see Note [A backend's own fallback replaces the library's default], dispatcher.h);
//   4. the missing-kernel entry, which raises an error listing what is registered.
// A call is then `table[highest key of (argument keys | TLS included) & ~TLS excluded & mask]`.
//
// Note [Fallthrough is free]
// A slot that resolves to a fallthrough kernel clears that key's bit in `nonFallthroughKeys`,
// which every call ANDs into its key set anyway, so the key is skipped at no extra cost. The slot
// still holds a working fallthrough kernel (it redispatches to the next key) so a call racing
// with a registration that has published the slot but not yet the mask behaves the same.
//
// Table slots are atomic pointers to KernelFunction records; callers read them without locks. A
// record is never freed, and a deregistered kernel's state is destroyed only once no call can be
// running it (see Note [Reclaiming retired kernels], kernel_records.h).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/infer_schema.h"
#include "switchyard/dispatcher/kernel_function.h"
#include "switchyard/dispatcher/kernel_records.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/ivalue/stack.h"

namespace sy {

// A registered kernel plus what error messages and dumps say about it.
struct AnnotatedKernel {
  // As registered; owns the kernel object. Dispatch tables never point at it, only at
  // `published.record`, which outlives every call (see Note [Reclaiming retired kernels]).
  KernelFunction kernel;
  KernelRecords::Publication published;
  std::optional<InferredSignature> inferred_signature;  // unboxed kernels only
  std::string site;                                     // "file:line"
  DispatchKey key = DispatchKey::Undefined;             // the key it was registered for
  // A backend fallback the library registers as the key's default, which a backend's own fallback
  // on the key replaces (see Note [A backend's own fallback replaces the library's default]).
  bool is_default = false;
};
using AnnotatedKernelPtr = std::shared_ptr<const AnnotatedKernel>;

// Where a dispatch table slot's kernel came from (shown by dumpComputedTable).
enum class EntrySource : uint8_t { Kernel, AliasKernel, BackendFallback, Missing };

struct ComputedEntry {
  const KernelFunction* kernel = nullptr;
  EntrySource source = EntrySource::Missing;
  const AnnotatedKernel* origin = nullptr;  // null for Missing
};

using BackendFallbackTable = std::array<AnnotatedKernelPtr, kNumRuntimeKeys>;

class OperatorEntry {
 public:
  explicit OperatorEntry(OperatorName name);
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  // ---- The call path (lock-free) ------------------------------------------------------------

  // Applies the thread's included/excluded keys and the fallthrough mask to the keys taken from
  // the arguments (see Note [One TLS read per call], see Note [Fallthrough is free]).
  DispatchKeySet computeDispatchKeySet(DispatchKeySet argument_keys) const {
    const LocalDispatchKeySet& tls = localDispatchKeySet();
    return DispatchKeySet(DispatchKeySet::Raw{}, ((argument_keys.raw_repr() | tls.included) & tls.not_excluded) &
                                                     non_fallthrough_keys_.load(std::memory_order_relaxed));
  }
  // A redispatch keeps the caller's key set but still skips this operator's fallthrough keys.
  DispatchKeySet maskForRedispatch(DispatchKeySet ks) const {
    return DispatchKeySet(DispatchKeySet::Raw{}, ks.raw_repr() & non_fallthrough_keys_.load(std::memory_order_relaxed));
  }
  const KernelFunction& lookup(DispatchKeySet ks) const {
    return *dispatch_table_[ks.highestPriorityIndex()].load(std::memory_order_acquire);
  }
  // Keys of the tensor arguments among the last N stack values (N = number of schema arguments).
  DispatchKeySet keySetFromStack(const Stack& stack) const;

  // ---- Introspection ------------------------------------------------------------------------

  const OperatorName& name() const { return name_; }
  bool hasSchema() const { return schema_.load(std::memory_order_acquire) != nullptr; }
  // Raises when the operator has kernels but no schema yet.
  const FunctionSchema& schema() const;
  DispatchKeySet nonFallthroughKeys() const {
    return DispatchKeySet(DispatchKeySet::Raw{}, non_fallthrough_keys_.load(std::memory_order_relaxed));
  }
  const ComputedEntry& computedEntry(DispatchKey key) const { return computed_[static_cast<uint8_t>(key)]; }

  // ---- Registration (called by the Dispatcher with its mutex held) ---------------------------

  const std::string& schemaSite() const { return schema_site_; }
  void setSchema(std::shared_ptr<const FunctionSchema> schema, std::string site);
  // Returns the schema so the caller can retire it.
  std::shared_ptr<const FunctionSchema> clearSchema();

  using KernelStack = std::list<AnnotatedKernelPtr>;
  KernelStack::iterator pushKernel(DispatchKey key, AnnotatedKernelPtr kernel);
  AnnotatedKernelPtr eraseKernel(DispatchKey key, KernelStack::iterator it);
  const KernelStack& kernelsFor(DispatchKey key) const { return kernels_[static_cast<uint8_t>(key)]; }
  bool hasAnyKernel() const;
  // Every registered kernel, for validating a schema that arrives after its kernels.
  std::vector<const AnnotatedKernel*> allKernels() const;

  // Recomputes every slot (see Note [Precomputed dispatch tables]).
  void updateDispatchTable(const BackendFallbackTable& fallbacks);

  // The unboxed C++ signature every unboxed kernel and typed<> access must share.
  struct CppSignatureRecord {
    InferredSignature signature;
    std::string site;
  };
  const std::optional<CppSignatureRecord>& cppSignature() const { return cpp_signature_; }
  void setCppSignature(CppSignatureRecord record) { cpp_signature_ = std::move(record); }
  // Note [The C++ signature goes with the last registration]
  // A kernel's C++ signature binds the operator only while some registration of it remains: when
  // its schema and every kernel are gone, the operator may be defined again with another one, as
  // in PyTorch, where the operator entry goes with its last registration. A TypedOperatorHandle is
  // different: it cannot be revoked and casts kernels to its signature, so the first typed access
  // (typed<>(), staticTypedHandle) pins the signature for the life of the process.
  void pinTypedSignature(const CppSignatureRecord& record) {
    if (!typed_signature_) typed_signature_ = record;
  }
  // Called when the operator's last registration is gone.
  void forgetKernelSignature() { cpp_signature_ = typed_signature_; }

  // One line per runtime key: "CPU: kernel [registered at backends/devices/cpu/unary_ops.cpp:31]".
  // `defaults` are the library's default fallbacks, named where a backend's own replaces one.
  std::string dumpComputedTable(const BackendFallbackTable& defaults) const;
  // The keys with a kernel, alias kernel or fallback, and where each was registered.
  std::string describeRegistrations() const;

 private:
  ComputedEntry computeEntry(DispatchKey key, const BackendFallbackTable& fallbacks) const;

  // Hot fields first: the table at offset 0 (so a lookup is one indexed load with no displacement
  // arithmetic), the mask right after it in the same cache lines.
  std::array<std::atomic<const KernelFunction*>, kNumRuntimeKeys> dispatch_table_;
  std::atomic<uint64_t> non_fallthrough_keys_;
  std::atomic<const FunctionSchema*> schema_{nullptr};

  OperatorName name_;
  std::shared_ptr<const FunctionSchema> schema_owner_;
  std::string schema_site_;
  std::array<KernelStack, static_cast<int>(DispatchKey::EndOfAliasKeys)> kernels_;
  std::array<ComputedEntry, kNumRuntimeKeys> computed_;
  std::optional<CppSignatureRecord> cpp_signature_;
  std::optional<CppSignatureRecord> typed_signature_;  // the one a typed access pinned, if any
};

// The entry every key with nothing registered points at; raises the missing-kernel error.
const KernelFunction& missingKernel();
std::string_view toString(EntrySource source);

}  // namespace sy
