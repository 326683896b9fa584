// The native Accel kernels: the subset of aten:: operators the Accel backend implements itself.
// Everything else reaches the boxed CPU fallback (backends/devices/accel/accel_cpu_fallback.h).
//
// Native: empty.memory_format, add.Tensor, add.out, add_.Tensor, mul.Tensor, mul.out, mul_.Tensor,
// copy_ (CPU<->Accel and Accel<->Accel, any dtype conversion), mm, mm.out, relu, relu.out, relu_,
// _to_copy.
//
// Each kernel has exactly the CPU kernel's C++ signature (the dispatcher keeps one per operator).
// They compute by mapping Accel buffers to host views for the duration of the call and running the
// CPU loops on them, which is what a real subset backend's "compile and run" step stands in for
// here. Results are Accel tensors; out= results are written only after the computation succeeded,
// so a failing kernel leaves the caller's out tensor untouched.
#include "switchyard/backends/devices/accel/accel_stats.h"
#include "switchyard/backends/devices/accel/accel_tensor.h"
#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/linalg_kernels.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"

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

constexpr const char* kEmptyOp = "aten::empty.memory_format";

Tensor empty_memory_format_accel(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                                 std::optional<Device> device, std::optional<bool> pin_memory,
                                 std::optional<MemoryFormat> memory_format) {
  detail::recordNativeCall(kEmptyOp);
  checkedNumel(kEmptyOp, size);  // a negative dimension is a ValueError naming the operator
  const Device target = device.value_or(kAccel);
  SY_CHECK(target.type == DeviceType::Accel, kEmptyOp, ": the Accel kernel cannot allocate on ", target);
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, kEmptyOp, ": only the Strided layout is supported");
  const TensorOptions options = TensorOptions(dtype.value_or(ScalarType::Float)).device(target);
  switch (memory_format.value_or(MemoryFormat::Contiguous)) {
    case MemoryFormat::Contiguous:
      return sy::empty(size, options);
    case MemoryFormat::ChannelsLast: {
      SY_CHECK(size.size() == 4, kEmptyOp, ": memory_format ChannelsLast needs a 4-D size (N, C, H, W), but got ",
               formatSizes(size));
      return sy::empty_strided(size, checkedStridesInDimOrder(kEmptyOp, size, {0, 2, 3, 1}), options);
    }
    case MemoryFormat::Preserve:
      break;
  }
  SY_ERROR(kEmptyOp, ": memory_format Preserve is not supported (empty has no input whose format to preserve)");
}

// ---- Arithmetic ----------------------------------------------------------------------------------

Tensor add_accel(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  checkSameDevice("aten::add.Tensor", {&self, &other});
  detail::recordNativeCall("aten::add.Tensor");
  return toAccel(cpu::add_cpu(hostOperand(self), hostOperand(other), alpha));
}

Tensor& add_out_accel(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  checkSameDevice("aten::add.out", {&self, &other}, {&out});
  detail::recordNativeCall("aten::add.out");
  return outViaHost(out, [&](Tensor& host_out) {
    cpu::add_out_cpu(hostOperand(self), hostOperand(other), alpha, host_out);
  });
}

Tensor& add_inplace_accel(Tensor& self, const Tensor& other, const Scalar& alpha) {
  checkSameDevice("aten::add_.Tensor", {&other}, {&self});
  detail::recordNativeCall("aten::add_.Tensor");
  // In place on the host view: the shape cannot change, and other may alias self (x.add_(x)).
  Tensor view = hostView(self);
  cpu::add_inplace_cpu(view, hostOperand(other), alpha);
  return self;
}

Tensor mul_accel(const Tensor& self, const Tensor& other) {
  checkSameDevice("aten::mul.Tensor", {&self, &other});
  detail::recordNativeCall("aten::mul.Tensor");
  return toAccel(cpu::mul_cpu(hostOperand(self), hostOperand(other)));
}

Tensor& mul_out_accel(const Tensor& self, const Tensor& other, Tensor& out) {
  checkSameDevice("aten::mul.out", {&self, &other}, {&out});
  detail::recordNativeCall("aten::mul.out");
  return outViaHost(out, [&](Tensor& host_out) { cpu::mul_out_cpu(hostOperand(self), hostOperand(other), host_out); });
}

