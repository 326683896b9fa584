// KernelFunction: one callable kernel as the dispatch table stores it.
//
// It holds a boxed entry point (always), an unboxed entry point (when the kernel was written as a
// C++ function), and the kernel object (for lambdas and stateful functors). `call<Ret, Args...>`
// takes the unboxed entry when there is one and otherwise boxes the arguments; `callBoxed` always
// works. Kernel authors do not build these directly: `sy::CppFunction` (library.h) does.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include "switchyard/dispatcher/boxing.h"
#include "switchyard/dispatcher/function_traits.h"

namespace sy {

using BoxedKernelFunction = void(OperatorKernel* functor, const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
// The two signatures a user's boxed function may have (the second, as in PyTorch's fallbacks).
using BoxedFunctionWithoutKeys = void(const OperatorHandle& op, Stack* stack);
using BoxedFunctionWithKeys = void(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);

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
    if (__builtin_expect(unboxed_ != nullptr, 1)) {
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
    return k;
  }

  // A function whose address is a template argument (SY_FN): called directly, no stored pointer.
  template <class FuncPtr>
  static KernelFunction makeFromUnboxedFunction(FuncPtr) {
    static_assert(detail::IsCompileTimeFunctionPointer<FuncPtr>::value, "pass SY_FN(func)");
    return makeFromUnboxedFunctor(std::make_shared<CompileTimeFunctionKernel<FuncPtr, typename FuncPtr::func_type>>());
  }
  template <class FuncType>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncType* func) {
    static_assert(std::is_function_v<FuncType>, "expected a function pointer");
    return makeFromUnboxedFunctor(std::make_shared<RuntimeFunctionKernel<FuncType>>(func));
  }
  template <class Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda) {
    using L = std::decay_t<Lambda>;
    return makeFromUnboxedFunctor(std::make_shared<LambdaKernel<L, decltype(&L::operator())>>(std::forward<Lambda>(lambda)));
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

  template <class FuncPtr, class FuncType>
  struct CompileTimeFunctionKernel;
  template <class FuncPtr, class R, class... Params>
  struct CompileTimeFunctionKernel<FuncPtr, R(Params...)> final : OperatorKernel {
    R operator()(Params... params) { return (*FuncPtr::func_ptr())(std::forward<Params>(params)...); }
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
};

}  // namespace sy
