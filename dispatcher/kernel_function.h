// KernelFunction: one callable kernel as the dispatch table stores it.
//
// It holds a boxed entry point (always), an unboxed entry point (when the kernel was written as a
// C++ function), and the kernel object (for lambdas and stateful functors). `call<Ret, Args...>`
// takes the unboxed entry when there is one and otherwise boxes the arguments; `callBoxed` always
// works. Kernel authors do not build these directly: `sy::CppFunction` (library.h) does.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "switchyard/dispatcher/boxing.h"
#include "switchyard/dispatcher/function_traits.h"
#include "switchyard/core/macros.h"

namespace sy {

using BoxedKernelFunction = void(OperatorKernel* functor, const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
// The two signatures a user's boxed function may have (the second, as in PyTorch's fallbacks).
using BoxedFunctionWithoutKeys = void(const OperatorHandle& op, Stack* stack);
using BoxedFunctionWithKeys = void(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);

class KernelFunction;

namespace detail {

// The stand-in a kernel with state (a capturing lambda, a functor) is published through, so that
// its state can be destroyed once no call is running it (see Note [Reclaiming retired kernels],
// dispatcher/kernel_records.h). Slots are never freed; the dispatcher reuses them.
class GuardedKernelSlot final : public OperatorKernel {
 public:
  GuardedKernelSlot(BoxedKernelFunction* inner_boxed, const OperatorHandle* op)
      : inner_boxed_(inner_boxed), op_(op) {}

  // Counts one call of the slot's current kernel as in flight while it lives.
  class InUse {
   public:
    explicit InUse(GuardedKernelSlot& slot) : slot_(slot), phase_(slot.phase_.load(std::memory_order_relaxed) & 1) {
      slot.in_flight_[phase_].fetch_add(1, std::memory_order_seq_cst);
      kernel_ = slot.current_.load(std::memory_order_seq_cst);
    }
    ~InUse() {
      if (slot_.in_flight_[phase_].fetch_sub(1, std::memory_order_seq_cst) == 1 &&
          slot_.awaiting_.load(std::memory_order_seq_cst)) {
        slot_.drained();
      }
    }
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;
    // Null when the kernel was deregistered after the caller read the dispatch table.
    OperatorKernel* kernel() const { return kernel_; }

   private:
    GuardedKernelSlot& slot_;
    uint32_t phase_;
    OperatorKernel* kernel_;
  };

  // The boxed entry point of every guarded record.
  static void boxedEntry(OperatorKernel* slot, const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
  // For a call that found the slot empty: the kernel the table now holds for `ks`, and the key set
  // to call it with (per-operator slots only).
  const KernelFunction& currentKernelFor(DispatchKeySet ks, DispatchKeySet* masked) const;
  const OperatorHandle& op() const { return *op_; }

  // ---- The dispatcher's side (its mutex held) ----
  void setCurrent(OperatorKernel* kernel) { current_.store(kernel, std::memory_order_seq_cst); }
  int64_t inFlight(uint32_t phase) const { return in_flight_[phase].load(std::memory_order_seq_cst); }
  uint32_t phase() const { return phase_.load(std::memory_order_relaxed) & 1; }
  void setPhase(uint32_t phase) { phase_.store(phase, std::memory_order_relaxed); }
  void setAwaiting(bool awaiting) { awaiting_.store(awaiting, std::memory_order_seq_cst); }

 private:
  // Out of line: asks the dispatcher to reclaim what no call can be using any more.
  void drained();

  std::atomic<OperatorKernel*> current_{nullptr};
  std::atomic<uint32_t> phase_{0};
  std::atomic<int64_t> in_flight_[2] = {};
  std::atomic<bool> awaiting_{false};  // a retired kernel of this slot waits for its calls to end
  BoxedKernelFunction* const inner_boxed_;
  const OperatorHandle* const op_;  // null for a backend fallback
};

}  // namespace detail

class KernelFunction {
 public:
  KernelFunction() = default;

  bool isValid() const { return boxed_ != nullptr; }
  bool isFallthrough() const;
  bool hasUnboxedKernel() const { return unboxed_ != nullptr; }

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    (*boxed_)(functor_.get(), op, ks, stack);
  }

  // The unboxed signature `Ret(Args...)` must be the one the kernel was registered with; the
  // dispatcher guarantees it (see Note [Unboxed signatures must match exactly]).
  template <class Ret, class... Args>
  Ret call(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
    if (SY_LIKELY(unboxed_ != nullptr)) {
      // Note [Unboxed calling convention]
      // The operator's arguments come first and the kernel's own state last, so they arrive in the
      // same registers the kernel function takes them in: the trampoline of a SY_FN kernel is a
      // single jump, and the caller passes `this` rather than loading the functor for kernels
      // that do not use one.
      using Unboxed = Ret(Args..., const KernelFunction*, DispatchKeySet);
      return (*reinterpret_cast<Unboxed*>(unboxed_))(std::forward<Args>(args)..., this, ks);
    }
    return callBoxedKernel<Ret, Args...>(op, ks, std::forward<Args>(args)...);
  }

  // A boxed function known at compile time, with either boxed signature.
  template <auto* func>
  static KernelFunction makeFromBoxedFunction() {
    using F = std::remove_pointer_t<decltype(func)>;
    static_assert(std::is_same_v<F, BoxedFunctionWithoutKeys> || std::is_same_v<F, BoxedFunctionWithKeys>,
                  "a boxed kernel has the signature void(const OperatorHandle&, Stack*) or "
                  "void(const OperatorHandle&, DispatchKeySet, Stack*)");
    KernelFunction k;
    k.boxed_ = &boxedFunctionTrampoline<F, func>;
    k.shareable_ = true;
    return k;
  }
  // A boxed lambda or functor, `void(const OperatorHandle&, [DispatchKeySet,] Stack*)`, kept alive
  // with the registration (for stateful fallbacks such as counters).
  template <class Lambda>
  static KernelFunction makeFromBoxedLambda(Lambda&& lambda) {
    using Holder = BoxedLambdaHolder<std::decay_t<Lambda>>;
    KernelFunction k;
    k.functor_ = std::make_shared<Holder>(std::forward<Lambda>(lambda));
    k.boxed_ = &Holder::call;
    k.shareable_ = kHasNoState<std::decay_t<Lambda>>;
    return k;
  }
  // See Note [Fallthrough is free].
  static KernelFunction makeFallthrough();

  // An unboxed kernel object; `KernelFunctor::operator()` gives the signature.
  template <class KernelFunctor>
  static KernelFunction makeFromUnboxedFunctor(std::shared_ptr<KernelFunctor> functor) {
    static_assert(std::is_base_of_v<OperatorKernel, KernelFunctor>, "kernel functors derive from sy::OperatorKernel");
    using Signature = detail::KernelSignature<typename detail::FunctorTraits<KernelFunctor>::func_type>;
    KernelFunction k;
    k.functor_ = std::move(functor);
    k.boxed_ = &detail::BoxedFromUnboxed<KernelFunctor>::call;
    k.unboxed_ = reinterpret_cast<void*>(
        &UnboxedTrampoline<KernelFunctor, Signature::takes_dispatch_key_set, typename Signature::return_type,
                           typename Signature::parameters>::call);
    k.guarded_unboxed_ = reinterpret_cast<void*>(
        &GuardedUnboxedTrampoline<KernelFunctor, Signature::takes_dispatch_key_set, typename Signature::return_type,
                                  typename Signature::parameters>::call);
    return k;
  }

  // A function whose address is a template argument (SY_FN): called directly, no stored pointer
  // (See Note [Compile-time kernels share their kernel object per signature]).
  template <class FuncPtr>
  static KernelFunction makeFromUnboxedFunction(FuncPtr) {
    static_assert(detail::IsCompileTimeFunctionPointer<FuncPtr>::value, "pass SY_FN(func)");
    using Signature = detail::KernelSignature<typename FuncPtr::func_type>;
    using Static = StaticFunctionKernel<FuncPtr, typename FuncPtr::func_type>;
    KernelFunction k = makeFromUnboxedRuntimeFunction(FuncPtr::func_ptr());
    k.boxed_ = &detail::BoxedFromUnboxedImpl<Static, Signature::takes_dispatch_key_set, typename Signature::return_type,
                                             typename Signature::parameters>::call;
    k.unboxed_ = reinterpret_cast<void*>(&DirectTrampoline<FuncPtr, Signature::takes_dispatch_key_set,
                                                           typename Signature::return_type,
                                                           typename Signature::parameters>::call);
    return k;
  }
  template <class FuncType>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncType* func) {
    static_assert(std::is_function_v<FuncType>, "expected a function pointer");
    KernelFunction k = makeFromUnboxedFunctor(std::make_shared<RuntimeFunctionKernel<FuncType>>(func));
    k.shareable_ = true;
    k.identity_ = reinterpret_cast<uintptr_t>(func);  // the kernel's only state
    return k;
  }
  template <class Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda) {
    using L = std::decay_t<Lambda>;
    KernelFunction k =
        makeFromUnboxedFunctor(std::make_shared<LambdaKernel<L, decltype(&L::operator())>>(std::forward<Lambda>(lambda)));
    k.shareable_ = kHasNoState<L>;
    return k;
  }

