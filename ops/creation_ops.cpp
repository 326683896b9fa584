// The TensorOptions helpers of ops/creation_ops.h (`manual_cpp_binding: True` in
// backends/devices/cpu/creation_ops.yaml; the out= helpers are generated), and sy::ops::empty (whose schema is in
// ops/aten_schemas.cpp). Each calls through a namespace-scope
// typed handle (one dispatch, no per-call lookup). The handle signatures must match the kernels'
// C++ signatures exactly (the generated switchyard/ops/creation/NativeFunctions.h); a mismatch is
// rejected at registration.
#include "switchyard/ops/creation_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

// The trailing `ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory` of factories.
#define SY_FACTORY_OPTIONS std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>, std::optional<bool>

using SizeFactory = Tensor(IntArrayRef, SY_FACTORY_OPTIONS);
using LikeFactory = Tensor(const Tensor&, SY_FACTORY_OPTIONS, std::optional<MemoryFormat>);
using FullLikeFactory = Tensor(const Tensor&, const Scalar&, SY_FACTORY_OPTIONS, std::optional<MemoryFormat>);

using EmptySignature = Tensor(IntArrayRef, SY_FACTORY_OPTIONS, std::optional<MemoryFormat>);

const auto empty_op = handle<EmptySignature>("aten::empty", "memory_format");
const auto empty_strided_op = handle<Tensor(IntArrayRef, IntArrayRef, SY_FACTORY_OPTIONS)>("aten::empty_strided", "");
const auto zeros_op = handle<SizeFactory>("aten::zeros", "");
const auto rand_op = handle<SizeFactory>("aten::rand", "");
const auto randn_op = handle<SizeFactory>("aten::randn", "");
const auto ones_op = handle<SizeFactory>("aten::ones", "");
const auto full_op = handle<Tensor(IntArrayRef, const Scalar&, SY_FACTORY_OPTIONS)>("aten::full", "");
const auto scalar_tensor_op = handle<Tensor(const Scalar&, SY_FACTORY_OPTIONS)>("aten::scalar_tensor", "");

const auto arange_op = handle<Tensor(const Scalar&, SY_FACTORY_OPTIONS)>("aten::arange", "");
const auto arange_start_op = handle<Tensor(const Scalar&, const Scalar&, SY_FACTORY_OPTIONS)>("aten::arange", "start");
const auto arange_start_step_op =
    handle<Tensor(const Scalar&, const Scalar&, const Scalar&, SY_FACTORY_OPTIONS)>("aten::arange", "start_step");

const auto empty_like_op = handle<LikeFactory>("aten::empty_like", "");
const auto zeros_like_op = handle<LikeFactory>("aten::zeros_like", "");
const auto ones_like_op = handle<LikeFactory>("aten::ones_like", "");
const auto full_like_op = handle<FullLikeFactory>("aten::full_like", "");

const auto to_copy_op =
    handle<Tensor(const Tensor&, SY_FACTORY_OPTIONS, bool, std::optional<MemoryFormat>)>("aten::_to_copy", "");

#undef SY_FACTORY_OPTIONS

// An unspecified dtype stays None, as at:: passes it, so kernels can infer one (full, arange).
std::optional<ScalarType> dtypeOf(const TensorOptions& options) {
  return options.has_dtype_ ? std::optional<ScalarType>(options.dtype_) : std::nullopt;
}

// For the *_like helpers: TensorOptions cannot say "no device", so its CPU default means "self's".
std::optional<Device> deviceRelativeTo(const TensorOptions& options) {
  return options.device_.is_cpu() ? std::nullopt : std::optional<Device>(options.device_);
}

}  // namespace

// An unspecified dtype stays None, as at::empty passes it, so kernels see the caller's intent.
Tensor empty(IntArrayRef size, TensorOptions options) {
  return empty_op.call(size, dtypeOf(options), std::nullopt, options.device_, std::nullopt, std::nullopt);
}

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options) {
  return empty_strided_op.call(size, stride, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}

Tensor zeros(IntArrayRef size, TensorOptions options) {
  return zeros_op.call(size, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor ones(IntArrayRef size, TensorOptions options) {
  return ones_op.call(size, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor rand(IntArrayRef size, TensorOptions options) {
  return rand_op.call(size, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor randn(IntArrayRef size, TensorOptions options) {
  return randn_op.call(size, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options) {
  return full_op.call(size, fill_value, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor scalar_tensor(const Scalar& s, TensorOptions options) {
  return scalar_tensor_op.call(s, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}

Tensor arange(const Scalar& end, TensorOptions options) {
  return arange_op.call(end, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options) {
  return arange_start_op.call(start, end, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  return arange_start_step_op.call(start, end, step, dtypeOf(options), std::nullopt, options.device_, std::nullopt);
}

Tensor empty_like(const Tensor& self, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  return empty_like_op.call(self, dtypeOf(options), std::nullopt, deviceRelativeTo(options), std::nullopt,
                            memory_format);
}
Tensor zeros_like(const Tensor& self, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  return zeros_like_op.call(self, dtypeOf(options), std::nullopt, deviceRelativeTo(options), std::nullopt,
                            memory_format);
}
Tensor ones_like(const Tensor& self, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  return ones_like_op.call(self, dtypeOf(options), std::nullopt, deviceRelativeTo(options), std::nullopt,
                           memory_format);
}
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options,
                 std::optional<MemoryFormat> memory_format) {
  return full_like_op.call(self, fill_value, dtypeOf(options), std::nullopt, deviceRelativeTo(options), std::nullopt,
                           memory_format);
}

Tensor _to_copy(const Tensor& self, TensorOptions options, bool non_blocking,
                std::optional<MemoryFormat> memory_format) {
  return to_copy_op.call(self, dtypeOf(options), std::nullopt, deviceRelativeTo(options), std::nullopt, non_blocking,
                         memory_format);
}
Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<MemoryFormat> memory_format) {
  return to_copy_op.call(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
}

}  // namespace sy::ops
