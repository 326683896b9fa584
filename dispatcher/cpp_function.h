// CppFunction: a kernel on its way into a Library, from whatever form its author wrote it in.
//
//   m.impl("scale", &scale_cpu);                                     // function pointer
//   m.impl("scale", SY_FN(scale_cpu));                               // direct call, no stored pointer
//   m.impl("scale", [](const sy::Tensor& t, double s) { ... });      // lambda (may capture)
//   m.fallback(sy::CppFunction::makeFromBoxedFunction<&my_fallback>());
//   m.fallback(sy::CppFunction::makeFallthrough());
//   m.impl("scale", sy::dispatch(sy::DispatchKey::CPU, &scale_cpu)); // key chosen per kernel
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "switchyard/core/dispatch_key.h"
#include "switchyard/dispatcher/infer_schema.h"
#include "switchyard/dispatcher/kernel_function.h"

namespace sy {

class CppFunction {
 public:
  template <class Func, std::enable_if_t<std::is_function_v<Func>, int> = 0>
  explicit CppFunction(Func* func)
      : kernel_(KernelFunction::makeFromUnboxedRuntimeFunction(func)), signature_(inferSignature<Func>()) {}

  template <class FuncPtr, std::enable_if_t<detail::IsCompileTimeFunctionPointer<FuncPtr>::value, int> = 0>
  explicit CppFunction(FuncPtr func)
      : kernel_(KernelFunction::makeFromUnboxedFunction(func)),
        signature_(inferSignature<typename FuncPtr::func_type>()) {}

  template <class Lambda,
            std::enable_if_t<std::is_class_v<std::decay_t<Lambda>> &&
                                 !std::is_same_v<std::decay_t<Lambda>, CppFunction> &&
                                 !detail::IsCompileTimeFunctionPointer<std::decay_t<Lambda>>::value,
                             int> = 0>
  explicit CppFunction(Lambda&& lambda)
      : kernel_(KernelFunction::makeFromUnboxedLambda(std::forward<Lambda>(lambda))),
        signature_(inferSignature<typename detail::FunctorTraits<std::decay_t<Lambda>>::func_type>()) {}

  // A boxed function: void(const OperatorHandle&, Stack*) or void(const OperatorHandle&, DispatchKeySet, Stack*).
  template <auto* func>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(KernelFunction::makeFromBoxedFunction<func>(), std::nullopt);
  }
  // A boxed lambda with either boxed signature; its captures live as long as the registration.
  template <class Lambda>
  static CppFunction makeFromBoxedLambda(Lambda&& lambda) {
    return CppFunction(KernelFunction::makeFromBoxedLambda(std::forward<Lambda>(lambda)), std::nullopt);
  }
  template <class Func>
  static CppFunction makeFromUnboxedFunction(Func func) {
    return CppFunction(func);
  }
  // Skips this key at zero cost (see Note [Fallthrough is free]).
  static CppFunction makeFallthrough() { return CppFunction(KernelFunction::makeFallthrough(), std::nullopt); }

  const std::optional<DispatchKey>& dispatchKey() const { return dispatch_key_; }
  KernelFunction& kernel() { return kernel_; }
  std::optional<InferredSignature>& signature() { return signature_; }

 private:
  template <class Func>
  friend CppFunction dispatch(DispatchKey key, Func&& func);

  CppFunction(KernelFunction kernel, std::optional<InferredSignature> signature)
      : kernel_(std::move(kernel)), signature_(std::move(signature)) {}

  std::optional<DispatchKey> dispatch_key_;
  KernelFunction kernel_;
  std::optional<InferredSignature> signature_;
};

// Registers `func` for `key` regardless of the library's own key (for SY_LIBRARY blocks).
// DispatchKey::CatchAll (Undefined) names no key: the library's own, as PyTorch has it.
template <class Func>
CppFunction dispatch(DispatchKey key, Func&& func) {
  CppFunction f(std::forward<Func>(func));
  if (key != DispatchKey::Undefined) f.dispatch_key_ = key;
  return f;
}
// The same for the backend of a device type (DeviceType::CPU -> DispatchKey::CPU). Device types
// without a backend here (CUDA, Meta, ...) are refused, naming the free keys.
template <class Func>
CppFunction dispatch(DeviceType type, Func&& func) {
  checkHasBackend(type, "dispatch(DeviceType, kernel)");
  return dispatch(backendKeyFor(type), std::forward<Func>(func));
}

}  // namespace sy
