// The loader's refusal of methods placed on other devices: See Note [Programs placed on other
// devices are refused].
#include "absl/strings/str_join.h"
#include "switchyard/core/error.h"
#include "switchyard/program/method_state.h"

namespace sy {
namespace program_internal {

// Note [Programs placed on other devices are refused]
// ExecuTorch's newer exporters can place a tensor on another device (ExtraTensorInfo.device_type,
// CUDA) and a planned buffer too (ExecutionPlan.non_const_buffer_device). Switchyard runs
// programs on the CPU; a program that asks for another device expects its kernels or delegate to
// find the data there, so running it on the CPU could only give wrong results or read memory that
// is not what it claims. Such a method fails to load with one error naming every tensor and
// buffer placed elsewhere and the device; CPU entries (any index) change nothing and load. The
// program itself still loads, so `switchyard inspect` shows where each value was placed.
absl::Status refuseOtherDevices(const pte::ExecutionPlan& plan, const std::string& where) {
  std::vector<std::string> placed;
  auto deviceName = [](pte::DeviceType type, int8_t index) {
    const char* name = pte::EnumNameDeviceType(type);
    return name[0] == '\0' ? sy::str("device type ", static_cast<int>(type), " (which the format does not define)")
                            : sy::str(name, ":", static_cast<int>(index));
  };
  const auto* values = plan.values();
  for (uint32_t i = 0; values != nullptr && i < values->size(); ++i) {
    const pte::Tensor* t = values->Get(i)->val_as_Tensor();
    const pte::ExtraTensorInfo* extra = t == nullptr ? nullptr : t->extra_tensor_info();
    if (extra == nullptr || extra->device_type() == pte::DeviceType::CPU) continue;
    placed.push_back(sy::str("value ", i, " on ", deviceName(extra->device_type(), extra->device_index())));
  }
  if (const auto* devices = plan.non_const_buffer_device()) {
    for (const pte::NonConstBufferDevice* d : *devices) {
      if (d->device_type() == pte::DeviceType::CPU) continue;
      placed.push_back(sy::str("planned buffer ", d->buffer_idx(), " on ", deviceName(d->device_type(), d->device_index())));
    }
  }
  if (placed.empty()) return absl::OkStatus();
  return absl::UnimplementedError(sy::str(where, " places ", absl::StrJoin(placed, ", "),
                                          "; Switchyard runs programs on the CPU only and does not move them there "
                                          "(re-export the program for the CPU)"));
}

}  // namespace program_internal
}  // namespace sy
