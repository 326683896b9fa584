#include "switchyard/ivalue/device_guard.h"

#include <array>
#include <atomic>

#include "switchyard/core/error.h"

namespace sy {
namespace {

// Non-owning: implementations are leaked on purpose, so a guard in a static destructor still works.
std::array<std::atomic<const DeviceGuardImplInterface*>, kNumDeviceTypes>& guardImpls() {
  static std::array<std::atomic<const DeviceGuardImplInterface*>, kNumDeviceTypes> impls{};
  return impls;
}

[[noreturn]] void unsupported(DeviceType type, const char* what) {
  SY_ERROR("the device guard implementation of ", type, " does not support ", what);
}

}  // namespace

// See Note [Switchyard calls no guard for you]: the library's own device types have no index to switch.
SY_REGISTER_DEVICE_GUARD_IMPL(CPU, NoOpDeviceGuardImpl<DeviceType::CPU>);
SY_REGISTER_DEVICE_GUARD_IMPL(Accel, NoOpDeviceGuardImpl<DeviceType::Accel>);

std::ostream& operator<<(std::ostream& os, const Stream& s) {
  return os << "stream " << s.id() << " on device " << s.device();
}

Stream DeviceGuardImplInterface::getDefaultStream(Device) const { unsupported(type(), "default streams"); }
Stream DeviceGuardImplInterface::getStreamFromGlobalPool(Device, bool) const { unsupported(type(), "stream pools"); }
void DeviceGuardImplInterface::record(void**, const Stream&, const DeviceIndex, const EventFlag) const {
  unsupported(type(), "events");
}
void DeviceGuardImplInterface::block(void*, const Stream&) const { unsupported(type(), "events"); }
bool DeviceGuardImplInterface::queryEvent(void*) const { unsupported(type(), "events"); }
bool DeviceGuardImplInterface::queryStream(const Stream&) const { unsupported(type(), "querying streams"); }
void DeviceGuardImplInterface::synchronizeStream(const Stream&) const { unsupported(type(), "synchronizing streams"); }

const DeviceGuardImplInterface* getDeviceGuardImpl(DeviceType type) {
  checkHasBackend(type, "DeviceGuard");
  const DeviceGuardImplInterface* impl = guardImpls()[static_cast<size_t>(type)].load(std::memory_order_acquire);
  SY_CHECK(impl != nullptr, "no device guard implementation is registered for device type '", type,
           "'; its backend registers one, C10_REGISTER_GUARD_IMPL(PrivateUse",
           static_cast<int>(type) - static_cast<int>(DeviceType::PrivateUse1) + 1,
           ", MyGuardImpl) (SY_REGISTER_DEVICE_GUARD_IMPL), before DeviceGuard is used on its devices");
  return impl;
}

bool hasDeviceGuardImpl(DeviceType type) {
  return hasBackend(type) && guardImpls()[static_cast<size_t>(type)].load(std::memory_order_acquire) != nullptr;
}

void setDeviceGuardImpl(DeviceType type, const DeviceGuardImplInterface* impl) {
  checkHasBackend(type, "registering a device guard implementation");
  SY_CHECK(impl != nullptr && impl->type() == type, "the device guard implementation registered for ", type,
           impl == nullptr ? " is null" : sy::str(" says it is for ", impl->type()));
  guardImpls()[static_cast<size_t>(type)].store(impl, std::memory_order_release);
}

DeviceGuard::DeviceGuard(Device device, const DeviceGuardImplInterface* impl)
    : impl_(impl),
      original_device_(device.has_index() ? impl->exchangeDevice(device) : impl->getDevice()),
      current_device_(device.has_index() ? device : original_device_) {}

void DeviceGuard::set_device(Device device) {
  SY_CHECK(device.type() == original_device_.type(), "DeviceGuard::set_device: the guard is for ", original_device_.type(),
           " devices, not ", device, "; use reset_device to change the type");
  if (!device.has_index()) return;
  impl_->setDevice(device);
  current_device_ = device;
}

void DeviceGuard::reset_device(Device device) {
  if (device.type() == original_device_.type()) return set_device(device);
  const DeviceGuardImplInterface* impl = getDeviceGuardImpl(device.type());
  impl_->uncheckedSetDevice(original_device_);
  impl_ = impl;
  original_device_ = device.has_index() ? impl_->exchangeDevice(device) : impl_->getDevice();
  current_device_ = device.has_index() ? device : original_device_;
}

}  // namespace sy
