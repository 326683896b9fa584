#include "switchyard/backends/devices/accel/accel_cpu_fallback.h"

#include <optional>
#include <utility>
#include <vector>

#include "switchyard/backends/devices/accel/accel_tensor.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/fallback/cpu_fallback.h"
#include "switchyard/ivalue/ivalue_tensors.h"

namespace sy::accel {
namespace {

void refuseViewOperator(const FunctionSchema& schema, const std::string& name) {
  for (const Argument& ret : schema.returns()) {
    if (ret.alias_info.has_value() && !ret.alias_info->is_write) {
      SY_ERROR(name, " is a view operator and cannot run through the Accel CPU fallback; its result would "
               "be a view of a temporary CPU copy instead of the Accel tensor. Register a native Accel kernel "
               "for ", name, " (SY_LIBRARY_IMPL(aten, Accel, m)), or copy the tensor to the CPU with .to(sy::kCPU) "
               "first");
    }
  }
}

// Mixed devices are an error only when some tensor is on Accel: a call that reached Accel through
// a `device=` argument alone (zeros_like(cpu_x, device=accel)) legitimately takes CPU tensors. A
// 0-dim CPU tensor may accompany Accel tensors as an input, never as a written argument (an out=
// or in-place self), as in accel::checkSameDevice.
void checkDevices(const FunctionSchema& schema, const std::string& name, const IValue* args, size_t n) {
  bool any_accel = false;
  std::optional<Device> other;
  for (size_t i = 0; i < n; ++i) {
    const bool written = schema.arguments()[i].is_write();
    forEachTensor(args[i], [&](const Tensor& t) {
      if (isAccel(t)) any_accel = true;
      if (t.defined() && !isAccel(t) && (written || !isCpuScalar(t)) && !other) other = t.device();
    });
  }
  if (any_accel && other) throwMixedDevices(name, *other);
}

// Accel's own transfers (accel_tensor.h), which map buffers rather than dispatch.
class AccelTransfers final : public CpuFallbackTransfers {
 public:
  bool onDevice(const Tensor& t) const override { return isAccel(t); }
  bool isDevice(Device device) const override { return device.type() == DeviceType::Accel; }
  Tensor toCpu(const Tensor& t) const override { return accel::toCpu(t); }
  Tensor toDevice(const Tensor& cpu, Device) const override { return toAccel(cpu); }
  void writeBack(const Tensor& original, const Tensor& cpu_version) const override { copyInto(original, cpu_version); }
  Device resultDevice(const IValue*, size_t) const override { return kAccel; }
};

}  // namespace

void accelCpuFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const std::string name = op.operator_name().toString();
  refuseViewOperator(schema, name);

  const size_t n = schema.arguments().size();
  SY_CHECK(stack->size() >= n, name, ": the Accel fallback expected ", n, " arguments on the stack but found ",
           stack->size());
  checkDevices(schema, name, stack->data() + (stack->size() - n), n);
  detail::recordFallback(name);

  static const AccelTransfers transfers;
  runOnCpu(op, stack, ks.remove(DispatchKey::Accel).add(DispatchKey::CPU), transfers);
}

}  // namespace sy::accel

SY_LIBRARY_IMPL(_, Accel, m) { m.fallback(sy::CppFunction::makeFromBoxedFunction<&sy::accel::accelCpuFallback>()); }
