// DeviceGuard: makes a device the thread's current one for a scope, through the guard
// implementation its backend registered, as c10::DeviceGuard does.
//
//   struct MyGuardImpl final : sy::DeviceGuardImplInterface { ... };       // the backend's
//   SY_REGISTER_DEVICE_GUARD_IMPL(PrivateUse1, MyGuardImpl);               // C10_REGISTER_GUARD_IMPL
//   {
//     sy::DeviceGuard guard(sy::Device(sy::DeviceType::PrivateUse1, 1));   // device 1 is current...
//   }                                                                       // ...until here
//
// Note [Switchyard calls no guard for you]
// PyTorch's generated kernel wrappers install a DeviceGuard for the first tensor argument's device
// around every kernel of an operator marked device_guard: True. Switchyard's dispatcher does not
// (a call pays for nothing it did not ask for): a backend with several devices makes the right one
// current in its kernels, with a DeviceGuard of its own. The CPU and Accel have a no-op guard
// implementation registered (their devices have no index to switch), so a DeviceGuard on any of
// their devices is valid; a PrivateUse backend registers one before using DeviceGuard on its devices.
// Streams and events exist in the interface so that a backend's implementation of it compiles as
// written; Switchyard itself never calls them.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include "switchyard/core/device.h"
#include "switchyard/ivalue/storage.h"

namespace sy {

using StreamId = int64_t;

// A device's stream (a queue of work), as c10::Stream: the device and an id the backend gives it.
class Stream {
 public:
  enum Unsafe { UNSAFE };
  enum Default { DEFAULT };
  Stream(Unsafe, Device device, StreamId id) : device_(device), id_(id) {}
  Stream(Default, Device device) : device_(device), id_(0) {}

  Device device() const noexcept { return device_; }
  DeviceType device_type() const noexcept { return device_.type(); }
  DeviceIndex device_index() const noexcept { return device_.index(); }
  StreamId id() const noexcept { return id_; }
  friend bool operator==(const Stream& a, const Stream& b) { return a.device_ == b.device_ && a.id_ == b.id_; }
  friend bool operator!=(const Stream& a, const Stream& b) { return !(a == b); }

