// Running an operator's CPU kernel for a device backend: its tensor arguments copied to the CPU,
// the CPU kernel called, written arguments and results copied back. The machinery behind the Accel
// backend's fallback (accel_cpu_fallback.h), made public as PyTorch's at::native::cpu_fallback for
// the backends of PrivateUse1..3:
//
//   void my_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
//     at::native::cpu_fallback(op, stack);       // sy::cpuFallback
//   }
//   TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&my_fallback>()); }
//
// Note [What the CPU fallback does]
// For one call, in this order (runOnCpu):
//   1. every argument tensor of the device (plain, optional, in Tensor[] and Tensor?[] lists) is
//      copied to the CPU, once per TensorImpl, so an argument passed twice stays one tensor; a
//      Device argument naming the device becomes the CPU (factories build on the CPU);
//   2. the operator is redispatched to the CPU's keys; an error there propagates unchanged and,
//      since nothing was copied back yet, leaves the caller's tensors as they were;
//   3. every argument the schema marks as written (`Tensor(a!)`: out= and in-place) is written
//      back into the caller's own tensor, resized first when the CPU kernel resized its copy;
//   4. a result aliasing a written argument is the caller's own tensor; every fresh result moves
//      to the result device: the Device argument's if the call had one, else the first tensor
//      argument's (the device's own, for Accel).
// cpuFallback moves tensors with operator calls, so each device's own kernels do the copying:
// `t.to(kCPU)` and `cpu.to(device)` (aten::empty.memory_format then aten::copy_, which sends a copy
// involving a device tensor to the device's aten::_copy_from; See Note [copy_ across devices goes to
// _copy_from]), aten::resize_ and aten::copy_ for write-backs. View operators (`Tensor(a) ->
// Tensor(a)`) cannot run this way (the result would view a CPU copy, not the caller's memory): with
// error_on_views they are refused before anything runs, otherwise they run with a warning, as in
// PyTorch. aten's own view operators never get here: their CompositeExplicit kernels only restride.
#pragma once

#include "switchyard/dispatcher/operator_handle.h"

namespace sy {

// How one device's tensors reach the CPU and come back, for runOnCpu.
class CpuFallbackTransfers {
 public:
  virtual ~CpuFallbackTransfers() = default;
  // Whether a (defined) tensor is on the device, so the call copies it to the CPU.
  virtual bool onDevice(const Tensor& t) const = 0;
  // Whether a Device argument names the device (the CPU stands in for it during the call).
  virtual bool isDevice(Device device) const = 0;
  virtual Tensor toCpu(const Tensor& t) const = 0;
  virtual Tensor toDevice(const Tensor& cpu, Device device) const = 0;
  // Writes the CPU kernel's version of a written argument into the caller's tensor on the device,
  // resized to the CPU version's sizes when they differ.
  virtual void writeBack(const Tensor& original, const Tensor& cpu_version) const = 0;
  // Where fresh results go when no Device argument says: the arguments are the call's.
  virtual Device resultDevice(const IValue* arguments, size_t count) const = 0;
};

// Steps 1 to 4 (See Note [What the CPU fallback does]), redispatching to `cpu_keys`.
void runOnCpu(const OperatorHandle& op, Stack* stack, DispatchKeySet cpu_keys, const CpuFallbackTransfers& transfers);

// PyTorch's at::native::cpu_fallback: any device's tensors, moved with operator calls. A view
// operator is refused when `error_on_views`, else warned about (SY_WARN). `cpu_dispatch_key` must
// be CPU, as in PyTorch.
void cpuFallback(const OperatorHandle& op, Stack* stack, bool error_on_views = false,
                 DispatchKey cpu_dispatch_key = DispatchKey::CPU);

}  // namespace sy