  // ---- Internal: how the dispatcher publishes a kernel (see Note [Reclaiming retired kernels]) ----

  // A kernel without state (a function, a capture-less lambda, a function pointer): every
  // registration of it may share one record that is never freed.
  bool shareable() const { return shareable_; }
  // What tells two shareable kernels apart beyond their entry points (a runtime function pointer).
  uintptr_t identity() const { return identity_; }
  BoxedKernelFunction* boxedEntry() const { return boxed_; }
  const void* unboxedEntry() const { return unboxed_; }
  const void* guardedUnboxedEntry() const { return guarded_unboxed_; }
  const std::shared_ptr<OperatorKernel>& functor() const { return functor_; }
  // The record a kernel with state is published as: calls go through `slot`, which counts them.
  KernelFunction guardedBy(detail::GuardedKernelSlot* slot) const {
    KernelFunction k;
    k.functor_ = std::shared_ptr<OperatorKernel>(std::shared_ptr<void>(), slot);  // slots are never freed
    k.boxed_ = &detail::GuardedKernelSlot::boxedEntry;
    k.unboxed_ = guarded_unboxed_;
    return k;
  }

  // Internal: a boxed entry point with a kernel object (the missing-kernel entry uses it).
  static KernelFunction makeFromBoxedKernel(BoxedKernelFunction* boxed, std::shared_ptr<OperatorKernel> functor) {
    KernelFunction k;
    k.boxed_ = boxed;
    k.functor_ = std::move(functor);
    return k;
  }

