// Boxing and unboxing: moving kernel arguments between C++ parameters and the IValue Stack.
//
// Two directions, both generated from the kernel's C++ signature at compile time:
//  - `BoxedFromUnboxed<Functor>::call` lets a boxed caller (a fallback's redispatchBoxed, a
//    program interpreter) run an unboxed kernel: it reads the last N stack values as the kernel's
//    parameters, calls it, drops the arguments and pushes the results. When the values are an
//    unboxed caller's arguments that nobody has looked at, it takes those instead.
//  - `callBoxedWithUnboxedArguments<Ret, Args...>` lets an unboxed caller run a boxed kernel (a
//    backend fallback): it gives the kernel a Stack standing for the arguments, boxed only when
//    read (see Note [Deferred boxing], ivalue/stack.h), calls it, and pops the results.
//
// Note [Out arguments come back as the caller's own object]
// An out or in-place kernel returns `Tensor&`, the very object the caller passed. When such a call
// goes through a boxed kernel, the result on the stack is a new handle; we return the caller's
// original reference instead (found through the schema's alias annotations), after checking that
// the kernel returned the same TensorImpl. Without alias annotations, the returns of a kernel that
// returns several `Tensor&` are its last parameters, in order, as in PyTorch (an operator with
// several out arguments takes them last). A boxed kernel may resize and write an out argument,
// but rebinding it to another TensorImpl would silently detach the caller's tensor from the
// result, so that raises an error.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/dispatcher/function_traits.h"
#include "switchyard/dispatcher/unboxed_call.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/optional_tensor_list_ref.h"
#include "switchyard/core/macros.h"
#include "switchyard/ivalue/stack.h"

