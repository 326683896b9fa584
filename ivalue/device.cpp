#include "switchyard/ivalue/device.h"

#include "switchyard/ivalue/error.h"

namespace sy {

std::string_view toString(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::Accel: return "accel";
    case DeviceType::PrivateUse1: return "privateuse1";
    case DeviceType::PrivateUse2: return "privateuse2";
    case DeviceType::PrivateUse3: return "privateuse3";
  }
  return "unknown";
}

std::string Device::str() const {
  if (index < 0) return std::string(toString(type));
  return sy::str(toString(type), ":", index);
}

}  // namespace sy
