// The native Accel kernels: the subset of aten:: operators the Accel backend implements itself (the
// registrations at the bottom; `switchyard ops NAME` shows who serves an operator). Everything else
// reaches the boxed CPU fallback (backends/devices/accel/accel_cpu_fallback.h). copy_ copies
// CPU<->Accel and Accel<->Accel, with any dtype conversion.
//
// Each kernel has the operator's C++ signature (the dispatcher keeps one per operator) with the
// operator's context last (dispatcher/kernel_context.h). They compute by mapping Accel buffers to
// host views for the duration of the call and running the CPU operators on them, which is what a
// real subset backend's "compile and run" step stands in for here. Results are Accel tensors; out=
// results are written only after the computation succeeded, so a failing kernel leaves the
// caller's out tensor untouched.
#include "switchyard/backends/devices/accel/accel_stats.h"
#include "switchyard/backends/devices/accel/accel_tensor.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/ops/unary_ops.h"

namespace sy::accel {
namespace {

// Runs a CPU out= kernel into a host tensor shaped like `out` (so it resizes exactly when it would
// have resized `out`), then writes the result into the caller's Accel `out`.
template <class Compute>
Tensor& outViaHost(Tensor& out, Compute&& compute) {
  Tensor host_out = sy::empty(out.sizes(), TensorOptions(out.scalar_type()));
  compute(host_out);
  copyInto(out, host_out);
  return out;
}

// ---- Allocation ----------------------------------------------------------------------------------

Tensor empty_memory_format_accel(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                                 std::optional<Device> device, std::optional<bool> pin_memory,
                                 std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  const char* op = ctx.op;
  detail::recordNativeCall(op);
  checkedNumel(op, size);  // a negative dimension is a ValueError naming the operator
  const Device target = device.value_or(kAccel);
  SY_CHECK(target.type() == DeviceType::Accel, op, ": the Accel kernel cannot allocate on ", target);
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
  const TensorOptions options = TensorOptions(dtype.value_or(ScalarType::Float)).device(target);
  switch (memory_format.value_or(MemoryFormat::Contiguous)) {
    case MemoryFormat::Contiguous:
      return sy::empty(size, options);
    case MemoryFormat::ChannelsLast: {
      SY_CHECK(size.size() == 4, op, ": memory_format ChannelsLast needs a 4-D size (N, C, H, W), but got ",
               formatSizes(size));
      return sy::empty_strided(size, checkedStridesInDimOrder(op, size, {0, 2, 3, 1}), options);
    }
    case MemoryFormat::Preserve:
      break;
  }
  SY_ERROR(op, ": memory_format Preserve is not supported (empty has no input whose format to preserve)");
}

// ---- Arithmetic, linear algebra and activations ----------------------------------------------------
//
// Each computes with the operator itself (sy::ops) on host views of its Accel operands, which are
// CPU tensors, so the call reaches the CPU kernel; `ctx.op` names the operator for the statistics
// and the device checks.

Tensor add_accel(const Tensor& self, const Tensor& other, const Scalar& alpha, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &other});
  detail::recordNativeCall(ctx.op);
  return toAccel(ops::add(hostOperand(self), hostOperand(other), alpha));
}

Tensor& add_out_accel(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out,
                      const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &other}, {&out});
  detail::recordNativeCall(ctx.op);
  return outViaHost(out,
                    [&](Tensor& host_out) { ops::add_out(host_out, hostOperand(self), hostOperand(other), alpha); });
}

Tensor& add_inplace_accel(Tensor& self, const Tensor& other, const Scalar& alpha, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&other}, {&self});
  detail::recordNativeCall(ctx.op);
  // In place on the host view: the shape cannot change, and other may alias self (x.add_(x)).
  Tensor view = hostView(self);
  ops::add_(view, hostOperand(other), alpha);
  return self;
}

Tensor mul_accel(const Tensor& self, const Tensor& other, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &other});
  detail::recordNativeCall(ctx.op);
  return toAccel(ops::mul(hostOperand(self), hostOperand(other)));
}

Tensor& mul_out_accel(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &other}, {&out});
  detail::recordNativeCall(ctx.op);
  return outViaHost(out, [&](Tensor& host_out) { ops::mul_out(host_out, hostOperand(self), hostOperand(other)); });
}

Tensor& mul_inplace_accel(Tensor& self, const Tensor& other, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&other}, {&self});
  detail::recordNativeCall(ctx.op);
  Tensor view = hostView(self);
  ops::mul_(view, hostOperand(other));
  return self;
}

Tensor mm_accel(const Tensor& self, const Tensor& mat2, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &mat2});
  detail::recordNativeCall(ctx.op);
  return toAccel(ops::mm(hostOperand(self), hostOperand(mat2)));
}