namespace sy {

class OperatorHandle;

// Base class of every unboxed kernel object (functions, lambdas and stateful functors are wrapped
// into one). Stateful kernels derive from it directly.
class OperatorKernel {
 public:
  virtual ~OperatorKernel() = default;
};

namespace detail {

// ---- IValue -> C++ parameter -------------------------------------------------------------------

template <class T>
struct IValueToArg {
  static_assert(sizeof(T) == 0, "unsupported kernel parameter type; see dispatcher/infer_schema.h");
};
// Tensors are handed out as references into the stack slot (see Note [Borrowing tensors from IValues]);
// `argumentFromIValue` below gives `Tensor&` parameters a mutable one.
template <>
struct IValueToArg<Tensor> {
  static const Tensor& get(IValue& v) { return std::as_const(v).toTensor(); }
};
#define SY_IVALUE_TO_ARG(type, expr)               \
  template <>                                      \
  struct IValueToArg<type> {                       \
    static decltype(auto) get(IValue& v) { return expr; } \
  };
SY_IVALUE_TO_ARG(int64_t, v.toInt())
SY_IVALUE_TO_ARG(double, v.toDouble())
SY_IVALUE_TO_ARG(bool, v.toBool())
SY_IVALUE_TO_ARG(std::string, v.toStringRef())
SY_IVALUE_TO_ARG(std::string_view, v.toStringView())
SY_IVALUE_TO_ARG(Scalar, v.toScalar())
SY_IVALUE_TO_ARG(ScalarType, v.toScalarType())
SY_IVALUE_TO_ARG(Device, v.toDevice())
SY_IVALUE_TO_ARG(Layout, static_cast<Layout>(v.toInt()))
SY_IVALUE_TO_ARG(MemoryFormat, static_cast<MemoryFormat>(v.toInt()))
SY_IVALUE_TO_ARG(std::vector<int64_t>, v.toIntVector())
SY_IVALUE_TO_ARG(absl::Span<const int64_t>, v.toIntList())
SY_IVALUE_TO_ARG(std::vector<double>, v.toDoubleList())
SY_IVALUE_TO_ARG(absl::Span<const double>, absl::Span<const double>(v.toDoubleList()))
SY_IVALUE_TO_ARG(std::vector<bool>, v.toBoolList())
SY_IVALUE_TO_ARG(std::vector<Tensor>, v.toTensorVector())
SY_IVALUE_TO_ARG(TensorList, v.toTensorList())
// A Tensor?[]: a view of the boxed list's elements (or of a Tensor[], which has no None).
SY_IVALUE_TO_ARG(OptionalTensorListRef, v.isTensorList() ? OptionalTensorListRef(v.toTensorList())
                                                          : OptionalTensorListRef::ofIValues(v.toListRef()))
#undef SY_IVALUE_TO_ARG
template <class T>
struct IValueToArg<std::optional<T>> {
  static std::optional<T> get(IValue& v) {
    if (v.isNone()) return std::nullopt;
    return std::optional<T>(IValueToArg<T>::get(v));
  }
};

// A `Tensor&` (out or in-place) parameter binds to the stack slot itself, made owned first: the
// kernel may rebind it (see Note [Borrowed IValues]). Every other parameter reads the slot.
template <class Param>
decltype(auto) argumentFromIValue(IValue& v) {
  if constexpr (std::is_same_v<Param, Tensor&>) {
    return v.toTensor();
  } else {
    return IValueToArg<std::decay_t<Param>>::get(v);
  }
}

// What a converted argument is held as between conversion and the call: references stay
// references into the stack, computed values (Scalar, optionals) are held by value.
template <class Param>
using ConvertedArg = decltype(argumentFromIValue<Param>(std::declval<IValue&>()));

// ---- C++ return value -> stack ----------------------------------------------------------------

// The owning form of a return type: Tensor& -> Tensor, tuple<Tensor&, Tensor&> -> tuple<Tensor, Tensor>.
template <class R>
struct OwnedReturn {
  using type = std::decay_t<R>;
};
template <class... Rs>
struct OwnedReturn<std::tuple<Rs...>> {
  using type = std::tuple<std::decay_t<Rs>...>;
};

// Pushes results after the arguments were popped; `kRoomLeft` says whether the popped arguments
// left room for all of them, so no capacity check is needed.
template <class R, bool kRoomLeft>
struct ReturnPusher {
  static void push(Stack& stack, R&& value) {
    if constexpr (kRoomLeft) {
      stack.emplaceBackWithinCapacity(std::move(value));
    } else {
      stack.emplace_back(std::move(value));
    }
  }
};
template <class... Rs, bool kRoomLeft>
struct ReturnPusher<std::tuple<Rs...>, kRoomLeft> {
  static void push(Stack& stack, std::tuple<Rs...>&& values) {
    std::apply([&](auto&&... v) { (stack.emplace_back(std::move(v)), ...); }, std::move(values));
  }
};

template <class R>
constexpr size_t numReturns() {
  if constexpr (std::is_void_v<R>) {
    return 0;
  } else if constexpr (IsTuple<std::decay_t<R>>::value) {
    return std::tuple_size_v<std::decay_t<R>>;
  } else {
    return 1;
  }
}

// Cold paths, out of line so the generated wrappers stay small.
[[noreturn]] void throwStackTooSmall(const OperatorHandle& op, size_t needed, size_t available);
[[noreturn]] void throwArgumentTypeError(const OperatorHandle& op, const IValue* args, size_t num_args,
                                         const std::string& what);
[[noreturn]] void throwWrongNumberOfReturns(const BridgedCall& call, size_t expected, size_t actual);
[[noreturn]] void throwReboundOutArgument(const BridgedCall& call, size_t return_index, int argument_index);
// Return `return_index` is not of the type the caller takes: names the operator, the key and both types.
[[noreturn]] void throwReturnTypeError(const BridgedCall& call, const IValue& result, size_t return_index,
                                       const char* what);
// Index of the argument that return `i` aliases (the out/in-place tensor), or -1.
int aliasedArgumentOfReturn(const OperatorHandle& op, size_t return_index);

// The index of the only `Tensor&` parameter, or -1 when there are none or several. An out or
// in-place operator with one such parameter returns it, so the boxed path needs no schema lookup
// to find the caller's object (see Note [Out arguments come back as the caller's own object]).
template <class... Args>
constexpr int soleMutableTensorParameter() {
  constexpr bool is_mutable_tensor[] = {std::is_same_v<Args, Tensor&>..., false};
  int found = -1;
  for (int i = 0; i < static_cast<int>(sizeof...(Args)); ++i) {
    if (is_mutable_tensor[i]) {
      if (found >= 0) return -1;
      found = i;
    }
  }
  return found;
}

// For a kernel returning a tuple of kNumReturns `Tensor&`: the index of the first of its last
// kNumReturns parameters when they are all `Tensor&` (where a return without an alias annotation
// is found by position), else -1.
template <size_t kNumReturns, class... Args>
constexpr int firstOfTrailingMutableTensorParameters() {
  constexpr bool is_mutable_tensor[] = {std::is_same_v<Args, Tensor&>..., false};
  constexpr size_t kNumArgs = sizeof...(Args);
  if (kNumReturns == 0 || kNumReturns > kNumArgs) return -1;
  for (size_t i = kNumArgs - kNumReturns; i < kNumArgs; ++i) {
    if (!is_mutable_tensor[i]) return -1;
  }
  return static_cast<int>(kNumArgs - kNumReturns);
}

// ---- boxed caller -> unboxed kernel -----------------------------------------------------------

// Parameter types whose IValues, once unboxed successfully, are known to hold nothing to release.
template <class T>
constexpr bool kUnboxesFromTrivialIValue = kBoxesAsWord<T> || std::is_same_v<T, Scalar>;
template <class T>
constexpr bool kUnboxesFromTrivialIValue<std::optional<T>> = kUnboxesFromTrivialIValue<T>;

// Whether a kernel type is called through a static `call` rather than an object (the SY_FN kernels).
template <class KernelFunctor, class = void>
struct IsStaticKernel : std::false_type {};
template <class KernelFunctor>
struct IsStaticKernel<KernelFunctor, std::void_t<decltype(KernelFunctor::kStatic)>> : std::true_type {};

template <class KernelFunctor, bool TakesKeySet, class Ret, class ParamList>
struct BoxedFromUnboxedImpl;

template <class KernelFunctor, bool TakesKeySet, class Ret, class... Params>
struct BoxedFromUnboxedImpl<KernelFunctor, TakesKeySet, Ret, TypeList<Params...>> {
  static constexpr size_t kNumArgs = sizeof...(Params);

