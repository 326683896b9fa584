// Key extraction for unboxed calls, generated from the C++ argument types at compile time.
//
// Only tensor-like arguments contribute (Tensor, optional<Tensor>, tensor lists); the fold over
// the other arguments compiles to nothing, so extraction costs one load per tensor argument.
// An operator without tensor arguments takes its backend from its Device argument (an omitted
// device means CPU), like PyTorch's factory functions.
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/optional_tensor_list_ref.h"

namespace sy::detail {

template <class T>
struct IsTensorLike
    : std::bool_constant<std::is_same_v<T, Tensor> || std::is_same_v<T, std::optional<Tensor>> ||
                         std::is_same_v<T, TensorList> || std::is_same_v<T, std::vector<Tensor>> ||
                         std::is_same_v<T, OptionalTensorListRef>> {};

template <class T>
inline void accumulateTensorKeys(uint64_t& bits, const T& arg) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    bits |= arg.key_set().raw_repr();
  } else if constexpr (std::is_same_v<D, std::optional<Tensor>>) {
    if (arg.has_value()) bits |= arg->key_set().raw_repr();
  } else if constexpr (std::is_same_v<D, TensorList> || std::is_same_v<D, std::vector<Tensor>>) {
    for (const Tensor& t : arg) bits |= t.key_set().raw_repr();
  } else if constexpr (std::is_same_v<D, OptionalTensorListRef>) {
    for (size_t i = 0; i < arg.size(); ++i) {
      if (const Tensor* t = arg.get(i)) bits |= t->key_set().raw_repr();
    }
  }
}

template <class T>
inline void accumulateDeviceKeys(uint64_t& bits, const T& arg) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Device>) {
    bits |= DispatchKeySet(backendKeyFor(arg.type())).raw_repr();
  } else if constexpr (std::is_same_v<D, std::optional<Device>>) {
    bits |= DispatchKeySet(backendKeyFor(arg.has_value() ? arg->type() : DeviceType::CPU)).raw_repr();
  }
}

template <class... Args>
inline DispatchKeySet keySetFromArguments(const Args&... args) {
  uint64_t bits = 0;
  if constexpr ((IsTensorLike<std::decay_t<Args>>::value || ...)) {
    (accumulateTensorKeys(bits, args), ...);
  } else {
    (accumulateDeviceKeys(bits, args), ...);
  }
  return DispatchKeySet(DispatchKeySet::Raw{}, bits);
}

}  // namespace sy::detail
