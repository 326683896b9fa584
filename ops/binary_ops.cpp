// Each helper calls through a namespace-scope typed handle (Dispatcher::staticTypedHandle), as in
// ops/ops.cpp: one dispatch per call. The handle signatures are the kernels' C++ signatures
// (backends/cpu/binary_kernels.h), schema order with out= last; a mismatch is rejected at
// registration. The helpers reorder out= to PyTorch's at:: position (first).
#include "switchyard/ops/binary_ops.h"

#include "switchyard/ops/operator_handle.h"

namespace sy::ops {
namespace {

using RoundingMode = std::optional<std::string_view>;

// Signatures shared by several operators.
using TensorTensor = Tensor(const Tensor&, const Tensor&);
using TensorTensorOut = Tensor&(const Tensor&, const Tensor&, Tensor&);
using TensorTensorInPlace = Tensor&(Tensor&, const Tensor&);
using TensorScalar = Tensor(const Tensor&, const Scalar&);
using TensorScalarOut = Tensor&(const Tensor&, const Scalar&, Tensor&);
using TensorScalarInPlace = Tensor&(Tensor&, const Scalar&);
using AlphaTensor = Tensor(const Tensor&, const Tensor&, const Scalar&);
using AlphaTensorOut = Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&);
using AlphaTensorInPlace = Tensor&(Tensor&, const Tensor&, const Scalar&);
using AlphaScalar = Tensor(const Tensor&, const Scalar&, const Scalar&);
using AlphaScalarOut = Tensor&(const Tensor&, const Scalar&, const Scalar&, Tensor&);
using AlphaScalarInPlace = Tensor&(Tensor&, const Scalar&, const Scalar&);

const auto add_scalar_op = handle<AlphaScalar>("aten::add", "Scalar");
const auto add_scalar_out_op = handle<AlphaScalarOut>("aten::add", "Scalar_out");
const auto add_inplace_op = handle<AlphaTensorInPlace>("aten::add_", "Tensor");
const auto add_scalar_inplace_op = handle<AlphaScalarInPlace>("aten::add_", "Scalar");

const auto sub_op = handle<AlphaTensor>("aten::sub", "Tensor");
const auto sub_out_op = handle<AlphaTensorOut>("aten::sub", "out");
const auto sub_scalar_op = handle<AlphaScalar>("aten::sub", "Scalar");
const auto sub_scalar_out_op = handle<AlphaScalarOut>("aten::sub", "Scalar_out");
const auto sub_inplace_op = handle<AlphaTensorInPlace>("aten::sub_", "Tensor");
const auto sub_scalar_inplace_op = handle<AlphaScalarInPlace>("aten::sub_", "Scalar");

const auto mul_scalar_op = handle<TensorScalar>("aten::mul", "Scalar");
const auto mul_scalar_out_op = handle<TensorScalarOut>("aten::mul", "Scalar_out");
const auto mul_inplace_op = handle<TensorTensorInPlace>("aten::mul_", "Tensor");
const auto mul_scalar_inplace_op = handle<TensorScalarInPlace>("aten::mul_", "Scalar");

const auto div_op = handle<TensorTensor>("aten::div", "Tensor");
const auto div_out_op = handle<TensorTensorOut>("aten::div", "out");
const auto div_mode_op = handle<Tensor(const Tensor&, const Tensor&, RoundingMode)>("aten::div", "Tensor_mode");
const auto div_out_mode_op =
    handle<Tensor&(const Tensor&, const Tensor&, RoundingMode, Tensor&)>("aten::div", "out_mode");
const auto div_scalar_op = handle<TensorScalar>("aten::div", "Scalar");
const auto div_scalar_out_op = handle<TensorScalarOut>("aten::div", "Scalar_out");
const auto div_scalar_mode_op = handle<Tensor(const Tensor&, const Scalar&, RoundingMode)>("aten::div", "Scalar_mode");
const auto div_scalar_mode_out_op =
    handle<Tensor&(const Tensor&, const Scalar&, RoundingMode, Tensor&)>("aten::div", "Scalar_mode_out");
const auto div_inplace_op = handle<TensorTensorInPlace>("aten::div_", "Tensor");
const auto div_mode_inplace_op = handle<Tensor&(Tensor&, const Tensor&, RoundingMode)>("aten::div_", "Tensor_mode");
const auto div_scalar_inplace_op = handle<TensorScalarInPlace>("aten::div_", "Scalar");
const auto div_scalar_mode_inplace_op =
    handle<Tensor&(Tensor&, const Scalar&, RoundingMode)>("aten::div_", "Scalar_mode");

const auto maximum_op = handle<TensorTensor>("aten::maximum", "");
const auto maximum_out_op = handle<TensorTensorOut>("aten::maximum", "out");
const auto minimum_op = handle<TensorTensor>("aten::minimum", "");
const auto minimum_out_op = handle<TensorTensorOut>("aten::minimum", "out");

// The six handles of one comparison.
struct ComparisonHandles {
  TypedOperatorHandle<TensorTensor> tensor;
  TypedOperatorHandle<TensorTensorOut> tensor_out;
  TypedOperatorHandle<TensorScalar> scalar;
  TypedOperatorHandle<TensorScalarOut> scalar_out;
  TypedOperatorHandle<TensorTensorInPlace> tensor_inplace;
  TypedOperatorHandle<TensorScalarInPlace> scalar_inplace;
};

ComparisonHandles comparisonHandles(const std::string& name) {
  const std::string in_place = name + "_";
  return {handle<TensorTensor>(name, "Tensor"),        handle<TensorTensorOut>(name, "Tensor_out"),
          handle<TensorScalar>(name, "Scalar"),        handle<TensorScalarOut>(name, "Scalar_out"),
          handle<TensorTensorInPlace>(in_place, "Tensor"), handle<TensorScalarInPlace>(in_place, "Scalar")};
}

const ComparisonHandles eq_ops = comparisonHandles("aten::eq");
const ComparisonHandles ne_ops = comparisonHandles("aten::ne");
const ComparisonHandles lt_ops = comparisonHandles("aten::lt");
const ComparisonHandles gt_ops = comparisonHandles("aten::gt");

const auto where_op = handle<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::where", "self");
const auto where_out_op =
    handle<Tensor&(const Tensor&, const Tensor&, const Tensor&, Tensor&)>("aten::where", "self_out");
const auto where_scalar_self_op =
    handle<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::where", "ScalarSelf");
const auto where_scalar_other_op =
    handle<Tensor(const Tensor&, const Tensor&, const Scalar&)>("aten::where", "ScalarOther");
const auto where_scalar_op = handle<Tensor(const Tensor&, const Scalar&, const Scalar&)>("aten::where", "Scalar");

}  // namespace

