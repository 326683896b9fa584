// Dispatcher: the process-wide registry of operators, kernels and backend fallbacks.
//
//   auto& d = sy::Dispatcher::singleton();
//   sy::OperatorHandle op = d.findSchemaOrThrow("aten::add", "Tensor");
//   std::cout << op.dumpComputedTable();
//
// Most code registers through `sy::Library` (library.h) and calls through `OperatorHandle`s; the
// register* functions here are what Library uses. Each returns a RegistrationHandle that undoes
// the registration when destroyed.
//
// Threads: registrations are serialised by one mutex; calls read dispatch tables without locks
// (see Note [Reclaiming retired kernels], kernel_records.h).
#pragma once

#include <deque>
#include <mutex>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/dispatcher/operator_entry.h"
#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/dispatcher/source_location.h"

namespace sy {

// Undoes one registration when destroyed (or when `reset`).
class RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> undo) : undo_(std::move(undo)) {}
  RegistrationHandle(RegistrationHandle&& other) noexcept : undo_(std::exchange(other.undo_, nullptr)) {}
  RegistrationHandle& operator=(RegistrationHandle&& other) noexcept {
    reset();
    undo_ = std::exchange(other.undo_, nullptr);
    return *this;
  }
  ~RegistrationHandle() { reset(); }
  void reset() {
    if (undo_) std::exchange(undo_, nullptr)();
  }

 private:
  std::function<void()> undo_;
};

// Note [A backend's own fallback replaces the library's default]
// A key has at most one backend fallback of each of two kinds. The library registers some of its
// fallbacks as the key's default (Library::defaultFallback): the autograd recorder on
// AutogradPrivateUse1..3, the keys PyTorch leaves to the backend that owns PrivateUse1..3. A
// fallback registered the ordinary way (m.fallback(...), a fallthrough included) on such a key
// replaces the default in every dispatch table, without error, for as long as its registration
// lives; when it goes (its Library is destroyed), the default is back. Registration order does not
// matter: a default registered after the backend's fallback stays behind it. Two fallbacks of the
// same kind on one key are still an error naming both sites. dumpComputedTable (and `switchyard ops
// NAME`) says which is in effect: the default, or a backend's own replacing it, with both sites.
// Only the backend fallback is replaced: per-operator kernels on the key (autograd's formulas
// register one per operator on every autograd key) still take precedence, as in PyTorch.
class Dispatcher {
 public:
  static Dispatcher& singleton();

  // The operator, if it currently has a schema.
  std::optional<OperatorHandle> findSchema(const OperatorName& name);
  // Raises "could not find schema for aten::foo.bar" (with close matches) when absent.
  OperatorHandle findSchemaOrThrow(std::string_view name, std::string_view overload_name);
  // The operator if it has a schema or any kernel.
  std::optional<OperatorHandle> findOp(const OperatorName& name);
  // Operators that currently have a schema, sorted by name.
  std::vector<OperatorName> getAllOpNames();
  // Operators with a kernel registered directly for `key` (not reached through an alias kernel or a
  // fallback), sorted by name: what a backend implements natively.
  std::vector<OperatorName> operatorsWithKernelFor(DispatchKey key);

  // Calls, in PyTorch's spelling; the same as calling through the handle.
  template <class Ret, class... Args, class... CallArgs>
  Ret call(const TypedOperatorHandle<Ret(Args...)>& op, CallArgs&&... args) const {
    return op.call(std::forward<CallArgs>(args)...);
  }
  template <class Ret, class... Args, class... CallArgs>
  Ret redispatch(const TypedOperatorHandle<Ret(Args...)>& op, DispatchKeySet ks, CallArgs&&... args) const {
    return op.redispatch(ks, std::forward<CallArgs>(args)...);
  }
  void callBoxed(const OperatorHandle& op, Stack* stack) const { op.callBoxed(stack); }
  void redispatchBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const { op.redispatchBoxed(ks, stack); }

