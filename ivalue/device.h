// Device: where a tensor's storage lives (a device type and an index), two bytes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace sy {

enum class DeviceType : int8_t {
  CPU = 0,
  Accel = 1,  // the XLA-like subset backend, with memory of its own
  PrivateUse1 = 2,
  PrivateUse2 = 3,
  PrivateUse3 = 4,
};
inline constexpr int kNumDeviceTypes = 5;

std::string_view toString(DeviceType t);

struct Device {
  DeviceType type = DeviceType::CPU;
  int8_t index = -1;  // -1: the current/default device of that type

  constexpr Device() = default;
  constexpr Device(DeviceType t, int8_t i = -1) : type(t), index(i) {}  // NOLINT: implicit like PyTorch

  constexpr bool is_cpu() const { return type == DeviceType::CPU; }
  friend constexpr bool operator==(Device a, Device b) { return a.type == b.type && a.index == b.index; }
  friend constexpr bool operator!=(Device a, Device b) { return !(a == b); }
  std::string str() const;
};

inline constexpr Device kCPU{DeviceType::CPU};
inline constexpr Device kAccel{DeviceType::Accel};

inline std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }

}  // namespace sy
