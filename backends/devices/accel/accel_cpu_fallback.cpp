#include "switchyard/backends/devices/accel/accel_cpu_fallback.h"

#include <optional>
#include <utility>
#include <vector>

#include "switchyard/backends/devices/accel/accel_tensor.h"
#include "switchyard/dispatcher/library.h"
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

// One CPU copy per Accel TensorImpl, so `x.add_(x)` sees one tensor and the written-back copy is
// the one the kernel wrote.
class CpuCopies {
 public:
  const Tensor& of(const Tensor& accel) {
    for (const auto& [impl, copy] : copies_) {
      if (impl == accel.unsafeGetTensorImpl()) return copy;
    }
    copies_.emplace_back(accel.unsafeGetTensorImpl(), toCpu(accel));
    return copies_.back().second;
  }
  Tensor convert(const Tensor& t) { return isAccel(t) ? of(t) : t; }

 private:
  std::vector<std::pair<const TensorImpl*, Tensor>> copies_;
};

// Replaces Accel tensors in `v` by their CPU copies; lists are rebuilt, never edited, since the
// caller may share them.
IValue toCpuArgument(IValue v, CpuCopies& copies) {
  if (v.isTensor() && !isAccel(v.toTensor())) return v;
  return mapTensors(std::move(v), [&](const Tensor& t) { return copies.convert(t); });
}

// Moves the CPU tensors of a fresh result to `device`.
IValue resultTo(IValue v, Device device) {
  if (device.type != DeviceType::Accel) return v;
  return mapTensors(std::move(v), [](const Tensor& t) { return t.defined() && t.is_cpu() ? toAccel(t) : t; });
}

// Writes the CPU kernel's version of a written argument back into the caller's Accel tensors.
void writeBack(const IValue& original, const IValue& cpu_version) {
  if (original.isTensor()) {
    if (isAccel(original.toTensor())) copyInto(original.toTensor(), cpu_version.toTensor());
  } else if (original.isTensorList()) {
    const std::vector<Tensor>& dst = original.toTensorVector();
    const std::vector<Tensor>& src = cpu_version.toTensorVector();
    for (size_t i = 0; i < dst.size(); ++i) {
      if (isAccel(dst[i])) copyInto(dst[i], src[i]);
    }
  }
}

}  // namespace

void accelCpuFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const std::string name = op.operator_name().toString();
  refuseViewOperator(schema, name);

  const size_t n = schema.arguments().size();
  SY_CHECK(stack->size() >= n, name, ": the Accel fallback expected ", n, " arguments on the stack but found ",
           stack->size());
  IValue* args = stack->data() + (stack->size() - n);
  checkDevices(schema, name, args, n);
  detail::recordFallback(name);

  // The caller's arguments, kept to write back into and to return for out/in-place results.
  std::vector<IValue> originals(args, args + n);
  std::vector<IValue> cpu_args;
  cpu_args.reserve(n);
  CpuCopies copies;
  Device result_device = kAccel;
  bool device_given = false;
  for (size_t i = 0; i < n; ++i) {
    if (args[i].isDevice()) {
      // Factory operators: build on the CPU, move the result to the device they asked for.
      if (!device_given) result_device = args[i].toDevice();
      device_given = true;
      if (args[i].toDevice().type == DeviceType::Accel) args[i] = IValue(kCPU);
    } else {
      args[i] = toCpuArgument(std::move(args[i]), copies);
    }
    cpu_args.push_back(args[i]);
  }

  op.redispatchBoxed(ks.remove(DispatchKey::Accel).add(DispatchKey::CPU), stack);

  // Only now, after the CPU kernel succeeded, do the caller's tensors change.
  for (size_t i = 0; i < n; ++i) {
    if (schema.arguments()[i].is_write()) writeBack(originals[i], cpu_args[i]);
  }
  const size_t m = schema.returns().size();
  IValue* results = stack->data() + (stack->size() - m);
  for (size_t r = 0; r < m; ++r) {
    const int aliased = schema.aliasedArgumentOfReturn(r);
    results[r] = aliased >= 0 ? originals[static_cast<size_t>(aliased)] : resultTo(std::move(results[r]), result_device);
  }
}

}  // namespace sy::accel

SY_LIBRARY_IMPL(_, Accel, m) { m.fallback(sy::CppFunction::makeFromBoxedFunction<&sy::accel::accelCpuFallback>()); }
