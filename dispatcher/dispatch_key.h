// DispatchKey: the small enum that names every backend and functionality an operator call can be
// routed through.
//
// Note [Dispatch key order]
// A higher enumerator is dispatched first. Backends sit at the bottom, functionality keys (which
// wrap a backend: zero tensors, tracing, profiling, test wrappers and modes) above them, so a call
// on a traced CPU tensor reaches Tracer first, whose kernel removes its own key and redispatches to
// CPU. Undefined is 0 and is what an empty key set resolves to (see DispatchKeySet). Alias keys
// name a group of runtime keys for registration only: they never appear in a DispatchKeySet and
// have no slot in a dispatch table.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "switchyard/ivalue/device.h"

namespace sy {

enum class DispatchKey : uint8_t {
  Undefined = 0,

  // Backends.
  CPU,
  Accel,
  PrivateUse1,
  PrivateUse2,
  PrivateUse3,

  // Functionality keys.
  ZeroTensor,
  Tracer,
  Profiler,
  TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode,

  EndOfRuntimeKeys,

  // Alias keys (registration only).
  CompositeExplicit = EndOfRuntimeKeys,
  CompositeImplicit,
  EndOfAliasKeys,
};

inline constexpr int kNumRuntimeKeys = static_cast<int>(DispatchKey::EndOfRuntimeKeys);
inline constexpr DispatchKey kLastBackendKey = DispatchKey::PrivateUse3;

constexpr bool isAliasKey(DispatchKey k) {
  return k >= DispatchKey::CompositeExplicit && k < DispatchKey::EndOfAliasKeys;
}
constexpr bool isRuntimeKey(DispatchKey k) { return k < DispatchKey::EndOfRuntimeKeys; }
constexpr bool isBackendKey(DispatchKey k) {
  return k >= DispatchKey::CPU && k <= kLastBackendKey;
}

std::string_view toString(DispatchKey k);
// Parses the enumerator's name ("CPU", "CompositeImplicit"); nullopt for an unknown name.
std::optional<DispatchKey> parseDispatchKey(std::string_view name);
inline std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << toString(k); }

// The backend key that owns memory on `type` (CPU -> CPU, Accel -> Accel, ...).
constexpr DispatchKey backendKeyFor(DeviceType type) {
  switch (type) {
    case DeviceType::CPU: return DispatchKey::CPU;
    case DeviceType::Accel: return DispatchKey::Accel;
    case DeviceType::PrivateUse1: return DispatchKey::PrivateUse1;
    case DeviceType::PrivateUse2: return DispatchKey::PrivateUse2;
    case DeviceType::PrivateUse3: return DispatchKey::PrivateUse3;
  }
  return DispatchKey::Undefined;
}

}  // namespace sy
