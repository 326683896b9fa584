#include "switchyard/fallback/cpu_fallback.h"

#include <optional>
#include <utility>
#include <vector>

#include "switchyard/ivalue/ivalue_tensors.h"
#include "switchyard/ivalue/warning.h"
#include "switchyard/ops/shape_ops.h"

namespace sy {
namespace {

// One CPU copy per device TensorImpl, so `x.add_(x)` sees one tensor and the written-back copy is
// the one the kernel wrote.
class CpuCopies {
 public:
  explicit CpuCopies(const CpuFallbackTransfers& transfers) : transfers_(transfers) {}
  Tensor convert(const Tensor& t) {
    if (!t.defined() || !transfers_.onDevice(t)) return t;
    for (const auto& [impl, copy] : copies_) {
      if (impl == t.unsafeGetTensorImpl()) return copy;
    }
    copies_.emplace_back(t.unsafeGetTensorImpl(), transfers_.toCpu(t));
    return copies_.back().second;
  }

 private:
  const CpuFallbackTransfers& transfers_;
  std::vector<std::pair<const TensorImpl*, Tensor>> copies_;
};

// Writes the CPU kernel's version of a written argument back into the caller's device tensors.
void writeBack(const IValue& original, const IValue& cpu_version, const CpuFallbackTransfers& transfers) {
  if (original.isTensor()) {
    const Tensor& dst = original.toTensor();
    if (dst.defined() && transfers.onDevice(dst)) transfers.writeBack(dst, cpu_version.toTensor());
  } else if (original.isTensorList()) {
    const std::vector<Tensor>& dst = original.toTensorVector();
    const std::vector<Tensor>& src = cpu_version.toTensorVector();
    for (size_t i = 0; i < dst.size(); ++i) {
      if (dst[i].defined() && transfers.onDevice(dst[i])) transfers.writeBack(dst[i], src[i]);
    }
  }
}

// The first view return (`Tensor(a) -> Tensor(a)`, aliasing without writing), if any.
bool isViewOperator(const FunctionSchema& schema) {
  for (const Argument& ret : schema.returns()) {
    if (ret.alias_info.has_value() && !ret.alias_info->is_write) return true;
  }
  return false;
}

// cpuFallback's transfers: operator calls, so the device's own kernels move the bytes.
class DispatchedTransfers final : public CpuFallbackTransfers {
 public:
  bool onDevice(const Tensor& t) const override { return !t.is_cpu(); }
  bool isDevice(Device device) const override { return !device.is_cpu(); }
  Tensor toCpu(const Tensor& t) const override { return t.to(kCPU); }
  Tensor toDevice(const Tensor& cpu, Device device) const override { return cpu.to(device); }
  void writeBack(const Tensor& original, const Tensor& cpu_version) const override {
    if (!sameSizes(original.sizes(), cpu_version.sizes())) original.resize_(cpu_version.sizes());
    Tensor dst = original;
    ops::copy_(dst, cpu_version);
  }
  // PyTorch's rule: the first tensor argument's device, else the first element of a tensor list's.
  Device resultDevice(const IValue* arguments, size_t count) const override {
    for (size_t i = 0; i < count; ++i) {
      if (arguments[i].isTensor() && arguments[i].toTensor().defined()) return arguments[i].toTensor().device();
    }
    std::optional<Device> from_list;
    for (size_t i = 0; i < count && !from_list; ++i) {
      if (arguments[i].isTensor()) continue;
      forEachTensor(arguments[i], [&](const Tensor& t) {
        if (!from_list && t.defined()) from_list = t.device();
      });
    }
    return from_list.value_or(kCPU);
  }
};

}  // namespace

void runOnCpu(const OperatorHandle& op, Stack* stack, DispatchKeySet cpu_keys, const CpuFallbackTransfers& transfers) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  SY_CHECK(stack->size() >= n, op.operator_name(), ": the CPU fallback expected ", n, " arguments on the stack but found ",
           stack->size());
  IValue* args = stack->data() + (stack->size() - n);

  // The caller's arguments, kept to write back into and to return for out/in-place results.
  std::vector<IValue> originals(args, args + n);
  std::vector<IValue> cpu_args;
  cpu_args.reserve(n);
  CpuCopies copies(transfers);
  std::optional<Device> requested;  // the first Device argument
  for (size_t i = 0; i < n; ++i) {
    if (args[i].isDevice()) {
      if (!requested) requested = args[i].toDevice();
      if (transfers.isDevice(args[i].toDevice())) args[i] = IValue(kCPU);
    } else if (!args[i].isTensor() || (args[i].toTensor().defined() && transfers.onDevice(args[i].toTensor()))) {
      // Lists are rebuilt, never edited, since the caller may share them.
      args[i] = mapTensors(std::move(args[i]), [&](const Tensor& t) { return copies.convert(t); });
    }
    cpu_args.push_back(args[i]);
  }
  const Device result_device = requested.value_or(transfers.resultDevice(originals.data(), n));

  op.redispatchBoxed(cpu_keys, stack);

  // Only now, after the CPU kernel succeeded, do the caller's tensors change.
  for (size_t i = 0; i < n; ++i) {
    if (schema.arguments()[i].is_write()) writeBack(originals[i], cpu_args[i], transfers);
  }
  const size_t m = schema.returns().size();
  IValue* results = stack->data() + (stack->size() - m);
  for (size_t r = 0; r < m; ++r) {
    const int aliased = schema.aliasedArgumentOfReturn(r);
    if (aliased >= 0) {
      results[r] = originals[static_cast<size_t>(aliased)];
    } else if (transfers.isDevice(result_device)) {
      results[r] = mapTensors(std::move(results[r]), [&](const Tensor& t) {
        return t.defined() && t.is_cpu() ? transfers.toDevice(t, result_device) : t;
      });
    }
  }
}

void cpuFallback(const OperatorHandle& op, Stack* stack, bool error_on_views, DispatchKey cpu_dispatch_key) {
  SY_CHECK(cpu_dispatch_key == DispatchKey::CPU, "cpu_fallback: expected the CPU dispatch key but got ", cpu_dispatch_key);
  const FunctionSchema& schema = op.schema();
  if (isViewOperator(schema)) {
    const std::string name = op.operator_name().toString();
    if (error_on_views) {
      SY_ERROR("The operator ", name, " is a view operator, and has no kernel of its own for this device: view "
               "operators cannot fall back to the CPU, since the result would view a CPU copy instead of the "
               "caller's memory. Register a kernel for ", name, " on the device's dispatch key");
    }
    SY_WARN("The operator ", name, " is a view operator, and has no kernel of its own for this device: it runs on "
            "CPU copies of its arguments, so its result is a copy, not a view of the caller's memory");
  }
  static const DispatchedTransfers transfers;
  runOnCpu(op, stack, tensorKeySetFor(DeviceType::CPU), transfers);
}

}  // namespace sy
