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

  // PyTorch's other device types, so that code naming them compiles. Switchyard has no backend for
  // them: allocating on one, or registering a kernel for one, raises an error that says to map
  // the backend to PrivateUse1..3 (the keys no part of the library uses).
  CUDA,
  HIP,
  XLA,
  MPS,
  XPU,
  Meta,
  Lazy,
};
// The device types with a backend: CPU, Accel and PrivateUse1..3.
inline constexpr int kNumDeviceTypes = 5;
constexpr bool hasBackend(DeviceType t) { return static_cast<int>(t) >= 0 && static_cast<int>(t) < kNumDeviceTypes; }

std::string_view toString(DeviceType t);
// Raises, naming `what` and the free keys, when `t` has no backend (CUDA, Meta, ...).
void checkHasBackend(DeviceType t, std::string_view what);

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