  // Two paths, each out of line so that neither pays for the other's stack frame: this function
  // only chooses, and jumps.
  static void call(OperatorKernel* functor, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    if (const DeferredArguments* deferred = stack->deferredArgumentsOfType(&kUnboxedCallType<Params...>)) {
      // See Note [Deferred boxing]: the caller's arguments, never boxed, are this kernel's parameters.
      return callWithDeferredArguments(functor, ks, *deferred, stack);
    }
    return callWithBoxedArguments(functor, op, ks, stack);
  }

 private:
  __attribute__((noinline)) static void callWithBoxedArguments(OperatorKernel* functor, const OperatorHandle& op,
                                                               DispatchKeySet ks, Stack* stack) {
    if (SY_UNLIKELY(stack->size() < kNumArgs)) throwStackTooSmall(op, kNumArgs, stack->size());
    IValue* args = stack->data() + stack->size() - kNumArgs;
    auto converted = convertArguments(op, args, std::index_sequence_for<Params...>{});
    if constexpr (std::is_void_v<Ret>) {
      invoke(functor, ks, converted, std::index_sequence_for<Params...>{});
      dropArguments(stack, args, -1);
    } else if constexpr (std::is_same_v<Ret, Tensor&> && soleMutableTensorParameter<Params...>() >= 0) {
      // An out/in-place kernel returns the argument it wrote, which is a stack slot: move that
      // slot's IValue into the result position rather than copying and then popping it.
      constexpr int kOut = soleMutableTensorParameter<Params...>();
      Tensor& result = invoke(functor, ks, converted, std::index_sequence_for<Params...>{});
      if (SY_LIKELY(&result == &std::get<kOut>(converted))) {
        dropArguments(stack, args, kOut);  // relocates the out slot: a borrowed one stays borrowed
      } else {
        IValue returned(result);
        stack->truncateBy(kNumArgs);
        stack->emplaceBackWithinCapacity(std::move(returned));
      }
    } else {
      // Copy out before dropping: a Tensor& result refers to a stack slot we are about to pop.
      typename OwnedReturn<Ret>::type result = invoke(functor, ks, converted, std::index_sequence_for<Params...>{});
      dropArguments(stack, args, -1);
      ReturnPusher<typename OwnedReturn<Ret>::type, (numReturns<Ret>() <= kNumArgs)>::push(*stack, std::move(result));
    }
  }

