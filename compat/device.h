// A device backend's kit in PyTorch's names: the allocator, the device's name, DeviceGuard and its
// implementation interface, at::native::cpu_fallback and at::detail::empty_generic, for the backend
// of PrivateUse1 written as PyTorch's out-of-tree backends are:
//
//   struct MyAllocator final : c10::Allocator { c10::DataPtr allocate(size_t n) override; ... };
//   static MyAllocator my_allocator;
//   REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &my_allocator);
//   C10_REGISTER_GUARD_IMPL(PrivateUse1, c10::impl::NoOpDeviceGuardImpl<c10::DeviceType::PrivateUse1>);
//   void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) { at::native::cpu_fallback(op, stack); }
//   TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>()); }
//   ... c10::register_privateuse1_backend("npu");   // its tensors print as npu:0, c10::Device("npu:0") parses
//
// Included by <switchyard/compat/torch.h>; the names are aliases of Switchyard's (ivalue/storage.h,
// ivalue/device.h, ivalue/device_guard.h, fallback/cpu_fallback.h, ivalue/tensor_factories.h).
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include "switchyard/fallback/cpu_fallback.h"
#include "switchyard/switchyard.h"

namespace c10 {
using sy::Allocator;
using sy::DataPtr;
using sy::DeleterFnPtr;
using sy::DeviceGuard;
using sy::DeviceIndex;
using sy::EventFlag;
using sy::OptionalDeviceGuard;
using sy::Stream;
using sy::StreamId;

// ---- Allocators (c10/core/Allocator.h, c10/core/impl/alloc_cpu.h) -------------------------------
inline void SetAllocator(sy::DeviceType type, Allocator* allocator, uint8_t priority = 0) {
  sy::setAllocator(type, allocator, priority);
}
inline Allocator* GetAllocator(const sy::DeviceType& type) { return sy::getAllocator(type); }
inline Allocator* GetCPUAllocator() { return sy::cpuAllocator(); }
// What REGISTER_ALLOCATOR makes: registers the allocator at static initialisation.
template <sy::DeviceType type>
struct AllocatorRegisterer {
  explicit AllocatorRegisterer(Allocator* allocator) { SetAllocator(type, allocator); }
};
inline void* alloc_cpu(size_t nbytes) { return sy::cpuAlloc(nbytes); }
inline void free_cpu(void* data) { sy::cpuFree(data); }

// ---- The device's name (c10/core/DeviceType.h; See Note [Device names]) -------------------------
inline void register_privateuse1_backend(const std::string& backend_name) {
  sy::registerPrivateUseBackendName(sy::DeviceType::PrivateUse1, backend_name);
}
inline bool is_privateuse1_backend_registered() {
  return sy::isPrivateUseBackendNameRegistered(sy::DeviceType::PrivateUse1);
}
// The registered name, or PyTorch's generic "privateuseone".
inline std::string get_privateuse1_backend(bool lower_case = true) {
  std::string name = is_privateuse1_backend_registered() ? std::string(sy::toString(sy::DeviceType::PrivateUse1))
                                                         : std::string("privateuseone");
  for (char& c : name) c = static_cast<char>(lower_case ? std::tolower(c) : std::toupper(c));
  return name;
}
inline std::string DeviceTypeName(sy::DeviceType type, bool lower_case = false) {
  if (type == sy::DeviceType::PrivateUse1) return get_privateuse1_backend(lower_case);
  std::string name(sy::toString(type));
  for (char& c : name) c = static_cast<char>(lower_case ? c : std::toupper(c));
  return name;
}

inline sy::ScalarType dtype_or_default(std::optional<sy::ScalarType> dtype) {
  return dtype.value_or(sy::ScalarType::Float);
}

// ---- Device guards (c10/core/DeviceGuard.h, c10/core/impl/DeviceGuardImplInterface.h) -----------
namespace impl {
using sy::DeviceGuardImplInterface;
using sy::DeviceGuardImplRegistrar;
using sy::NoOpDeviceGuardImpl;
inline const DeviceGuardImplInterface* getDeviceGuardImpl(sy::DeviceType type) { return sy::getDeviceGuardImpl(type); }
inline bool hasDeviceGuardImpl(sy::DeviceType type) { return sy::hasDeviceGuardImpl(type); }
}  // namespace impl
}  // namespace c10

namespace at {
using c10::Allocator;
using c10::DataPtr;
using c10::DeleterFnPtr;
using c10::DeviceGuard;
using c10::OptionalDeviceGuard;

namespace native {
// at::native::cpu_fallback (ATen/native/CPUFallback.h); See Note [What the CPU fallback does].
inline void cpu_fallback(const sy::OperatorHandle& op, sy::Stack* stack, bool error_on_views = false,
                         sy::DispatchKey cpu_dispatch_key = sy::DispatchKey::CPU) {
  sy::cpuFallback(op, stack, error_on_views, cpu_dispatch_key);
}
}  // namespace native

namespace detail {
// ATen/EmptyTensor.h: what a backend's empty.memory_format and empty_strided kernels return.
inline sy::Tensor empty_generic(sy::IntArrayRef size, Allocator* allocator, sy::DispatchKeySet ks,
                                sy::ScalarType scalar_type, std::optional<sy::MemoryFormat> memory_format_opt) {
  return sy::emptyGeneric(size, allocator, ks, scalar_type, memory_format_opt);
}
inline sy::Tensor empty_strided_generic(sy::IntArrayRef size, sy::IntArrayRef stride, Allocator* allocator,
                                        sy::DispatchKeySet ks, sy::ScalarType scalar_type) {
  return sy::emptyStridedGeneric(size, stride, allocator, ks, scalar_type);
}
}  // namespace detail
}  // namespace at

#define SY_COMPAT_CONCAT_IMPL(a, b) a##b
#define SY_COMPAT_CONCAT(a, b) SY_COMPAT_CONCAT_IMPL(a, b)
// Registers an allocator for a device type at static initialisation.
#define REGISTER_ALLOCATOR(t, f)                                                              \
  namespace {                                                                                 \
  static ::c10::AllocatorRegisterer<t> SY_COMPAT_CONCAT(sy_compat_allocator_, __COUNTER__)(f); \
  }
// Registers a device guard implementation (a default-constructed DeviceGuardImpl, never destroyed).
#define C10_REGISTER_GUARD_IMPL(DevType, DeviceGuardImpl) SY_REGISTER_DEVICE_GUARD_IMPL(DevType, DeviceGuardImpl)
