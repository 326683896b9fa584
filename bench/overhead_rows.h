// The rows of the dispatch-overhead experiment (bench/README.md): what each registers before it
// is measured. One row per process, so registrations never interfere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/switchyard.h"

namespace sy::bench {

// The key the per-op, fallthrough and fallback rows put in the TLS included set.
inline constexpr DispatchKey kExtraKey = DispatchKey::TESTING_ONLY_GenericMode;

enum class Row {
  Direct,           // the CPU kernel called without the dispatcher: the floor
  Base,             // through the dispatcher, no extra key
  PerOpRedispatch,  // extra key with per-op kernels that call op.redispatch(ks.remove(KEY), ...)
  PerOpExclude,     // extra key with per-op kernels that exclude KEY and make a fresh call
  Fallthrough,      // extra key with m.fallback(makeFallthrough())
  BackendFallback,  // extra key with a boxed fallback calling op.redispatchBoxed(ks.remove(KEY), ...)
  ReadingFallback,  // the same fallback reading every argument first, so that they are boxed
                    // (see Note [Deferred boxing]: the row above passes them on unboxed)
  PartialDecline,   // a partial kernel for acos.out on Double only: Float calls decline to CPU
                    // (see Note [Partial kernels decline for one key check])
  PartialExact,     // a partial kernel for acos.out on 1-D Float, calling the CPU kernel directly
};

// "direct", "base", "perop_redispatch", "perop_exclude", "fallthrough", "fallback", "fallback_reading",
// "partial_decline", "partial_exact".
const std::vector<std::string>& rowNames();
bool parseRow(const std::string& name, Row* row);

// Installs the row's registrations and TLS guard for the calling thread's lifetime of the
// returned object. Threads other than the caller need `enterRowOnThisThread`.
class RowSetup {
 public:
  explicit RowSetup(Row row);
  ~RowSetup();
  Row row() const { return row_; }
  // Puts the extra key in this thread's included set, when the row uses it.
  std::unique_ptr<IncludeDispatchKeyGuard> enterRowOnThisThread() const;

 private:
  Row row_;
  std::vector<std::unique_ptr<Library>> libraries_;
  std::vector<RegistrationHandle> partial_kernels_;
  std::unique_ptr<IncludeDispatchKeyGuard> guard_;
};

}  // namespace sy::bench
