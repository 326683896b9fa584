// OperatorHandle and TypedOperatorHandle: how callers reach an operator.
//
//   auto op = sy::Dispatcher::singleton()
//                 .findSchemaOrThrow("aten::acos", "out")
//                 .typed<sy::Tensor&(const sy::Tensor&, sy::Tensor&)>();
//   op.call(self, out);                   // unboxed call through the dispatcher
//   op.redispatch(ks.remove(MyKey), ...)  // from inside a kernel: continue with the next key
//
//   sy::Stack stack{self, out};
//   handle.callBoxed(&stack);             // boxed call: arguments in, results out
//
// A handle is one pointer and stays valid for the life of the process, even after the operator's
// registrations are gone (calls then raise the missing-kernel error).
#pragma once

#include <optional>
#include <string>
#include <typeindex>

#include "switchyard/core/macros.h"
#include "switchyard/dispatcher/dispatch_key_extractor.h"
#include "switchyard/dispatcher/infer_schema.h"
#include "switchyard/dispatcher/operator_entry.h"

namespace sy {

template <class FuncType>
class TypedOperatorHandle;

class OperatorHandle {
 public:
  explicit OperatorHandle(OperatorEntry* entry) : entry_(entry) {}

  const OperatorName& operator_name() const { return entry_->name(); }
  bool hasSchema() const { return entry_->hasSchema(); }
  const FunctionSchema& schema() const { return entry_->schema(); }
  OperatorEntry& entry() const { return *entry_; }

  // A handle for unboxed calls with signature FuncType, e.g. `Tensor(const Tensor&)`. Raises when
  // FuncType does not fit the schema or differs from the registered kernels' C++ signature.
  template <class FuncType>
  TypedOperatorHandle<FuncType> typed() const {
    static_assert(!detail::KernelSignature<FuncType>::takes_dispatch_key_set,
                  "typed<>() takes the operator's signature; a DispatchKeySet is what redispatch() adds");
    checkTypedSignature(inferSignature<FuncType>());
    return TypedOperatorHandle<FuncType>(entry_);
  }

  // The C++ signature the operator's unboxed kernels and typed accesses share (`typeid(FuncType)`),
  // or nothing while none is recorded (an operator with only boxed kernels). A caller with an
  // unboxed path for some signatures compares it with theirs before calling typed<>(), which would
  // otherwise make its own FuncType the operator's signature (program/'s shaped kernel calls).
  std::optional<std::type_index> cppSignature() const;

  // Takes its arguments from the end of the stack and leaves its results there.
  void callBoxed(Stack* stack) const {
    const OperatorEntry& entry = *entry_;
    DispatchKeySet ks = entry.computeDispatchKeySet(entry.keySetFromStack(*stack));
    entry.lookup(ks).callBoxed(*this, ks, stack);
  }
  void callBoxed(Stack& stack) const { callBoxed(&stack); }
  // Continues a boxed call with the given keys (a fallback removes its own key first).
  void redispatchBoxed(DispatchKeySet ks, Stack* stack) const {
    const OperatorEntry& entry = *entry_;
    DispatchKeySet masked = entry.maskForRedispatch(ks);
    entry.lookup(masked).callBoxed(*this, masked, stack);
  }
  void redispatchBoxed(DispatchKeySet ks, Stack& stack) const { redispatchBoxed(ks, &stack); }

  // The computed dispatch table, one line per key with each entry's source and registration site.
  std::string dumpComputedTable() const;
  bool hasKernelForDispatchKey(DispatchKey key) const;

  friend bool operator==(const OperatorHandle& a, const OperatorHandle& b) { return a.entry_ == b.entry_; }
  friend bool operator!=(const OperatorHandle& a, const OperatorHandle& b) { return a.entry_ != b.entry_; }

 protected:
  void checkTypedSignature(const InferredSignature& signature) const;

  OperatorEntry* entry_;
};

template <class Ret, class... Args>
class TypedOperatorHandle<Ret(Args...)> : public OperatorHandle {
 public:
  // The hot path: extract keys, one TLS read, one table load, one indirect call. Always inlined:
  // with many operators of one signature (the unary out variants), GCC kept one shared
  // out-of-line copy, which cost each call 4 more instructions (bench/README.md).
  SY_ALWAYS_INLINE Ret call(Args... args) const {
    const OperatorEntry& entry = *entry_;
    DispatchKeySet ks = entry.computeDispatchKeySet(detail::keySetFromArguments<Args...>(args...));
    return entry.lookup(ks).template call<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
  }

  Ret redispatch(DispatchKeySet ks, Args... args) const {
    const OperatorEntry& entry = *entry_;
    DispatchKeySet masked = entry.maskForRedispatch(ks);
    return entry.lookup(masked).template call<Ret, Args...>(*this, masked, std::forward<Args>(args)...);
  }

 private:
  // Only after the signature has been checked against the operator's (typed<>(),
  // Dispatcher::staticTypedHandle): the unboxed path relies on it.
  friend class OperatorHandle;
  friend class Dispatcher;
  explicit TypedOperatorHandle(OperatorEntry* entry) : OperatorHandle(entry) {}
};

}  // namespace sy
