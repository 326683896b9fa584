#include "switchyard/core/device.h"

#include <array>
#include <atomic>
#include <mutex>
#include <optional>

#include "switchyard/core/error.h"

namespace sy {
namespace {

// The generic names, in DeviceType order.
constexpr std::array<std::string_view, 12> kTypeNames = {"cpu",  "accel", "privateuse1", "privateuse2",
                                                         "privateuse3", "cuda", "hip", "xla",
                                                         "mps",  "xpu",   "meta",        "lazy"};

// The names PrivateUse1..3's backends gave themselves. See Note [Device names]: each is written
// once, under the mutex, before its flag is set, and never again, so a reader that sees the flag
// reads a string nobody writes.
struct PrivateUseNames {
  std::mutex mutex;
  std::array<std::string, 3> names;
  std::array<std::atomic<bool>, 3> set{};
};
PrivateUseNames& privateUseNames() {
  static PrivateUseNames* names = new PrivateUseNames();  // never destroyed: static destructors may print devices
  return *names;
}
size_t privateUseSlot(DeviceType t) { return static_cast<size_t>(t) - static_cast<size_t>(DeviceType::PrivateUse1); }

// The name a device type has whatever its backend registered.
std::string_view genericName(DeviceType t) {
  const auto i = static_cast<size_t>(t);
  return i < kTypeNames.size() ? kTypeNames[i] : std::string_view("unknown");
}

bool isNameCharacter(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

// The device type named `name`, if any.
std::optional<DeviceType> typeNamed(std::string_view name) {
  for (size_t i = 0; i < kTypeNames.size(); ++i) {
    if (kTypeNames[i] == name) return static_cast<DeviceType>(i);
  }
  if (name == "privateuseone") return DeviceType::PrivateUse1;  // PyTorch's generic name
  for (DeviceType t : {DeviceType::PrivateUse1, DeviceType::PrivateUse2, DeviceType::PrivateUse3}) {
    if (isPrivateUseBackendNameRegistered(t) && toString(t) == name) return t;
  }
  return std::nullopt;
}

std::string knownNames() {
  std::string out;
  for (std::string_view name : kTypeNames) out += str(out.empty() ? "" : ", ", name);
  for (DeviceType t : {DeviceType::PrivateUse1, DeviceType::PrivateUse2, DeviceType::PrivateUse3}) {
    if (isPrivateUseBackendNameRegistered(t)) out += str(", ", toString(t));
  }
  return out;
}

}  // namespace

std::string_view toString(DeviceType t) {
  if (isPrivateUse(t) && isPrivateUseBackendNameRegistered(t)) return privateUseNames().names[privateUseSlot(t)];
  return genericName(t);
}

std::ostream& operator<<(std::ostream& os, DeviceType t) {
  const std::string_view name = toString(t);
  return os.write(name.data(), static_cast<std::streamsize>(name.size()));
}

void checkHasBackend(DeviceType t, std::string_view what) {
  SY_CHECK(hasBackend(t), what, ": Switchyard has no backend for device type '", toString(t),
           "'. Map your backend to one of the free keys PrivateUse1, PrivateUse2, PrivateUse3 "
           "(DeviceType::PrivateUse1, DispatchKey::PrivateUse1): CPU and Accel are the library's own backends, and "
           "ZeroTensor and Profiler hold its own fallbacks.");
}

bool isPrivateUseBackendNameRegistered(DeviceType type) {
  return isPrivateUse(type) && privateUseNames().set[privateUseSlot(type)].load(std::memory_order_acquire);
}

void registerPrivateUseBackendName(DeviceType type, std::string_view name) {
  SY_CHECK(isPrivateUse(type), "registerPrivateUseBackendName: ", genericName(type),
           " is not a private-use device type; only PrivateUse1, PrivateUse2 and PrivateUse3 take a backend's name");
  PrivateUseNames& names = privateUseNames();
  const size_t slot = privateUseSlot(type);
  std::lock_guard<std::mutex> lock(names.mutex);
  if (names.set[slot].load(std::memory_order_relaxed)) {
    SY_CHECK(names.names[slot] == name, "the backend on ", genericName(type),
             " is already named '", names.names[slot], "'; it cannot be renamed '", name, "'");
    return;
  }
  bool well_formed = !name.empty();
  for (char c : name) well_formed = well_formed && isNameCharacter(c);
  SY_CHECK(well_formed, "cannot name the backend on ", genericName(type), " '", name,
           "': a device name is lower-case letters and underscores, as device strings (\"", name, ":0\") are parsed");
  const std::optional<DeviceType> taken = typeNamed(name);
  SY_CHECK(!taken.has_value(), "cannot name the backend on ", genericName(type), " '", name,
           "': that name already means device type ", genericName(*taken));
  names.names[slot] = std::string(name);
  names.set[slot].store(true, std::memory_order_release);
}

std::string Device::str() const {
  if (index_ < 0) return std::string(toString(type_));
  return sy::str(toString(type_), ":", index_);
}

Device::Device(const std::string& text) {
  // The grammar of PyTorch's device strings: [a-zA-Z_]+ then optionally ':' and an index that is
  // 0 or has no leading zero.
  const size_t colon = text.find(':');
  const std::string_view name = std::string_view(text).substr(0, colon);
  bool well_formed = !name.empty();
  for (char c : name) well_formed = well_formed && (isNameCharacter(c) || (c >= 'A' && c <= 'Z'));
  // The generic names privateuse1..3 end in a digit; no other name has one.
  well_formed = well_formed || typeNamed(name).has_value();
  int64_t index = -1;
  if (colon != std::string::npos) {
    const std::string_view digits = std::string_view(text).substr(colon + 1);
    well_formed = well_formed && !digits.empty() && digits.size() <= 4 && (digits[0] != '0' || digits.size() == 1);
    index = 0;
    for (char c : digits) {
      well_formed = well_formed && c >= '0' && c <= '9';
      index = index * 10 + (c - '0');
    }
  }
  SY_CHECK(well_formed, "Invalid device string: '", text, "'");
  SY_CHECK(index <= INT8_MAX, "Device index ", index, " in '", text, "' is out of range: an index is at most ", INT8_MAX);
  const std::optional<DeviceType> type = typeNamed(name);
  SY_CHECK(type.has_value(), "Expected one of ", knownNames(), " device type at start of device string: ", name);
  type_ = *type;
  index_ = static_cast<DeviceIndex>(index);
}

}  // namespace sy