  // Registration. Each validates completely before changing anything, so a failed registration
  // leaves every table as it was.
  RegistrationHandle registerLibrary(const std::string& ns, SourceLocation site);
  RegistrationHandle registerDef(FunctionSchema schema, SourceLocation site);
  RegistrationHandle registerImpl(const OperatorName& name, DispatchKey key, KernelFunction kernel,
                                  std::optional<InferredSignature> signature, SourceLocation site);
  RegistrationHandle registerFallback(DispatchKey key, KernelFunction kernel, SourceLocation site);
  // The library's default fallback for `key`, which a fallback registered with registerFallback
  // replaces while it lives (see Note [A backend's own fallback replaces the library's default]).
  RegistrationHandle registerDefaultFallback(DispatchKey key, KernelFunction kernel, SourceLocation site);

  // A typed handle for a namespace-scope variable, usable before the operator is defined (the
  // order of static initialisation across files is unspecified), and cheaper to call than a
  // function-local static handle, which checks a guard on every call:
  //
  //   const auto acos_out_op = sy::Dispatcher::singleton()
  //       .staticTypedHandle<sy::Tensor&(const sy::Tensor&, sy::Tensor&)>("aten::acos", "out");
  //
  // FuncType becomes the operator's C++ signature, so kernels with another one are rejected when
  // they register, and the schema is checked against it when it arrives.
  template <class FuncType>
  TypedOperatorHandle<FuncType> staticTypedHandle(std::string_view name, std::string_view overload_name) {
    OperatorHandle handle = operatorHandleFor(OperatorName{std::string(name), std::string(overload_name)});
    recordStaticSignature(handle.entry(), inferSignature<FuncType>());
    return TypedOperatorHandle<FuncType>(&handle.entry());
  }
  // The operator's entry, created if nothing has registered it yet.
  OperatorHandle operatorHandleFor(const OperatorName& name);

  // What the dispatcher keeps of past registrations (see Note [Reclaiming retired kernels]): kernel
  // objects of deregistered kernels that a call may still be running, kernel records and
  // interned schemas. A loop of register/deregister cycles leaves these counts where they were.
  struct RetainedKernels {
    size_t awaiting_reclamation = 0;
    size_t kernel_records = 0;
    size_t schemas = 0;
  };
  RetainedKernels retainedKernels();
  // Destroys the deregistered kernel objects no call can still be running; registrations and the
  // last call of a deregistered kernel do this on their own.
  void reclaimRetiredKernels();

  // Whether `key` has a backend fallback, and where the one in effect was registered.
  std::optional<std::string> backendFallbackSite(DispatchKey key);

  // Used by the missing-kernel entry and OperatorHandle; not for general use.
  std::string describeMissingKernel(const OperatorHandle& op, DispatchKeySet ks);
  void checkTypedSignature(OperatorEntry& entry, const InferredSignature& signature);
  std::optional<std::type_index> cppSignature(const OperatorEntry& entry);
  std::string dumpComputedTable(const OperatorEntry& entry);

  ~Dispatcher();

 private:
  Dispatcher();
  OperatorEntry& findOrCreateEntry(const OperatorName& name);
  void checkSignatureAgainstSchema(const OperatorEntry& entry, const FunctionSchema& schema,
                                   const InferredSignature& signature, const std::string& kernel_site,
                                   const std::string& schema_site);
  void recordStaticSignature(OperatorEntry& entry, const InferredSignature& signature);
  // Records the C++ signature every unboxed kernel and typed access must share (mutex held).
  void recordCppSignature(OperatorEntry& entry, const InferredSignature& signature, const std::string& site);
  // After the tables stopped pointing at `kernel` (mutex held); see Note [Reclaiming retired kernels].
  void retire(const AnnotatedKernel& kernel, std::vector<std::shared_ptr<OperatorKernel>>* reclaimed);
  // registerFallback and registerDefaultFallback.
  RegistrationHandle addFallback(DispatchKey key, KernelFunction kernel, SourceLocation site, bool is_default);
  // Recomputes which fallback `key` has in effect, and every table if that changed (mutex held).
  void updateFallbackInEffect(DispatchKey key);

  // A std::mutex rather than absl::Mutex: ThreadSanitizer intercepts pthread locks, but cannot see
  // inside Debian's uninstrumented abseil build, and the concurrency suite runs under TSan.
  std::mutex mutex_;
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sy
