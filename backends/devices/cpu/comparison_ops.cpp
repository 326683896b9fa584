// The elementwise comparisons eq, ne, lt, gt, le, ge on the CPU, each with a Tensor or Scalar
// `other`, and logical_and, logical_or and logical_xor of two tensors: one kernel per overload, the
// out variant's, which also serves the functional and in-place forms.
//
// Semantics, as PyTorch: the operands are broadcast and compared in their result type (an Int
// tensor compared with 2.5 compares in Float, so 2 == 2.5 is false; a Long tensor with a Double
// 0-dim compares in Long); the functional result is Bool. An out= tensor may have any dtype and
// receives true/false as 1/0; an in-place `self` keeps its dtype and must have the broadcast
// shape. NaN compares unequal to everything, itself included (ne is true, the rest false). The
// logical operators compare the operands' truth values (nonzero, NaN included, is true) in the
// same result type, so a Long tensor and a 0-dim 0.5 compare in Long, where 0.5 is 0 and false.
#include <type_traits>

#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"

namespace sy::cpu {
namespace {

struct Equal {
  template <class T>
  bool operator()(T a, T b) const { return a == b; }
};
struct NotEqual {
  template <class T>
  bool operator()(T a, T b) const { return a != b; }
};
struct Less {
  template <class T>
  bool operator()(T a, T b) const { return a < b; }
};
struct Greater {
  template <class T>
  bool operator()(T a, T b) const { return a > b; }
};
struct LessOrEqual {
  template <class T>
  bool operator()(T a, T b) const { return a <= b; }
};
struct GreaterOrEqual {
  template <class T>
  bool operator()(T a, T b) const { return a >= b; }
};
// The logical operators read each operand as a truth value (nonzero, NaN included, is true).
struct LogicalAnd {
  template <class T>
  bool operator()(T a, T b) const { return static_cast<bool>(a) && static_cast<bool>(b); }
};
struct LogicalOr {
  template <class T>
  bool operator()(T a, T b) const { return static_cast<bool>(a) || static_cast<bool>(b); }
};
struct LogicalXor {
  template <class T>
  bool operator()(T a, T b) const { return static_cast<bool>(a) != static_cast<bool>(b); }
};

// The element loop of one comparison, shared by its Tensor and Scalar forms (See Note [Element
// loops do not depend on the form of other] in elementwise.h), for the operands' common dtypes in
// `Dtypes` (the kernel's generated `<kernel>_dtypes`).
template <class Compare, unsigned Dtypes>
void compareElements(const char* op, const BinaryInputs& inputs, Tensor& out, ScalarType common) {
  runBinaryLoop<Dtypes>(op, inputs.self(), inputs.other(), out, common, ScalarType::Bool,
                                   [](const LoopGeometry& geometry, auto tag) {
                                     using T = typename decltype(tag)::type;
                                     runElementwise<bool, T, T>(geometry, [](T a, T b) { return Compare{}(a, b); });
                                   });
}

// A comparison in the form `ctx` names, with a Tensor or a Scalar `other`, whose operands' common
// dtype is one of `Dtypes`: `out` is the fresh Bool result (functional), the caller's out= or self
// (in place).
template <class Compare, unsigned Dtypes, class Other>
Tensor& compare(const KernelContext& ctx, const Tensor& self, const Other& other, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, ScalarType::Bool, out);
  // See Note [Dense binary calls of one dtype skip the loop geometry] in elementwise.h: here the
  // inputs have the computation's dtype and out is Bool.
  const DenseBinaryLayout layout = denseBinaryLayout(self, operands.other, out, operands.result, ScalarType::Bool);
  if (SY_LIKELY(layout != DenseBinaryLayout::None)) {
    const int64_t n = out.numel();
    if (n == 0) return out;
    dispatchDtype<Dtypes>(operands.result, op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      runDenseBinary<T>(layout, static_cast<bool*>(out.unsafeGetTensorImpl()->data()),
                        static_cast<const T*>(self.unsafeGetTensorImpl()->data()),
                        static_cast<const T*>(operands.other.unsafeGetTensorImpl()->data()), n,
                        [](T a, T b) { return Compare{}(a, b); });
    });
    return out;
  }
  // Bool converts to every dtype, so out= needs no cast check.
  const BinaryInputs inputs =
      prepareBinaryOutput(op, self, operands.other, out, ScalarType::Bool, role, /*check_cast=*/false);
  compareElements<Compare, Dtypes>(op, inputs, out, operands.result);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

// Two kernels per comparison, differing only in the element function.
#define SY_DEFINE_COMPARISON_KERNELS(name, Compare)                                                               \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) { \
    return compare<Compare, name##_tensor_out_cpu_dtypes>(ctx, self, other, out);                                 \
  }                                                                                                               \
  Tensor& name##_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) { \
    return compare<Compare, name##_scalar_out_cpu_dtypes>(ctx, self, other, out);                                 \
  }

SY_DEFINE_COMPARISON_KERNELS(eq, Equal)
SY_DEFINE_COMPARISON_KERNELS(ne, NotEqual)
SY_DEFINE_COMPARISON_KERNELS(lt, Less)
SY_DEFINE_COMPARISON_KERNELS(gt, Greater)
SY_DEFINE_COMPARISON_KERNELS(le, LessOrEqual)
SY_DEFINE_COMPARISON_KERNELS(ge, GreaterOrEqual)
#undef SY_DEFINE_COMPARISON_KERNELS

Tensor& logical_and_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return compare<LogicalAnd, logical_and_out_cpu_dtypes>(ctx, self, other, out);
}
Tensor& logical_or_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return compare<LogicalOr, logical_or_out_cpu_dtypes>(ctx, self, other, out);
}
Tensor& logical_xor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
  return compare<LogicalXor, logical_xor_out_cpu_dtypes>(ctx, self, other, out);
}

}  // namespace native
}  // namespace sy::cpu
