// Each helper calls through a namespace-scope typed handle (Dispatcher::staticTypedHandle), as in
// ops.cpp: one dispatch per call, no per-call initialisation guard. The handle signatures are the
// kernels' C++ signatures (backends/cpu/unary_kernels.h); a mismatch is rejected at registration.
#include "switchyard/ops/unary_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using Functional = Tensor(const Tensor&);
using InPlace = Tensor&(Tensor&);
using Out = Tensor&(const Tensor&, Tensor&);

// The three handles of a plain unary operator.
struct UnaryHandles {
  TypedOperatorHandle<Functional> functional;
  TypedOperatorHandle<InPlace> in_place;
  TypedOperatorHandle<Out> out;
};
UnaryHandles unaryHandles(const char* name, const char* in_place_name) {
  return {handle<Functional>(name, ""), handle<InPlace>(in_place_name, ""), handle<Out>(name, "out")};
}

const UnaryHandles abs_ops = unaryHandles("aten::abs", "aten::abs_");
const UnaryHandles neg_ops = unaryHandles("aten::neg", "aten::neg_");
const UnaryHandles exp_ops = unaryHandles("aten::exp", "aten::exp_");
const UnaryHandles log_ops = unaryHandles("aten::log", "aten::log_");
const UnaryHandles sqrt_ops = unaryHandles("aten::sqrt", "aten::sqrt_");
const UnaryHandles rsqrt_ops = unaryHandles("aten::rsqrt", "aten::rsqrt_");
const UnaryHandles cos_ops = unaryHandles("aten::cos", "aten::cos_");
const UnaryHandles tanh_ops = unaryHandles("aten::tanh", "aten::tanh_");
const UnaryHandles sigmoid_ops = unaryHandles("aten::sigmoid", "aten::sigmoid_");
const UnaryHandles relu_ops = unaryHandles("aten::relu", "aten::relu_");
const auto sin_inplace_op = handle<InPlace>("aten::sin_", "");
const auto acos_inplace_op = handle<InPlace>("aten::acos_", "");

const auto gelu_op = handle<Tensor(const Tensor&, std::string_view)>("aten::gelu", "");
const auto gelu_inplace_op = handle<Tensor&(Tensor&, std::string_view)>("aten::gelu_", "");
const auto gelu_out_op = handle<Tensor&(const Tensor&, std::string_view, Tensor&)>("aten::gelu", "out");

const auto hardtanh_op = handle<Tensor(const Tensor&, const Scalar&, const Scalar&)>("aten::hardtanh", "");
const auto hardtanh_inplace_op = handle<Tensor&(Tensor&, const Scalar&, const Scalar&)>("aten::hardtanh_", "");
const auto hardtanh_out_op =
    handle<Tensor&(const Tensor&, const Scalar&, const Scalar&, Tensor&)>("aten::hardtanh", "out");

using OptScalar = const std::optional<Scalar>&;
using OptTensor = const std::optional<Tensor>&;
const auto clamp_op = handle<Tensor(const Tensor&, OptScalar, OptScalar)>("aten::clamp", "");
const auto clamp_inplace_op = handle<Tensor&(Tensor&, OptScalar, OptScalar)>("aten::clamp_", "");
const auto clamp_out_op = handle<Tensor&(const Tensor&, OptScalar, OptScalar, Tensor&)>("aten::clamp", "out");
const auto clamp_tensor_op = handle<Tensor(const Tensor&, OptTensor, OptTensor)>("aten::clamp", "Tensor");
const auto clamp_tensor_inplace_op = handle<Tensor&(Tensor&, OptTensor, OptTensor)>("aten::clamp_", "Tensor");
const auto clamp_tensor_out_op =
    handle<Tensor&(const Tensor&, OptTensor, OptTensor, Tensor&)>("aten::clamp", "Tensor_out");

}  // namespace

