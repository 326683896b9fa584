// Compile-time facts about kernel signatures: return type, parameter types, and whether the
// first parameter is the hidden DispatchKeySet.
#pragma once

#include <tuple>
#include <type_traits>

#include "switchyard/core/dispatch_key_set.h"

namespace sy::detail {

template <class... Ts>
struct TypeList {
  static constexpr size_t size = sizeof...(Ts);
};

template <class F>
struct FunctionTraits;
template <class R, class... Args>
struct FunctionTraits<R(Args...)> {
  using return_type = R;
  using parameters = TypeList<Args...>;
  using func_type = R(Args...);
};
template <class R, class... Args>
struct FunctionTraits<R (*)(Args...)> : FunctionTraits<R(Args...)> {};
// Functors and lambdas: the traits of their operator().
template <class C, class R, class... Args>
struct FunctionTraits<R (C::*)(Args...)> : FunctionTraits<R(Args...)> {};
template <class C, class R, class... Args>
struct FunctionTraits<R (C::*)(Args...) const> : FunctionTraits<R(Args...)> {};
template <class F>
struct FunctorTraits : FunctionTraits<decltype(&F::operator())> {};

template <class List>
struct FirstIsDispatchKeySet : std::false_type {};
template <class First, class... Rest>
struct FirstIsDispatchKeySet<TypeList<First, Rest...>>
    : std::is_same<std::decay_t<First>, DispatchKeySet> {};

template <class List>
struct DropFirst {
  using type = List;  // only instantiated as the unused branch for an empty parameter list
};
template <class First, class... Rest>
struct DropFirst<TypeList<First, Rest...>> {
  using type = TypeList<Rest...>;
};

// The operator-visible signature of a kernel: its function type without a leading DispatchKeySet.
template <class FuncType>
struct KernelSignature {
  using traits = FunctionTraits<FuncType>;
  static constexpr bool takes_dispatch_key_set = FirstIsDispatchKeySet<typename traits::parameters>::value;
  using parameters = std::conditional_t<takes_dispatch_key_set,
                                        typename DropFirst<typename traits::parameters>::type,
                                        typename traits::parameters>;
  using return_type = typename traits::return_type;
};

template <class R, class List>
struct MakeFunctionType;
template <class R, class... Args>
struct MakeFunctionType<R, TypeList<Args...>> {
  using type = R(Args...);
};

template <class T>
struct IsTuple : std::false_type {};
template <class... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};

// A function pointer known at compile time; see SY_FN.
template <class FuncType, FuncType* func>
struct CompileTimeFunctionPointer {
  using func_type = FuncType;
  static constexpr FuncType* func_ptr() { return func; }
};

template <class T>
struct IsCompileTimeFunctionPointer : std::false_type {};
template <class FuncType, FuncType* func>
struct IsCompileTimeFunctionPointer<CompileTimeFunctionPointer<FuncType, func>> : std::true_type {};

}  // namespace sy::detail

// Wraps a function so its address is a template argument: the generated kernel calls it directly
// instead of through a stored pointer (one indirect call per dispatch instead of two).
//   m.impl("acos.out", SY_FN(acos_out_cpu));
#define SY_FN(func) (::sy::detail::CompileTimeFunctionPointer<std::remove_pointer_t<std::remove_reference_t<decltype(func)>>, func>())