 private:
  // Out of line so the unboxed fast path above compiles to a tail call with no stack frame.
  template <class Ret, class... Args>
  __attribute__((noinline)) Ret callBoxedKernel(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
    return detail::callBoxedWithUnboxedArguments<Ret, Args...>(boxed_, functor_.get(), op, ks,
                                                                args...);
  }

  template <class F, F* func>
  static void boxedFunctionTrampoline(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    if constexpr (std::is_same_v<F, BoxedFunctionWithKeys>) {
      (*func)(op, ks, stack);
    } else {
      (*func)(op, stack);
    }
  }

  template <class Lambda>
  struct BoxedLambdaHolder final : OperatorKernel {
    explicit BoxedLambdaHolder(Lambda l) : lambda(std::move(l)) {}
    static void call(OperatorKernel* self, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
      auto& l = static_cast<BoxedLambdaHolder*>(self)->lambda;
      if constexpr (std::is_invocable_v<Lambda&, const OperatorHandle&, DispatchKeySet, Stack*>) {
        l(op, ks, stack);
      } else {
        l(op, stack);
      }
    }
    Lambda lambda;
  };

  template <class KernelFunctor, bool TakesKeySet, class Ret, class ParamList>
  struct UnboxedTrampoline;
  template <class KernelFunctor, bool TakesKeySet, class Ret, class... Params>
  struct UnboxedTrampoline<KernelFunctor, TakesKeySet, Ret, detail::TypeList<Params...>> {
    static Ret call(Params... params, const KernelFunction* self, DispatchKeySet ks) {
      auto* kernel = static_cast<KernelFunctor*>(self->functor_.get());
      if constexpr (TakesKeySet) {
        return (*kernel)(ks, std::forward<Params>(params)...);
      } else {
        return (*kernel)(std::forward<Params>(params)...);
      }
    }
  };