Tensor abs(const Tensor& self) { return abs_ops.functional.call(self); }
Tensor& abs_(Tensor& self) { return abs_ops.in_place.call(self); }
Tensor& abs_out(Tensor& out, const Tensor& self) { return abs_ops.out.call(self, out); }
Tensor neg(const Tensor& self) { return neg_ops.functional.call(self); }
Tensor& neg_(Tensor& self) { return neg_ops.in_place.call(self); }
Tensor& neg_out(Tensor& out, const Tensor& self) { return neg_ops.out.call(self, out); }

Tensor exp(const Tensor& self) { return exp_ops.functional.call(self); }
Tensor& exp_(Tensor& self) { return exp_ops.in_place.call(self); }
Tensor& exp_out(Tensor& out, const Tensor& self) { return exp_ops.out.call(self, out); }
Tensor log(const Tensor& self) { return log_ops.functional.call(self); }
Tensor& log_(Tensor& self) { return log_ops.in_place.call(self); }
Tensor& log_out(Tensor& out, const Tensor& self) { return log_ops.out.call(self, out); }
Tensor sqrt(const Tensor& self) { return sqrt_ops.functional.call(self); }
Tensor& sqrt_(Tensor& self) { return sqrt_ops.in_place.call(self); }
Tensor& sqrt_out(Tensor& out, const Tensor& self) { return sqrt_ops.out.call(self, out); }
Tensor rsqrt(const Tensor& self) { return rsqrt_ops.functional.call(self); }
Tensor& rsqrt_(Tensor& self) { return rsqrt_ops.in_place.call(self); }
Tensor& rsqrt_out(Tensor& out, const Tensor& self) { return rsqrt_ops.out.call(self, out); }
Tensor& sin_(Tensor& self) { return sin_inplace_op.call(self); }
Tensor cos(const Tensor& self) { return cos_ops.functional.call(self); }
Tensor& cos_(Tensor& self) { return cos_ops.in_place.call(self); }
Tensor& cos_out(Tensor& out, const Tensor& self) { return cos_ops.out.call(self, out); }
Tensor tanh(const Tensor& self) { return tanh_ops.functional.call(self); }
Tensor& tanh_(Tensor& self) { return tanh_ops.in_place.call(self); }
Tensor& tanh_out(Tensor& out, const Tensor& self) { return tanh_ops.out.call(self, out); }
Tensor& acos_(Tensor& self) { return acos_inplace_op.call(self); }

Tensor sigmoid(const Tensor& self) { return sigmoid_ops.functional.call(self); }
Tensor& sigmoid_(Tensor& self) { return sigmoid_ops.in_place.call(self); }
Tensor& sigmoid_out(Tensor& out, const Tensor& self) { return sigmoid_ops.out.call(self, out); }
Tensor relu(const Tensor& self) { return relu_ops.functional.call(self); }
Tensor& relu_(Tensor& self) { return relu_ops.in_place.call(self); }
Tensor& relu_out(Tensor& out, const Tensor& self) { return relu_ops.out.call(self, out); }
Tensor gelu(const Tensor& self, std::string_view approximate) { return gelu_op.call(self, approximate); }
Tensor& gelu_(Tensor& self, std::string_view approximate) { return gelu_inplace_op.call(self, approximate); }
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate) {
  return gelu_out_op.call(self, approximate, out);
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return hardtanh_op.call(self, min_val, max_val);
}
Tensor& hardtanh_(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return hardtanh_inplace_op.call(self, min_val, max_val);
}
Tensor& hardtanh_out(Tensor& out, const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return hardtanh_out_op.call(self, min_val, max_val, out);
}

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_op.call(self, min, max);
}
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_inplace_op.call(self, min, max);
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max) {
  return clamp_out_op.call(self, min, max, out);
}
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_tensor_op.call(self, min, max);
}
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_tensor_inplace_op.call(self, min, max);
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max) {
  return clamp_tensor_out_op.call(self, min, max, out);
}

}  // namespace sy::ops
