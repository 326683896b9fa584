// The rows of the dispatch-overhead experiment (bench/README.md): what each registers before it
// is measured. overhead_bench runs one row per process, so registrations never interfere;
// `switchyard bench` sets up one row after another in one process, each torn down before the next.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/switchyard.h"

namespace sy::bench {

// Keeps `value` from being optimised away, as benchmark::DoNotOptimize does (the rows are also
// measured by `switchyard bench`, which does not link Google Benchmark).
template <class T>
inline void keep(const T& value) {
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void*)) {
    asm volatile("" : : "r,m"(value) : "memory");
  } else {
    asm volatile("" : : "m"(value) : "memory");
  }
}

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
  NoGrad,           // no extra key; the tensors require grad and a NoGradGuard is active
};

// "direct", "base", "perop_redispatch", "perop_exclude", "fallthrough", "fallback", "fallback_reading",
// "partial_decline", "partial_exact", "no_grad".
const std::vector<std::string>& rowNames();
bool parseRow(const std::string& name, Row* row);

// The thread-local state a row runs in: the extra key included, or autograd off.
struct RowGuard {
  std::optional<IncludeDispatchKeyGuard> extra_key;
  std::optional<NoGradGuard> no_grad;
};

// Installs the row's registrations and TLS guard for the calling thread's lifetime of the
// returned object. Threads other than the caller need `enterRowOnThisThread`.
class RowSetup {
 public:
  explicit RowSetup(Row row);
  ~RowSetup();
  Row row() const { return row_; }
  // Puts the extra key in this thread's included set, or takes the autograd keys out of it, as
  // the row says.
  std::unique_ptr<RowGuard> enterRowOnThisThread() const;
  // Makes `t` require grad when the row measures tensors that do.
  void prepare(const Tensor& t) const;

 private:
  Row row_;
  std::vector<std::unique_ptr<Library>> libraries_;
  std::vector<RegistrationHandle> partial_kernels_;
  std::unique_ptr<RowGuard> guard_;
};

// One column of the table: a call to make repeatedly.
struct Column {
  std::string name;  // "acos.out/1"
  int64_t numel;
  // Returns the call for the row, bound to tensors it owns (made to require grad when the row says).
  std::function<std::function<void()>(const RowSetup&)> make;
};

// acos.out and functional acos on Float tensors of each size: "acos.out/1", "acos.out/64",
// "acos/1", "acos/64" for {1, 64}. The Direct row calls the CPU kernels without the dispatcher
// (the functional one with the same allocation, undispatched).
std::vector<Column> acosColumns(const std::vector<int64_t>& sizes);

}  // namespace sy::bench