Tensor& mm_out_accel(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self, &mat2}, {&out});
  detail::recordNativeCall(ctx.op);
  return outViaHost(out, [&](Tensor& host_out) { ops::mm_out(host_out, hostOperand(self), hostOperand(mat2)); });
}

Tensor relu_accel(const Tensor& self, const KernelContext& ctx) {
  detail::recordNativeCall(ctx.op);
  return toAccel(ops::relu(hostView(self)));
}

Tensor& relu_out_accel(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  checkSameDevice(ctx.op, {&self}, {&out});
  detail::recordNativeCall(ctx.op);
  return outViaHost(out, [&](Tensor& host_out) { ops::relu_out(host_out, hostOperand(self)); });
}

Tensor& relu_inplace_accel(Tensor& self, const KernelContext& ctx) {
  detail::recordNativeCall(ctx.op);
  Tensor view = hostView(self);
  ops::relu_(view);
  return self;
}

// ---- Transfers -----------------------------------------------------------------------------------

// Reached whenever either side is Accel (Accel outranks CPU). The host views make it an ordinary
// CPU copy, which already broadcasts, converts dtypes and stages overlapping memory: the CPU kernel
// is called directly, with this operator's context.
Tensor& copy_accel(Tensor& self, const Tensor& src, bool non_blocking, const KernelContext& ctx) {
  detail::recordNativeCall(ctx.op);
  SY_CHECK(self.defined() && src.defined(), ctx.op, ": ", self.defined() ? "src" : "self", " is an undefined tensor");
  Tensor host_self = hostOperand(self);
  cpu::copy_cpu(host_self, hostOperand(src), non_blocking, ctx);
  return self;
}

// The CPU kernel is device-generic (it allocates with aten::empty and copies with aten::copy_, both
// dispatched, so they land on the Accel kernels above), so it is called directly, with this
// operator's context; Accel just counts the call.
Tensor to_copy_accel(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                     std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  detail::recordNativeCall(ctx.op);
  return cpu::to_copy_cpu(self, dtype, layout, device, pin_memory, non_blocking, memory_format, ctx);
}

}  // namespace
}  // namespace sy::accel

// The operators Accel runs natively, each kernel told its operator's name (dispatcher/derived_kernels.h).
SY_LIBRARY_IMPL(aten, Accel, m) {
  using namespace sy::accel;
  using sy::KernelContext;
  using sy::OutputForm;
  using sy::withContext;
  static constexpr KernelContext kEmpty{"aten::empty.memory_format", OutputForm::Functional};
  static constexpr KernelContext kAdd{"aten::add.Tensor", OutputForm::Functional};
  static constexpr KernelContext kAddOut{"aten::add.out", OutputForm::Out};
  static constexpr KernelContext kAddInPlace{"aten::add_.Tensor", OutputForm::InPlace};
  static constexpr KernelContext kMul{"aten::mul.Tensor", OutputForm::Functional};
  static constexpr KernelContext kMulOut{"aten::mul.out", OutputForm::Out};
  static constexpr KernelContext kMulInPlace{"aten::mul_.Tensor", OutputForm::InPlace};
  static constexpr KernelContext kCopy{"aten::copy_", OutputForm::InPlace};
  static constexpr KernelContext kToCopy{"aten::_to_copy", OutputForm::Functional};
  static constexpr KernelContext kMm{"aten::mm", OutputForm::Functional};
  static constexpr KernelContext kMmOut{"aten::mm.out", OutputForm::Out};
  static constexpr KernelContext kRelu{"aten::relu", OutputForm::Functional};
  static constexpr KernelContext kReluOut{"aten::relu.out", OutputForm::Out};
  static constexpr KernelContext kReluInPlace{"aten::relu_", OutputForm::InPlace};
  m.impl(kEmpty.op, withContext<&empty_memory_format_accel, &kEmpty>());
  m.impl(kAdd.op, withContext<&add_accel, &kAdd>());
  m.impl(kAddOut.op, withContext<&add_out_accel, &kAddOut>());
  m.impl(kAddInPlace.op, withContext<&add_inplace_accel, &kAddInPlace>());
  m.impl(kMul.op, withContext<&mul_accel, &kMul>());
  m.impl(kMulOut.op, withContext<&mul_out_accel, &kMulOut>());
  m.impl(kMulInPlace.op, withContext<&mul_inplace_accel, &kMulInPlace>());
  m.impl(kCopy.op, withContext<&copy_accel, &kCopy>());
  m.impl(kToCopy.op, withContext<&to_copy_accel, &kToCopy>());
  m.impl(kMm.op, withContext<&mm_accel, &kMm>());
  m.impl(kMmOut.op, withContext<&mm_out_accel, &kMmOut>());
  m.impl(kRelu.op, withContext<&relu_accel, &kRelu>());
  m.impl(kReluOut.op, withContext<&relu_out_accel, &kReluOut>());
  m.impl(kReluInPlace.op, withContext<&relu_inplace_accel, &kReluInPlace>());
}