  // Runs the kernel on the caller's own arguments, then replaces them on the stack with its
  // results, as callWithBoxedArguments leaves them: an out argument returned as itself is the
  // caller's object, borrowed mutably, as if its slot had been relocated. Should the kernel throw,
  // the stack still stands for the arguments, as a boxed stack would still hold them.
  __attribute__((noinline)) static void callWithDeferredArguments(OperatorKernel* functor, DispatchKeySet ks,
                                                                  const DeferredArguments& deferred, Stack* stack) {
    const auto& arguments = static_cast<const UnboxedCall<Params...>&>(deferred).values;
    if constexpr (std::is_void_v<Ret>) {
      invoke(functor, ks, arguments, std::index_sequence_for<Params...>{});
      stack->forgetAll();
    } else if constexpr (std::is_same_v<Ret, Tensor&> && soleMutableTensorParameter<Params...>() >= 0) {
      constexpr int kOut = soleMutableTensorParameter<Params...>();
      Tensor& result = invoke(functor, ks, arguments, std::index_sequence_for<Params...>{});
      stack->forgetAll();
      if (SY_LIKELY(&result == &std::get<kOut>(arguments))) {
        stack->emplaceBackWithinCapacity(kMutablyBorrowed, result);
      } else {
        stack->emplaceBackWithinCapacity(result);
      }
    } else {
      typename OwnedReturn<Ret>::type result = invoke(functor, ks, arguments, std::index_sequence_for<Params...>{});
      stack->forgetAll();
      ReturnPusher<typename OwnedReturn<Ret>::type, (numReturns<Ret>() <= kNumArgs)>::push(*stack, std::move(result));
    }
  }

  // Pops the arguments, except argument `keep` (when >= 0), which moves to the first argument's
  // slot as the result. Arguments whose C++ type unboxes only from values that hold nothing to
  // release (numbers, dtypes, devices, their optionals) had that tag checked when they were
  // converted, so they are not destroyed one by one.
  static void dropArguments(Stack* stack, IValue* args, int keep) {
    destroyArgumentsExcept(args, keep, std::index_sequence_for<Params...>{});
    if (keep > 0) std::memcpy(static_cast<void*>(args), static_cast<void*>(args + keep), sizeof(IValue));
    stack->forgetLast(keep >= 0 ? kNumArgs - 1 : kNumArgs);
  }
  template <size_t... I>
  static void destroyArgumentsExcept(IValue* args, int keep, std::index_sequence<I...>) {
    ((static_cast<int>(I) != keep && !kUnboxesFromTrivialIValue<std::decay_t<Params>> ? args[I].~IValue() : void()),
     ...);
  }

  // Inlined into callWithBoxedArguments whatever else its translation unit instantiates (GCC stopped
  // inlining it in the generated registrations once they held the derived forms, at 21 instructions a
  // call through a fallback that reads its arguments).
  template <size_t... I>
  SY_ALWAYS_INLINE static std::tuple<ConvertedArg<Params>...> convertArguments(const OperatorHandle& op, IValue* args,
                                                              std::index_sequence<I...>) {
    try {
      return std::tuple<ConvertedArg<Params>...>(argumentFromIValue<Params>(args[I])...);
    } catch (const Error& e) {
      throwArgumentTypeError(op, args, kNumArgs, e.what());
    }
  }

