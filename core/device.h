// Device: where a tensor's storage lives (a device type and an index), two bytes.
//
//   sy::Device d(sy::DeviceType::PrivateUse1, 0);
//   d.type();                         // DeviceType::PrivateUse1
//   d.str();                          // "privateuse1:0", or "npu:0" once the backend named itself
//   sy::Device parsed("npu:1");       // parses the names below
//
// Note [Device names]
// A device type prints and parses as its lower-case name: cpu, accel, cuda, ... A backend on
// PrivateUse1..3 may register a name of its own (registerPrivateUseBackendName, or PyTorch's
// c10::register_privateuse1_backend("npu") for PrivateUse1), after which its devices print as
// "npu:0" and the parser accepts "npu" as well as the generic names privateuse1..3 (and PyTorch's
// "privateuseone" for PrivateUse1). A name is registered once per process: registering the same
// name again is harmless, another name is an error naming the first, as in PyTorch. A name must
// be lower-case letters and underscores (what the parser reads) and not a name already taken.
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
constexpr bool isPrivateUse(DeviceType t) { return t >= DeviceType::PrivateUse1 && t <= DeviceType::PrivateUse3; }

// The device type's name (see Note [Device names]); the view stays valid and null-terminated for
// the life of the process.
std::string_view toString(DeviceType t);
std::ostream& operator<<(std::ostream& os, DeviceType t);
// Raises, naming `what` and the free keys, when `t` has no backend (CUDA, Meta, ...).
void checkHasBackend(DeviceType t, std::string_view what);

// Names the backend on a PrivateUse device type (see Note [Device names]).
void registerPrivateUseBackendName(DeviceType type, std::string_view name);
bool isPrivateUseBackendNameRegistered(DeviceType type);

// A device index: -1 means the current device of the type.
using DeviceIndex = int8_t;

class Device {
 public:
  constexpr Device() = default;
  constexpr Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}  // NOLINT: implicit like PyTorch
  // Parses "cpu", "npu:0", "privateuse1:1", ...: a device type's name, then optionally ':' and an
  // index without leading zeros. Raises sy::Error on anything else, as PyTorch's Device(string) does.
  Device(const std::string& text);  // NOLINT: implicit like PyTorch

  constexpr DeviceType type() const noexcept { return type_; }
  constexpr DeviceIndex index() const noexcept { return index_; }
  constexpr bool has_index() const noexcept { return index_ != -1; }
  void set_index(DeviceIndex index) { index_ = index; }

  constexpr bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  constexpr bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  constexpr bool is_meta() const noexcept { return type_ == DeviceType::Meta; }
  constexpr bool is_privateuseone() const noexcept { return type_ == DeviceType::PrivateUse1; }

  friend constexpr bool operator==(Device a, Device b) { return a.type_ == b.type_ && a.index_ == b.index_; }
  friend constexpr bool operator!=(Device a, Device b) { return !(a == b); }
  // "cpu", "npu:0".
  std::string str() const;

 private:
  DeviceType type_ = DeviceType::CPU;
  DeviceIndex index_ = -1;
};

inline constexpr Device kCPU{DeviceType::CPU};
inline constexpr Device kAccel{DeviceType::Accel};

inline std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }

}  // namespace sy