 private:
  Device device_;
  StreamId id_;
};
std::ostream& operator<<(std::ostream& os, const Stream& s);

// How an event is created (c10::EventFlag).
enum class EventFlag { PYTORCH_DEFAULT, PYTORCH_DISABLE_TIMING, BACKEND_DEFAULT, BACKEND_DISABLE_TIMING, INVALID };

// What a backend implements so DeviceGuard can switch its devices: c10::impl::DeviceGuardImplInterface,
// with the same virtual functions. Stream and event functions have defaults that raise, as in PyTorch.
struct DeviceGuardImplInterface {
  virtual ~DeviceGuardImplInterface() = default;
  virtual DeviceType type() const = 0;
  // Makes `device` current and returns the device that was.
  virtual Device exchangeDevice(Device device) const = 0;
  virtual Device getDevice() const = 0;
  virtual void setDevice(Device device) const = 0;
  // setDevice without checks, for destructors.
  virtual void uncheckedSetDevice(Device device) const noexcept = 0;
  virtual Stream getStream(Device device) const noexcept = 0;
  virtual Stream getDefaultStream(Device device) const;
  virtual Stream getStreamFromGlobalPool(Device device, bool isHighPriority = false) const;
  virtual Stream exchangeStream(Stream stream) const noexcept = 0;
  virtual void destroyEvent(void* /*event*/, const DeviceIndex /*device_index*/) const noexcept {}
  virtual void record(void** event, const Stream& stream, const DeviceIndex device_index, const EventFlag flag) const;
  virtual void block(void* event, const Stream& stream) const;
  virtual bool queryEvent(void* event) const;
  // The number of devices; must not raise (report 0 when the driver fails).
  virtual DeviceIndex deviceCount() const noexcept = 0;
  virtual bool queryStream(const Stream& stream) const;
  virtual void synchronizeStream(const Stream& stream) const;
  virtual void synchronizeDevice(const DeviceIndex /*device_index*/) const {}
  virtual void recordDataPtrOnStream(const DataPtr& /*data*/, const Stream& /*stream*/) const {}
};

// The implementation for a device type with one device and nothing to switch (the CPU's).
template <DeviceType D>
struct NoOpDeviceGuardImpl final : public DeviceGuardImplInterface {
  DeviceType type() const override { return D; }
  Device exchangeDevice(Device) const override { return Device(D, -1); }
  Device getDevice() const override { return Device(D, -1); }
  void setDevice(Device) const override {}
  void uncheckedSetDevice(Device) const noexcept override {}
  Stream getStream(Device) const noexcept override { return Stream(Stream::DEFAULT, Device(D, -1)); }
  Stream exchangeStream(Stream) const noexcept override { return Stream(Stream::DEFAULT, Device(D, -1)); }
  DeviceIndex deviceCount() const noexcept override { return 1; }
  bool queryStream(const Stream&) const override { return true; }
  void synchronizeStream(const Stream&) const override {}
};

// The registered implementation for `type`; raises naming the type when its backend registered none.
const DeviceGuardImplInterface* getDeviceGuardImpl(DeviceType type);
bool hasDeviceGuardImpl(DeviceType type);
// Registers `impl` for `type` (not owned: it must live as long as the process), replacing any before.
void setDeviceGuardImpl(DeviceType type, const DeviceGuardImplInterface* impl);

// Registers an implementation at static initialisation (SY_REGISTER_DEVICE_GUARD_IMPL).
struct DeviceGuardImplRegistrar {
  DeviceGuardImplRegistrar(DeviceType type, const DeviceGuardImplInterface* impl) { setDeviceGuardImpl(type, impl); }
};

// Makes `device` current for the guard's lifetime and restores the device that was current. A
// device without an index (npu rather than npu:1) leaves the current device as it is.
class DeviceGuard {
 public:
  explicit DeviceGuard(Device device) : DeviceGuard(device, getDeviceGuardImpl(device.type())) {}
  // With an implementation of one's own (tests).
  DeviceGuard(Device device, const DeviceGuardImplInterface* impl);
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  ~DeviceGuard() { impl_->uncheckedSetDevice(original_device_); }

  // Another device of the same type.
  void set_device(Device device);
  // Any device: restores the original first when the type changes.
  void reset_device(Device device);
  void set_index(DeviceIndex index) { set_device(Device(original_device_.type(), index)); }
  Device original_device() const { return original_device_; }
  Device current_device() const { return current_device_; }

 private:
  const DeviceGuardImplInterface* impl_;
  Device original_device_;
  Device current_device_;
};

// A DeviceGuard that may hold no device (c10::OptionalDeviceGuard).
class OptionalDeviceGuard {
 public:
  OptionalDeviceGuard() = default;
  explicit OptionalDeviceGuard(std::optional<Device> device) {
    if (device) guard_.emplace(*device);
  }
  OptionalDeviceGuard(const OptionalDeviceGuard&) = delete;
  OptionalDeviceGuard& operator=(const OptionalDeviceGuard&) = delete;

  void reset_device(Device device) {
    if (guard_) {
      guard_->reset_device(device);
    } else {
      guard_.emplace(device);
    }
  }
  void reset() { guard_.reset(); }
  std::optional<Device> original_device() const { return guard_ ? std::optional<Device>(guard_->original_device()) : std::nullopt; }
  std::optional<Device> current_device() const { return guard_ ? std::optional<Device>(guard_->current_device()) : std::nullopt; }

 private:
  std::optional<DeviceGuard> guard_;
};

}  // namespace sy

#define SY_DEVICE_GUARD_CONCAT_IMPL(a, b) a##b
#define SY_DEVICE_GUARD_CONCAT(a, b) SY_DEVICE_GUARD_CONCAT_IMPL(a, b)
// Registers `Impl` (default-constructed, never destroyed) as the guard implementation of DeviceType::type.
#define SY_REGISTER_DEVICE_GUARD_IMPL(type, Impl)                                                         \
  static const ::sy::DeviceGuardImplRegistrar SY_DEVICE_GUARD_CONCAT(sy_device_guard_registrar_, __COUNTER__)( \
      ::sy::DeviceType::type, new Impl())