  // The unboxed entry point of a guarded record: the kernel runs counted as in flight, so that
  // it is not destroyed under the call; a call that finds it deregistered runs what the table
  // holds now, as a call made an instant later would.
  template <class KernelFunctor, bool TakesKeySet, class Ret, class ParamList>
  struct GuardedUnboxedTrampoline;
  template <class KernelFunctor, bool TakesKeySet, class Ret, class... Params>
  struct GuardedUnboxedTrampoline<KernelFunctor, TakesKeySet, Ret, detail::TypeList<Params...>> {
    static Ret call(Params... params, const KernelFunction* self, DispatchKeySet ks) {
      auto& slot = *static_cast<detail::GuardedKernelSlot*>(self->functor_.get());
      detail::GuardedKernelSlot::InUse in_use(slot);
      if (__builtin_expect(in_use.kernel() == nullptr, 0)) {
        DispatchKeySet masked;
        const KernelFunction& now = slot.currentKernelFor(ks, &masked);
        return now.template call<Ret, Params...>(slot.op(), masked, std::forward<Params>(params)...);
      }
      auto* kernel = static_cast<KernelFunctor*>(in_use.kernel());
      if constexpr (TakesKeySet) {
        return (*kernel)(ks, std::forward<Params>(params)...);
      } else {
        return (*kernel)(std::forward<Params>(params)...);
      }
    }
  };

  // A lambda with nothing captured holds no state to reclaim.
  template <class Lambda>
  static constexpr bool kHasNoState = std::is_empty_v<Lambda> && std::is_trivially_destructible_v<Lambda>;

  // Note [Compile-time kernels share their kernel object per signature]
  // A library registers hundreds of SY_FN kernels, most of them over a handful of signatures. Their
  // two call paths are the function's own: the unboxed entry is one jump to it (DirectTrampoline),
  // and the boxed entry converts the stack straight into a call of it (BoxedFromUnboxedImpl over
  // StaticFunctionKernel, which is never an object), so that a fallback's boxed call inlines the
  // kernel as before. Everything else a record needs (its kernel object and control block, the
  // guarded entry, vtables) is the runtime function pointer's, instantiated once per signature.
  // Instantiating those per function made the generated registration files the largest compile
  // cost of the library.
  template <class FuncPtr, class FuncType>
  struct StaticFunctionKernel;
  template <class FuncPtr, class R, class... Params>
  struct StaticFunctionKernel<FuncPtr, R(Params...)> {
    static constexpr bool kStatic = true;
    static R call(Params... params) { return (*FuncPtr::func_ptr())(std::forward<Params>(params)...); }
  };

  template <class FuncPtr, bool TakesKeySet, class Ret, class ParamList>
  struct DirectTrampoline;
  template <class FuncPtr, bool TakesKeySet, class Ret, class... Params>
  struct DirectTrampoline<FuncPtr, TakesKeySet, Ret, detail::TypeList<Params...>> {
    static Ret call(Params... params, const KernelFunction*, DispatchKeySet ks) {
      if constexpr (TakesKeySet) {
        return (*FuncPtr::func_ptr())(ks, std::forward<Params>(params)...);
      } else {
        return (*FuncPtr::func_ptr())(std::forward<Params>(params)...);
      }
    }
  };

  template <class FuncType>
  struct RuntimeFunctionKernel;
  template <class R, class... Params>
  struct RuntimeFunctionKernel<R(Params...)> final : OperatorKernel {
    explicit RuntimeFunctionKernel(R (*f)(Params...)) : func(f) {}
    R operator()(Params... params) { return (*func)(std::forward<Params>(params)...); }
    R (*func)(Params...);
  };

  template <class Lambda, class CallOperator>
  struct LambdaKernel;
  template <class Lambda, class C, class R, class... Params>
  struct LambdaKernel<Lambda, R (C::*)(Params...) const> final : OperatorKernel {
    explicit LambdaKernel(Lambda l) : lambda(std::move(l)) {}
    R operator()(Params... params) { return lambda(std::forward<Params>(params)...); }
    Lambda lambda;
  };
  template <class Lambda, class C, class R, class... Params>
  struct LambdaKernel<Lambda, R (C::*)(Params...)> final : OperatorKernel {
    explicit LambdaKernel(Lambda l) : lambda(std::move(l)) {}
    R operator()(Params... params) { return lambda(std::forward<Params>(params)...); }
    Lambda lambda;
  };

  std::shared_ptr<OperatorKernel> functor_;
  BoxedKernelFunction* boxed_ = nullptr;
  void* unboxed_ = nullptr;
  // Cold: read only when registering (see Note [Reclaiming retired kernels]).
  void* guarded_unboxed_ = nullptr;
  uintptr_t identity_ = 0;
  bool shareable_ = false;
};

}  // namespace sy
