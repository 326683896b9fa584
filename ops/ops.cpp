// Each function looks its operator up once (a function-local static typed handle) and then costs
// one dispatch per call. The typed<> signatures must match the kernels' C++ signatures exactly
// (see backends/cpu/kernels.h).
#include "switchyard/ops/ops.h"

#include <optional>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::ops {

Tensor empty(IntArrayRef size, TensorOptions options) {
  static const auto op =
      Dispatcher::singleton()
          .findSchemaOrThrow("aten::empty", "memory_format")
          .typed<Tensor(IntArrayRef, std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                        std::optional<bool>, std::optional<MemoryFormat>)>();
  // An unspecified dtype stays None, as at::empty passes it, so kernels see the caller's intent.
  std::optional<ScalarType> dtype;
  if (options.has_dtype_) dtype = options.dtype_;
  return op.call(size, dtype, std::nullopt, options.device_, std::nullopt, std::nullopt);
}

Tensor acos(const Tensor& self) {
  static const auto op = Dispatcher::singleton().findSchemaOrThrow("aten::acos", "").typed<Tensor(const Tensor&)>();
  return op.call(self);
}

Tensor& acos_out(Tensor& out, const Tensor& self) {
  static const auto op =
      Dispatcher::singleton().findSchemaOrThrow("aten::acos", "out").typed<Tensor&(const Tensor&, Tensor&)>();
  return op.call(self, out);
}

Tensor sin(const Tensor& self) {
  static const auto op = Dispatcher::singleton().findSchemaOrThrow("aten::sin", "").typed<Tensor(const Tensor&)>();
  return op.call(self);
}

Tensor& sin_out(Tensor& out, const Tensor& self) {
  static const auto op =
      Dispatcher::singleton().findSchemaOrThrow("aten::sin", "out").typed<Tensor&(const Tensor&, Tensor&)>();
  return op.call(self, out);
}

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  static const auto op = Dispatcher::singleton()
                             .findSchemaOrThrow("aten::add", "Tensor")
                             .typed<Tensor(const Tensor&, const Tensor&, const Scalar&)>();
  return op.call(self, other, alpha);
}

Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  static const auto op = Dispatcher::singleton()
                             .findSchemaOrThrow("aten::add", "out")
                             .typed<Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&)>();
  return op.call(self, other, alpha, out);
}

Tensor mul(const Tensor& self, const Tensor& other) {
  static const auto op = Dispatcher::singleton()
                             .findSchemaOrThrow("aten::mul", "Tensor")
                             .typed<Tensor(const Tensor&, const Tensor&)>();
  return op.call(self, other);
}

Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op = Dispatcher::singleton()
                             .findSchemaOrThrow("aten::mul", "out")
                             .typed<Tensor&(const Tensor&, const Tensor&, Tensor&)>();
  return op.call(self, other, out);
}

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  static const auto op = Dispatcher::singleton()
                             .findSchemaOrThrow("aten::copy_", "")
                             .typed<Tensor&(Tensor&, const Tensor&, bool)>();
  return op.call(self, src, non_blocking);
}

}  // namespace sy::ops