  // A kernel known at compile time (KernelFunctor::kStatic) is called without its object, which
  // is a shared one of another type (See Note [Compile-time kernels share their kernel object per
  // signature] in kernel_function.h).
  template <class Converted, size_t... I>
  static decltype(auto) invoke(OperatorKernel* functor, DispatchKeySet ks, const Converted& converted,
                               std::index_sequence<I...>) {
    if constexpr (IsStaticKernel<KernelFunctor>::value) {
      if constexpr (TakesKeySet) {
        return KernelFunctor::call(ks, static_cast<Params>(std::get<I>(converted))...);
      } else {
        return KernelFunctor::call(static_cast<Params>(std::get<I>(converted))...);
      }
    } else if constexpr (TakesKeySet) {
      return (*static_cast<KernelFunctor*>(functor))(ks, static_cast<Params>(std::get<I>(converted))...);
    } else {
      return (*static_cast<KernelFunctor*>(functor))(static_cast<Params>(std::get<I>(converted))...);
    }
  }
};

template <class KernelFunctor>
struct BoxedFromUnboxed {
  using Signature = KernelSignature<typename FunctorTraits<KernelFunctor>::func_type>;
  using Impl = BoxedFromUnboxedImpl<KernelFunctor, Signature::takes_dispatch_key_set,
                                    typename Signature::return_type, typename Signature::parameters>;
  static void call(OperatorKernel* functor, const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    Impl::call(functor, op, ks, stack);
  }
};

// ---- unboxed caller -> boxed kernel -----------------------------------------------------------

template <class T>
const Tensor* tensorAddress(const T& arg) {
  if constexpr (std::is_same_v<std::decay_t<T>, Tensor>) {
    return &arg;
  } else {
    return nullptr;
  }
}

// Pops one return value of C++ type R from stack slot `index`. kPositionalOut is the argument a
// `Tensor&` return without an alias annotation is, or -1. A value of the wrong type raises an error
// naming the operator and key; the check is the tag test the value's accessor makes anyway, and
// the message is built out of line.
template <class R, int kSoleOut, int kPositionalOut = -1>
struct ReturnPopper {
  static R pop(const BridgedCall& call, IValue& slot, size_t index, const Tensor* const* tensor_args) {
    using Decayed = std::decay_t<R>;
    if constexpr (std::is_reference_v<R> && std::is_same_v<Decayed, Tensor>) {
      // See Note [Out arguments come back as the caller's own object]
      if (SY_UNLIKELY(!slot.isTensor())) throwReturnTypeError(call, slot, index, "");
      int arg = kSoleOut >= 0 ? kSoleOut : aliasedArgumentOfReturn(*call.op, index);
      if (arg < 0) arg = kPositionalOut;
      const Tensor* original = arg >= 0 ? tensor_args[arg] : nullptr;
      if (SY_UNLIKELY(original == nullptr ||
                      std::as_const(slot).toTensor().unsafeGetTensorImpl() != original->unsafeGetTensorImpl())) {
        throwReboundOutArgument(call, index, arg);
      }
      return const_cast<Tensor&>(*original);
    } else {
      try {
        return static_cast<Decayed>(IValueToArg<Decayed>::get(slot));
      } catch (const Error& e) {
        throwReturnTypeError(call, slot, index, e.what());
      }
    }
  }
};
template <int kSoleOut, int kPositionalOut>
struct ReturnPopper<Tensor, kSoleOut, kPositionalOut> {
  static Tensor pop(const BridgedCall& call, IValue& slot, size_t index, const Tensor* const*) {
    if (__builtin_expect(!slot.isTensor(), 0)) throwReturnTypeError(call, slot, index, "");
    return std::move(slot).toTensor();
  }
};

template <class Ret, int kSoleOut, int kFirstPositionalOut, size_t... I>
Ret popReturns(const BridgedCall& call, IValue* results, const Tensor* const* tensor_args,
               std::index_sequence<I...>) {
  if constexpr (sizeof...(I) == 1 && !IsTuple<std::decay_t<Ret>>::value) {
    return ReturnPopper<Ret, kSoleOut>::pop(call, results[0], 0, tensor_args);
  } else {
    // Several returns: the schema says which argument each aliases, or else their position does.
    return Ret(ReturnPopper<std::tuple_element_t<I, Ret>, -1,
                            (kFirstPositionalOut >= 0 ? kFirstPositionalOut + static_cast<int>(I) : -1)>::pop(
        call, results[I], I, tensor_args)...);
  }
}

// The results a kernel left in an unusual form (a tensor borrowed or of the wrong type, an out
// argument not handed back as itself): out of line, so the common case stays small enough to inline.
template <class Ret, int kSoleOut, int kFirstPositionalOut, class... Args>
__attribute__((noinline)) Ret popUnusualReturns(const BridgedCall& call, IValue* results, Args&... args) {
  const Tensor* tensor_args[] = {tensorAddress(args)..., nullptr};
  return popReturns<Ret, kSoleOut, kFirstPositionalOut>(call, results, tensor_args,
                                                        std::make_index_sequence<numReturns<Ret>()>{});
}

template <class Ret, class... Args>
Ret callBoxedWithUnboxedArguments(void (*boxed)(OperatorKernel*, const OperatorHandle&, DispatchKeySet, Stack*),
                                  OperatorKernel* functor, const OperatorHandle& op, DispatchKeySet ks,
                                  Args&... args) {
  constexpr size_t kNumReturns = numReturns<Ret>();
  // See Note [Deferred boxing]: the arguments are boxed only if the kernel looks at them.
  const UnboxedCall<Args...> call(op, ks, args...);
  Stack stack;
  stack.deferArguments(&call, sizeof...(Args));
  boxed(functor, op, ks, &stack);
  if constexpr (kNumReturns > 0) {
    if (SY_UNLIKELY(stack.size() != kNumReturns)) {
      throwWrongNumberOfReturns(call, kNumReturns, stack.size());
    }
    // A kernel that left its arguments untouched left them as its results, so they box now; with
    // a different number of arguments and results, the right count means the arguments are gone.
    IValue* results = sizeof...(Args) == kNumReturns ? stack.data() : stack.dataWithoutDeferredArguments();
    constexpr int kSoleOut = soleMutableTensorParameter<Args...>();
    if constexpr (std::is_same_v<Ret, Tensor>) {
      // The usual result, a tensor the kernel made: moved out, and its slot forgotten.
      if (SY_LIKELY(results[0].isOwnedTensor())) {
        Tensor result = results[0].moveOwnedTensor();
        stack.forgetAll();
        return result;
      }
    } else if constexpr (std::is_same_v<Ret, Tensor&> && kSoleOut >= 0) {
      // The usual result of an out or in-place kernel: the caller's own object, still borrowed.
      Tensor& out = std::get<kSoleOut>(std::forward_as_tuple(args...));
      if (SY_LIKELY(results[0].isMutableBorrowOf(out))) {
        stack.forgetAll();
        return out;
      }
    }
    constexpr int kFirstPositionalOut = firstOfTrailingMutableTensorParameters<kNumReturns, Args...>();
    if constexpr (std::is_same_v<Ret, Tensor> || (std::is_same_v<Ret, Tensor&> && kSoleOut >= 0)) {
      Ret result = popUnusualReturns<Ret, kSoleOut, kFirstPositionalOut>(call, results, args...);
      // A tensor moved out of its slot leaves None or a borrow behind: nothing to destroy.
      if constexpr (std::is_same_v<Ret, Tensor>) stack.forgetAll();
      return result;
    } else {
      const Tensor* tensor_args[] = {tensorAddress(args)..., nullptr};
      return popReturns<Ret, kSoleOut, kFirstPositionalOut>(call, results, tensor_args,
                                                            std::make_index_sequence<kNumReturns>{});
    }
  }
}

}  // namespace detail
}  // namespace sy