Tensor& mul_inplace_accel(Tensor& self, const Tensor& other) {
  checkSameDevice("aten::mul_.Tensor", {&other}, {&self});
  detail::recordNativeCall("aten::mul_.Tensor");
  Tensor view = hostView(self);
  cpu::mul_inplace_cpu(view, hostOperand(other));
  return self;
}

// ---- Transfers -----------------------------------------------------------------------------------

// Reached whenever either side is Accel (Accel outranks CPU). The host views make it an ordinary
// CPU copy, which already broadcasts, converts dtypes and stages overlapping memory.
Tensor& copy_accel(Tensor& self, const Tensor& src, bool non_blocking) {
  detail::recordNativeCall("aten::copy_");
  SY_CHECK(self.defined() && src.defined(), "aten::copy_: ", self.defined() ? "src" : "self",
           " is an undefined tensor");
  Tensor host_self = hostOperand(self);
  cpu::copy_cpu(host_self, hostOperand(src), non_blocking);
  return self;
}

// The CPU kernel is device-generic (it allocates with aten::empty and copies with aten::copy_, both
// dispatched, so they land on the Accel kernels above); Accel just counts the call.
Tensor to_copy_accel(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                     std::optional<MemoryFormat> memory_format) {
  detail::recordNativeCall("aten::_to_copy");
  return cpu::to_copy_cpu(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
}

// ---- Linear algebra and activations --------------------------------------------------------------

Tensor mm_accel(const Tensor& self, const Tensor& mat2) {
  checkSameDevice("aten::mm", {&self, &mat2});
  detail::recordNativeCall("aten::mm");
  return toAccel(cpu::mm_cpu(hostOperand(self), hostOperand(mat2)));
}

Tensor& mm_out_accel(const Tensor& self, const Tensor& mat2, Tensor& out) {
  checkSameDevice("aten::mm.out", {&self, &mat2}, {&out});
  detail::recordNativeCall("aten::mm.out");
  return outViaHost(out, [&](Tensor& host_out) { cpu::mm_out_cpu(hostOperand(self), hostOperand(mat2), host_out); });
}

Tensor relu_accel(const Tensor& self) {
  detail::recordNativeCall("aten::relu");
  return toAccel(cpu::relu_cpu(hostView(self)));
}

Tensor& relu_out_accel(const Tensor& self, Tensor& out) {
  checkSameDevice("aten::relu.out", {&self}, {&out});
  detail::recordNativeCall("aten::relu.out");
  return outViaHost(out, [&](Tensor& host_out) { cpu::relu_out_cpu(hostOperand(self), host_out); });
}

Tensor& relu_inplace_accel(Tensor& self) {
  detail::recordNativeCall("aten::relu_");
  Tensor view = hostView(self);
  cpu::relu_inplace_cpu(view);
  return self;
}

}  // namespace
}  // namespace sy::accel

SY_LIBRARY_IMPL(aten, Accel, m) {
  m.impl("empty.memory_format", SY_FN(sy::accel::empty_memory_format_accel));
  m.impl("add.Tensor", SY_FN(sy::accel::add_accel));
  m.impl("add.out", SY_FN(sy::accel::add_out_accel));
  m.impl("add_.Tensor", SY_FN(sy::accel::add_inplace_accel));
  m.impl("mul.Tensor", SY_FN(sy::accel::mul_accel));
  m.impl("mul.out", SY_FN(sy::accel::mul_out_accel));
  m.impl("mul_.Tensor", SY_FN(sy::accel::mul_inplace_accel));
  m.impl("copy_", SY_FN(sy::accel::copy_accel));
  m.impl("_to_copy", SY_FN(sy::accel::to_copy_accel));
  m.impl("mm", SY_FN(sy::accel::mm_accel));
  m.impl("mm.out", SY_FN(sy::accel::mm_out_accel));
  m.impl("relu", SY_FN(sy::accel::relu_accel));
  m.impl("relu.out", SY_FN(sy::accel::relu_out_accel));
  m.impl("relu_", SY_FN(sy::accel::relu_inplace_accel));
}
