// Thread-local dispatch key sets and the RAII guards that change them.
//
// Every call ORs the thread's *included* set into the keys taken from its arguments and removes
// the *excluded* set. A mode (profiling, tracing, a test mode) turns itself on for a scope with
//
//   sy::IncludeDispatchKeyGuard on(sy::DispatchKey::Profiler);
//
// and a fallback that wants to call back in without seeing itself again uses
//
//   sy::ExcludeDispatchKeyGuard off(sy::DispatchKey::Profiler);
//
// Guards restore exactly the bits they changed, so nested guards on the same key compose.
#pragma once

#include <cstdint>

#include "switchyard/core/dispatch_key_set.h"

namespace sy {

// Note [One TLS read per call]
// Both sets live in one thread_local struct, so the call path computes the TLS address once and
// reads two words from it. The variable is declared with GCC's `__thread` rather than
// `thread_local`: an extern thread_local makes every access first check whether the defining file
// runs a dynamic initialiser (two instructions per call for nothing), while `__thread` only allows
// constant initialisers, which the loader copies in. That lets the excluded set be stored inverted
// (all ones = nothing excluded), so applying it is one AND. The variable uses the initial-exec TLS model: libswitchyard is linked at load time, and
// initial-exec turns each access into a %fs-relative load instead of a call to __tls_get_addr.
struct LocalDispatchKeySet {
  uint64_t included;
  uint64_t not_excluded;

  DispatchKeySet includedSet() const { return DispatchKeySet(DispatchKeySet::Raw{}, included); }
  DispatchKeySet excludedSet() const { return DispatchKeySet(DispatchKeySet::Raw{}, ~not_excluded); }
};

namespace detail {
extern __thread LocalDispatchKeySet tls_local_dispatch_key_set __attribute__((tls_model("initial-exec")));
}  // namespace detail

inline const LocalDispatchKeySet& localDispatchKeySet() { return detail::tls_local_dispatch_key_set; }

class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys);
  explicit IncludeDispatchKeyGuard(DispatchKey key) : IncludeDispatchKeyGuard(DispatchKeySet(key)) {}
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  uint64_t added_;  // only the bits this guard turned on
};

class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys);
  explicit ExcludeDispatchKeyGuard(DispatchKey key) : ExcludeDispatchKeyGuard(DispatchKeySet(key)) {}
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  uint64_t added_;
};

}  // namespace sy
