// UnboxedCall: an unboxed call that reached a boxed kernel, with its arguments not yet boxed.
//
// When an unboxed caller reaches a boxed kernel (a backend fallback), the bridge in boxing.h keeps
// the call (operator handle, key set, the caller's C++ arguments) in an `UnboxedCall` and gives
// the kernel a Stack that stands for the arguments (see Note [Deferred boxing], ivalue/stack.h). They
// are boxed, by `boxArgument`, only if the kernel looks at the Stack; an unboxed kernel further
// down takes them as they are.
#pragma once

#include <new>
#include <optional>
#include <tuple>
#include <type_traits>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/optional_tensor_list_ref.h"
#include "switchyard/ivalue/stack.h"

namespace sy {
class OperatorHandle;
}  // namespace sy

namespace sy::detail {

// See Note [Borrowed IValues]: the caller's arguments outlive the boxed call, so tensors and int lists
// are boxed without a reference or a list object of their own.
template <class T>
constexpr bool kBoxedAsBorrowed = std::is_same_v<T, Tensor> || std::is_same_v<T, absl::Span<const int64_t>>;
template <class T>
constexpr bool kOptionalBoxedAsBorrowed = false;
template <class T>
constexpr bool kOptionalBoxedAsBorrowed<std::optional<T>> = kBoxedAsBorrowed<T>;

// Boxes argument `arg`, whose parameter type is `Param`, into the raw storage `slot`; a `Tensor&`
// is borrowed mutably.
template <class Param, class Arg>
void boxArgument(IValue* slot, Arg& arg) {
  using Value = std::decay_t<Param>;
  if constexpr (std::is_same_v<Param, Tensor&>) {
    new (slot) IValue(kMutablyBorrowed, arg);
  } else if constexpr (kBoxedAsBorrowed<Value>) {
    new (slot) IValue(kBorrowed, static_cast<const Value&>(arg));
  } else if constexpr (kOptionalBoxedAsBorrowed<Value>) {
    if (arg.has_value()) {
      new (slot) IValue(kBorrowed, *arg);
    } else {
      new (slot) IValue();
    }
  } else if constexpr (std::is_same_v<Value, OptionalTensorListRef>) {
    new (slot) IValue(arg.toIValue());
  } else if constexpr (std::is_same_v<Value, std::optional<absl::Span<const double>>>) {  // a float[]?
    if (arg.has_value()) {
      new (slot) IValue(std::vector<double>(arg->begin(), arg->end()));
    } else {
      new (slot) IValue();
    }
  } else {
    new (slot) IValue(static_cast<const Value&>(arg));
  }
}

// How a deferred argument is held: references as they are, trivially copyable values (int lists,
// optional dtypes, numbers) by value, anything else (a Tensor or vector passed by value) as a
// reference to the bridge's own parameter, so holding it costs no refcount or copy.
template <class Param>
using DeferredArgument =
    std::conditional_t<std::is_reference_v<Param> || std::is_trivially_copyable_v<Param>, Param, Param&>;

// The tag of an argument list's exact C++ types (DeferredArguments::type): its address. A
// variable, not a function, so that no linker folds two tags into one.
template <class... Params>
inline char kUnboxedCallType = 0;

// What the bridge keeps of the call whatever its signature: the operator handle and the key set,
// for the error paths after the boxed call, which read them from here so that they stay in memory
// rather than in callee-saved registers across the call.
struct BridgedCall : DeferredArguments {
  BridgedCall(void (*box)(const DeferredArguments&, IValue*), const void* type, const OperatorHandle& handle,
              DispatchKeySet keys)
      : DeferredArguments{box, type}, op(&handle), ks(keys) {}
  const OperatorHandle* op;
  DispatchKeySet ks;
};

// The call with its C++ arguments (see Note [Deferred boxing]), tagged with their types: an unboxed
// kernel whose parameters are `Params` exactly may take `values` as its own.
template <class... Params>
struct UnboxedCall final : BridgedCall {
  template <class... Args>
  UnboxedCall(const OperatorHandle& handle, DispatchKeySet keys, Args&... args)
      : BridgedCall(&boxAll, &kUnboxedCallType<Params...>, handle, keys), values(args...) {}

  static void boxAll(const DeferredArguments& self, IValue* slots) {
    // Should boxing an argument throw (an allocation), the ones boxed before it are destroyed and
    // every slot holds None, as DeferredArguments::box promises the Stack.
    struct Boxed {
      IValue* first;
      IValue* end;
      bool complete;
      ~Boxed() {
        if (complete) return;
        while (end != first) (--end)->~IValue();
        for (size_t i = 0; i < sizeof...(Params); ++i) new (first + i) IValue();
      }
    } boxed{slots, slots, false};
    std::apply([&boxed](auto&... arg) { ((boxArgument<Params>(boxed.end, arg), ++boxed.end), ...); },
               static_cast<const UnboxedCall&>(self).values);
    boxed.complete = true;  // the Stack keeps them
  }

  std::tuple<DeferredArgument<Params>...> values;
};

}  // namespace sy::detail
