#include "switchyard/core/dispatch_key.h"

namespace sy {

std::string_view toString(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined: return "Undefined";
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::Accel: return "Accel";
    case DispatchKey::PrivateUse1: return "PrivateUse1";
    case DispatchKey::PrivateUse2: return "PrivateUse2";
    case DispatchKey::PrivateUse3: return "PrivateUse3";
    case DispatchKey::PartialKernels: return "PartialKernels";
    case DispatchKey::BackendSelect: return "BackendSelect";
    case DispatchKey::ZeroTensor: return "ZeroTensor";
    case DispatchKey::AutogradCPU: return "AutogradCPU";
    case DispatchKey::AutogradAccel: return "AutogradAccel";
    case DispatchKey::AutogradPrivateUse1: return "AutogradPrivateUse1";
    case DispatchKey::AutogradPrivateUse2: return "AutogradPrivateUse2";
    case DispatchKey::AutogradPrivateUse3: return "AutogradPrivateUse3";
    case DispatchKey::Tracer: return "Tracer";
    case DispatchKey::Profiler: return "Profiler";
    case DispatchKey::TESTING_ONLY_GenericWrapper: return "TESTING_ONLY_GenericWrapper";
    case DispatchKey::TESTING_ONLY_GenericMode: return "TESTING_ONLY_GenericMode";
    case DispatchKey::CompositeExplicit: return "CompositeExplicit";
    case DispatchKey::CompositeImplicit: return "CompositeImplicit";
    case DispatchKey::Autograd: return "Autograd";
    case DispatchKey::EndOfAliasKeys: break;
  }
  return "UnknownDispatchKey";
}

std::optional<DispatchKey> parseDispatchKey(std::string_view name) {
  for (int i = 0; i < static_cast<int>(DispatchKey::EndOfAliasKeys); ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (toString(k) == name) return k;
  }
  if (name == "CompositeExplicitAutograd") return DispatchKey::CompositeExplicit;
  if (name == "CompositeImplicitAutograd") return DispatchKey::CompositeImplicit;
  return std::nullopt;
}

}  // namespace sy
