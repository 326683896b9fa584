// aten::where on the CPU: out[i] = condition[i] ? self[i] : other[i], with `self` and `other`
// each a Tensor or a Scalar.
//
// Semantics, as PyTorch: the condition must be Bool; condition, self and other broadcast
// together; the result type is that of self and other alone (ResultTypeBuilder: an Int tensor
// with 2.5 gives Float, a Float tensor with a Double 0-dim stays Float, two Scalars 1 and 0.5
// give Float). where.self_out requires `out` to have exactly that dtype, and resizes it to the
// broadcast shape. Values are copied, not computed, so NaN and infinities pass through unchanged.
#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// The four where overloads share their loops, so their YAML entries declare one set of dtypes.
constexpr unsigned kWhereDtypes = native::where_self_out_cpu_dtypes;
static_assert(native::where_scalar_self_cpu_dtypes == kWhereDtypes && native::where_scalar_other_cpu_dtypes == kWhereDtypes &&
                  native::where_scalar_cpu_dtypes == kWhereDtypes,
              "where.self_out, where.ScalarSelf, where.ScalarOther and where.Scalar declare the same dtypes: in binary_ops.yaml");

void checkCondition(const char* op, const Tensor& condition) {
  checkOnCPU(op, "condition", condition);
  SY_CHECK(condition.scalar_type() == ScalarType::Bool, op,
           ": where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.scalar_type());
}

void checkValues(const char* op, const char* argument, const Tensor& values) {
  checkOnCPU(op, argument, values);
  checkDtypeSupported(op, argument, values.scalar_type(), kWhereDtypes);
}

SizesVector whereShape(const char* op, const Tensor& condition, const Tensor& self, const Tensor& other) {
  return broadcastShapes(op, {{"condition", condition.sizes()}, {"self", self.sizes()}, {"other", other.sizes()}});
}

// denseWhere's element loop: a step of 0 repeats a single element.
template <class T>
void denseSelect(const bool* take_self, int64_t c_step, const T* x, int64_t x_step, const T* y, int64_t y_step, T* out,
                 int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = loadElement(take_self + i * c_step) ? loadElement(x + i * x_step) : loadElement(y + i * y_step);
  }
}

// As binary calls do (See Note [Dense binary calls of one dtype skip the loop geometry] in
// elementwise.h), a where whose condition, self and other each have out's shape (one at least) or
// are a single element broadcast over it (a 0-dim constant, a wrapped Scalar), are contiguous, hold the result's
// dtype (the condition Bool) and share no memory with out except in out's own place (a single
// element only when out is one too), copies element by element with no loop geometry: what the
// general path would do, with nothing that could fail left to check. Returns whether it did.
bool denseWhere(const char* op, const Tensor& condition, const Tensor& self, const Tensor& other, ScalarType result,
                const Tensor& out) {
  if (!out.defined() || !out.is_contiguous() || self.scalar_type() != result || other.scalar_type() != result) {
    return false;
  }
  int64_t steps[3];
  const Tensor* inputs[3] = {&condition, &self, &other};
  for (int k = 0; k < 3; ++k) {
    const Tensor& input = *inputs[k];
    if (!input.is_contiguous()) return false;
    if (sameSizes(input.sizes(), out.sizes())) {
      steps[k] = 1;
    } else if (input.numel() == 1 && input.dim() <= out.dim()) {
      steps[k] = 0;
    } else {
      return false;
    }
    if (sameMemory(out, input) && (input.storage_offset() != out.storage_offset() || (steps[k] == 0 && out.numel() != 1))) {
      return false;
    }
  }
  // Out already has the broadcast shape only when some input has it.
  if (steps[0] + steps[1] + steps[2] == 0) return false;
  const int64_t n = out.numel();
  if (n == 0) return true;
  dispatchDtype<kWhereDtypes>(result, op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    denseSelect<T>(static_cast<const bool*>(condition.unsafeGetTensorImpl()->data()), steps[0],
                   static_cast<const T*>(self.unsafeGetTensorImpl()->data()), steps[1],
                   static_cast<const T*>(other.unsafeGetTensorImpl()->data()), steps[2],
                   static_cast<T*>(out.unsafeGetTensorImpl()->data()), n);
  });
  return true;
}

// Every overload ends here, with checked operands (Scalars already wrapped) and their result type;
// the functional form's `out` arrives undefined and is allocated first.
Tensor& selectInto(const KernelContext& ctx, const Tensor& condition, const Tensor& self, const Tensor& other,
                   ScalarType result, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(whereShape(op, condition, self, other), TensorOptions(result).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == result, op, ": Expected out type to be ", result, " but got ", out.scalar_type());
  if (SY_LIKELY(denseWhere(op, condition, self, other, result, out))) return out;
  // See Note [An out= that is also an input keeps the input's values].
  const Tensor pinned_condition = unaffectedByResizeOf(out, condition);
  const Tensor pinned_self = unaffectedByResizeOf(out, self);
  const Tensor pinned_other = unaffectedByResizeOf(out, other);
  shapeOutput(op, out, whereShape(op, condition, self, other), OutputRole::Out);
  if (out.numel() == 0) return out;
  const Tensor a = convertedTo(op, "self", pinned_self, result);
  const Tensor b = convertedTo(op, "other", pinned_other, result);
  computeIntoOutput(op, out, result, {&pinned_condition, &a, &b}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &pinned_condition, &a, &b});
    dispatchDtype<kWhereDtypes>(result, op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      runElementwise<T, bool, T, T>(geometry, [](bool take_self, T x, T y) { return take_self ? x : y; });
    });
  });
  return out;
}

// The overloads with a Scalar, which have only a functional form.
Tensor select(const KernelContext& ctx, const Tensor& condition, const Tensor& self, const Tensor& other,
              ScalarType result) {
  Tensor out;
  selectInto(ctx, condition, self, other, result, out);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

Tensor& where_self_out_cpu(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out,
                           const KernelContext& ctx) {
  checkCondition(ctx.op, condition);
  checkValues(ctx.op, "self", self);
  checkValues(ctx.op, "other", other);
  return selectInto(ctx, condition, self, other, binaryResultType(self, other), out);
}

Tensor where_scalar_self_cpu(const Tensor& condition, const Scalar& self, const Tensor& other,
                             const KernelContext& ctx) {
  checkCondition(ctx.op, condition);
  checkValues(ctx.op, "other", other);
  const ScalarType result = ResultTypeBuilder().add(self).add(other).result();
  return select(ctx, condition, scalarTensor(self, result), other, result);
}

Tensor where_scalar_other_cpu(const Tensor& condition, const Tensor& self, const Scalar& other,
                              const KernelContext& ctx) {
  checkCondition(ctx.op, condition);
  checkValues(ctx.op, "self", self);
  const ScalarType result = ResultTypeBuilder().add(self).add(other).result();
  return select(ctx, condition, self, scalarTensor(other, result), result);
}

Tensor where_scalar_cpu(const Tensor& condition, const Scalar& self, const Scalar& other, const KernelContext& ctx) {
  checkCondition(ctx.op, condition);
  const ScalarType result = ResultTypeBuilder().add(self).add(other).result();
  return select(ctx, condition, scalarTensor(self, result), scalarTensor(other, result), result);
}

}  // namespace native
}  // namespace sy::cpu
