#include "switchyard/core/device.h"

#include "switchyard/core/error.h"

namespace sy {

std::string_view toString(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::Accel: return "accel";
    case DeviceType::PrivateUse1: return "privateuse1";
    case DeviceType::PrivateUse2: return "privateuse2";
    case DeviceType::PrivateUse3: return "privateuse3";
    case DeviceType::CUDA: return "cuda";
    case DeviceType::HIP: return "hip";
    case DeviceType::XLA: return "xla";
    case DeviceType::MPS: return "mps";
    case DeviceType::XPU: return "xpu";
    case DeviceType::Meta: return "meta";
    case DeviceType::Lazy: return "lazy";
  }
  return "unknown";
}

void checkHasBackend(DeviceType t, std::string_view what) {
  SY_CHECK(hasBackend(t), what, ": Switchyard has no backend for device type '", toString(t),
           "'. Map your backend to one of the free keys PrivateUse1, PrivateUse2, PrivateUse3 "
           "(DeviceType::PrivateUse1, DispatchKey::PrivateUse1): CPU and Accel are the library's own backends, and "
           "ZeroTensor and Profiler hold its own fallbacks.");
}

std::string Device::str() const {
  if (index < 0) return std::string(toString(type));
  return sy::str(toString(type), ":", index);
}

}  // namespace sy
