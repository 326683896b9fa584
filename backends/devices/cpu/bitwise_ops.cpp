// bitwise_and, bitwise_or and bitwise_xor on the CPU, with a Tensor or a Scalar `other`: one kernel
// per overload, the out variant's, which also serves the functional and in-place forms.
//
// Semantics, as PyTorch's: the operands broadcast and combine in their result type (an Int tensor
// & 3 stays Int, a Bool tensor & True stays Bool, a Bool tensor & 3 is Long), which must be Bool
// or integral: a floating operand is an error. An out= tensor of another dtype receives the result
// converted, as canCast allows; an in-place self keeps its shape and dtype.
#include <type_traits>

#include "switchyard/backends/devices/cpu/binary_kernels.h"
#include "switchyard/backends/devices/cpu/elementwise.h"

namespace sy::cpu {
namespace {

struct And {
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return static_cast<T>(a & b);
    }
  }
};
struct Or {
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return static_cast<T>(a | b);
    }
  }
};
struct Xor {
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a != b;
    } else {
      return static_cast<T>(a ^ b);
    }
  }
};

constexpr unsigned kBitwiseDtypes = kBoolDtype | kIntegralDtypes;

template <class Combine, class Other>
Tensor& bitwise(const KernelContext& ctx, const Tensor& self, const Other& other, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const ScalarType result = operands.result;
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, result, out);
  checkDtypeSupported(op, "self", result, kBitwiseDtypes);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, result, role);
  runBinaryLoop<kBitwiseDtypes>(op, inputs.self(), inputs.other(), out, result, result,
                                [](const LoopGeometry& geometry, auto tag) {
                                  using T = typename decltype(tag)::type;
                                  runElementwise<T, T, T>(geometry, [](T a, T b) { return Combine{}(a, b); });
                                });
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

#define SY_DEFINE_BITWISE_KERNELS(name, Combine)                                                                  \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) { \
    return bitwise<Combine>(ctx, self, other, out);                                                               \
  }                                                                                                               \
  Tensor& name##_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) { \
    return bitwise<Combine>(ctx, self, other, out);                                                               \
  }

SY_DEFINE_BITWISE_KERNELS(bitwise_and, And)
SY_DEFINE_BITWISE_KERNELS(bitwise_or, Or)
SY_DEFINE_BITWISE_KERNELS(bitwise_xor, Xor)
#undef SY_DEFINE_BITWISE_KERNELS

}  // namespace native
}  // namespace sy::cpu