// ---- add ----
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_scalar_op.call(self, other, alpha);
}
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_scalar_out_op.call(self, other, alpha, out);
}
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) { return add_inplace_op.call(self, other, alpha); }
Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_scalar_inplace_op.call(self, other, alpha);
}

// ---- sub ----
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) { return sub_op.call(self, other, alpha); }
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return sub_out_op.call(self, other, alpha, out);
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub_scalar_op.call(self, other, alpha);
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub_scalar_out_op.call(self, other, alpha, out);
}
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) { return sub_inplace_op.call(self, other, alpha); }
Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub_scalar_inplace_op.call(self, other, alpha);
}

// ---- mul ----
Tensor mul(const Tensor& self, const Scalar& other) { return mul_scalar_op.call(self, other); }
Tensor& mul_out(Tensor& out, const Tensor& self, const Scalar& other) { return mul_scalar_out_op.call(self, other, out); }
Tensor& mul_(Tensor& self, const Tensor& other) { return mul_inplace_op.call(self, other); }
Tensor& mul_(Tensor& self, const Scalar& other) { return mul_scalar_inplace_op.call(self, other); }

// ---- div ----
Tensor div(const Tensor& self, const Tensor& other) { return div_op.call(self, other); }
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other) { return div_out_op.call(self, other, out); }
Tensor div(const Tensor& self, const Tensor& other, RoundingMode rounding_mode) {
  return div_mode_op.call(self, other, rounding_mode);
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, RoundingMode rounding_mode) {
  return div_out_mode_op.call(self, other, rounding_mode, out);
}
Tensor div(const Tensor& self, const Scalar& other) { return div_scalar_op.call(self, other); }
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other) { return div_scalar_out_op.call(self, other, out); }
Tensor div(const Tensor& self, const Scalar& other, RoundingMode rounding_mode) {
  return div_scalar_mode_op.call(self, other, rounding_mode);
}
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other, RoundingMode rounding_mode) {
  return div_scalar_mode_out_op.call(self, other, rounding_mode, out);
}
Tensor& div_(Tensor& self, const Tensor& other) { return div_inplace_op.call(self, other); }
Tensor& div_(Tensor& self, const Tensor& other, RoundingMode rounding_mode) {
  return div_mode_inplace_op.call(self, other, rounding_mode);
}
Tensor& div_(Tensor& self, const Scalar& other) { return div_scalar_inplace_op.call(self, other); }
Tensor& div_(Tensor& self, const Scalar& other, RoundingMode rounding_mode) {
  return div_scalar_mode_inplace_op.call(self, other, rounding_mode);
}

// ---- maximum, minimum ----
Tensor maximum(const Tensor& self, const Tensor& other) { return maximum_op.call(self, other); }
Tensor& maximum_out(Tensor& out, const Tensor& self, const Tensor& other) { return maximum_out_op.call(self, other, out); }
Tensor minimum(const Tensor& self, const Tensor& other) { return minimum_op.call(self, other); }
Tensor& minimum_out(Tensor& out, const Tensor& self, const Tensor& other) { return minimum_out_op.call(self, other, out); }

// ---- Comparisons ----
#define SY_DEFINE_COMPARISON_HELPERS(name)                                                                     \
  Tensor name(const Tensor& self, const Tensor& other) { return name##_ops.tensor.call(self, other); }         \
  Tensor name(const Tensor& self, const Scalar& other) { return name##_ops.scalar.call(self, other); }         \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                   \
    return name##_ops.tensor_out.call(self, other, out);                                                       \
  }                                                                                                            \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                   \
    return name##_ops.scalar_out.call(self, other, out);                                                       \
  }                                                                                                            \
  Tensor& name##_(Tensor& self, const Tensor& other) { return name##_ops.tensor_inplace.call(self, other); }   \
  Tensor& name##_(Tensor& self, const Scalar& other) { return name##_ops.scalar_inplace.call(self, other); }
SY_DEFINE_COMPARISON_HELPERS(eq)
SY_DEFINE_COMPARISON_HELPERS(ne)
SY_DEFINE_COMPARISON_HELPERS(lt)
SY_DEFINE_COMPARISON_HELPERS(gt)
#undef SY_DEFINE_COMPARISON_HELPERS

// ---- where ----
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_op.call(condition, self, other);
}
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_out_op.call(condition, self, other, out);
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return where_scalar_self_op.call(condition, self, other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return where_scalar_other_op.call(condition, self, other);
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return where_scalar_op.call(condition, self, other);
}

}  // namespace sy::ops
