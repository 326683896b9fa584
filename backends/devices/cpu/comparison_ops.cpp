// The elementwise comparisons eq, ne, lt, gt on the CPU, each with a Tensor or Scalar `other`, in
// functional, out= and in-place forms.
//
// Semantics, as PyTorch: the operands are broadcast and compared in their result type (an Int
// tensor compared with 2.5 compares in Float, so 2 == 2.5 is false; a Long tensor with a Double
// 0-dim compares in Long); the functional result is Bool. An out= tensor may have any dtype and
// receives true/false as 1/0; an in-place `self` keeps its dtype and must have the broadcast
// shape. NaN compares unequal to everything, itself included (ne is true, the rest false).
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

// A comparison in any form: `operands` come from binaryOperands (a Scalar already wrapped), `out`
// is the fresh Bool result, the caller's out= or the in-place self.
template <class Compare>
Tensor& compareInto(const char* op, const Tensor& self, const BinaryOperands& operands, Tensor& out, OutputRole role) {
  // Bool converts to every dtype, so out= needs no cast check.
  const BinaryInputs inputs =
      prepareBinaryOutput(op, self, operands.other, out, ScalarType::Bool, role, /*check_cast=*/false);
  runBinaryLoop<kAllDtypes>(op, inputs.self(), inputs.other(), out, operands.result, ScalarType::Bool,
                            [](const LoopGeometry& geometry, auto tag) {
                              using T = typename decltype(tag)::type;
                              runElementwise<bool, T, T>(geometry, [](T a, T b) { return Compare{}(a, b); });
                            });
  return out;
}

// The functional form: one dispatched allocation, then the out= implementation called directly.
template <class Compare>
Tensor compare(const char* op, const Tensor& self, const BinaryOperands& operands) {
  Tensor out = allocateBinaryResult(op, self, operands.other, ScalarType::Bool);
  compareInto<Compare>(op, self, operands, out, OutputRole::Out);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------------------

namespace native {

// Six entry points per comparison, differing only in the operator name and the form.
#define SY_DEFINE_COMPARISON_KERNELS(name, Compare)                                                          \
  Tensor name##_tensor_cpu(const Tensor& self, const Tensor& other) {                                       \
    constexpr const char* op = "aten::" #name ".Tensor";                                                    \
    return compare<Compare>(op, self, binaryOperands(op, self, other));                                     \
  }                                                                                                          \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {                     \
    constexpr const char* op = "aten::" #name ".Tensor_out";                                                \
    return compareInto<Compare>(op, self, binaryOperands(op, self, other), out, OutputRole::Out);          \
  }                                                                                                          \
  Tensor name##_scalar_cpu(const Tensor& self, const Scalar& other) {                                       \
    constexpr const char* op = "aten::" #name ".Scalar";                                                    \
    return compare<Compare>(op, self, binaryOperands(op, self, other));                                     \
  }                                                                                                          \
  Tensor& name##_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out) {                     \
    constexpr const char* op = "aten::" #name ".Scalar_out";                                                \
    return compareInto<Compare>(op, self, binaryOperands(op, self, other), out, OutputRole::Out);          \
  }                                                                                                          \
  Tensor& name##_tensor_inplace_cpu(Tensor& self, const Tensor& other) {                                    \
    constexpr const char* op = "aten::" #name "_.Tensor";                                                   \
    return compareInto<Compare>(op, self, binaryOperands(op, self, other), self, OutputRole::InPlace);     \
  }                                                                                                          \
  Tensor& name##_scalar_inplace_cpu(Tensor& self, const Scalar& other) {                                    \
    constexpr const char* op = "aten::" #name "_.Scalar";                                                   \
    return compareInto<Compare>(op, self, binaryOperands(op, self, other), self, OutputRole::InPlace);     \
  }

SY_DEFINE_COMPARISON_KERNELS(eq, Equal)
SY_DEFINE_COMPARISON_KERNELS(ne, NotEqual)
SY_DEFINE_COMPARISON_KERNELS(lt, Less)
SY_DEFINE_COMPARISON_KERNELS(gt, Greater)
#undef SY_DEFINE_COMPARISON_KERNELS

}  // namespace native
}  // namespace sy::cpu
