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
//
// Note [Autograd keys sit between backends and functionality]
// Each backend has an autograd key (AutogradCPU for CPU, ...), ordered as in PyTorch: above the
// backends, BackendSelect and ZeroTensor, below Tracer, Profiler and the test keys. So a profiled
// call is seen by the profiler before autograd records it, and autograd sees a zero tensor (and
// can record a gradient for it) before the ZeroTensor kernel takes the call. No tensor carries an
// autograd key unless its maker adds one, so a program that registers nothing for these keys
// never has them in a key set and pays nothing for them. The `Autograd` alias registers one
// kernel for all of them; a CompositeImplicit kernel also serves an autograd key whose backend has
// no kernel of its own (see Note [Precomputed dispatch tables]).
//
// BackendSelect exists for code that names it. Factory operators find their backend from their
// Device argument (FunctionSchema::deviceArgumentMask), so no call carries BackendSelect unless a
// guard includes it.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "switchyard/core/device.h"

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
  PartialKernels,  // kernels for some dtypes/dim orders only, from kernel YAML (dispatcher/partial_kernels.h);
                   // right above the backends: autograd and the other functionality keys see calls first
  BackendSelect,
  ZeroTensor,
  // See Note [Autograd keys sit between backends and functionality]; same order as the backends.
  AutogradCPU,
  AutogradAccel,
  AutogradPrivateUse1,
  AutogradPrivateUse2,
  AutogradPrivateUse3,
  Tracer,
  Profiler,
  TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode,

  EndOfRuntimeKeys,

  // Alias keys (registration only).
  CompositeExplicit = EndOfRuntimeKeys,
  CompositeImplicit,
  Autograd,  // every Autograd<Backend> key
  EndOfAliasKeys,

  // PyTorch's spellings of the same keys (toString gives ours).
  CompositeExplicitAutograd = CompositeExplicit,
  CompositeImplicitAutograd = CompositeImplicit,
  NumDispatchKeys = EndOfRuntimeKeys,
  // A kernel for no particular key: registered as CompositeImplicit, as PyTorch does.
  CatchAll = Undefined,
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
constexpr bool isAutogradKey(DispatchKey k) {
  return k >= DispatchKey::AutogradCPU && k <= DispatchKey::AutogradPrivateUse3;
}
// AutogradCPU for CPU, ...; Undefined for a key that is not a backend.
constexpr DispatchKey autogradKeyFor(DispatchKey backend) {
  if (!isBackendKey(backend)) return DispatchKey::Undefined;
  return static_cast<DispatchKey>(static_cast<int>(backend) - static_cast<int>(DispatchKey::CPU) +
                                  static_cast<int>(DispatchKey::AutogradCPU));
}
// CPU for AutogradCPU, ...; Undefined for a key that is not an autograd key.
constexpr DispatchKey backendKeyOfAutograd(DispatchKey autograd) {
  if (!isAutogradKey(autograd)) return DispatchKey::Undefined;
  return static_cast<DispatchKey>(static_cast<int>(autograd) - static_cast<int>(DispatchKey::AutogradCPU) +
                                  static_cast<int>(DispatchKey::CPU));
}
static_assert(autogradKeyFor(kLastBackendKey) == DispatchKey::AutogradPrivateUse3,
              "every backend has its autograd key, in the same order");

std::string_view toString(DispatchKey k);
// Parses the enumerator's name ("CPU", "CompositeImplicit", or PyTorch's "CompositeImplicitAutograd");
// nullopt for an unknown name.
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
    // No backend here (checkHasBackend).
    case DeviceType::CUDA:
    case DeviceType::HIP:
    case DeviceType::XLA:
    case DeviceType::MPS:
    case DeviceType::XPU:
    case DeviceType::Meta:
    case DeviceType::Lazy: return DispatchKey::Undefined;
  }
  return DispatchKey::Undefined;
}

}  // namespace sy
