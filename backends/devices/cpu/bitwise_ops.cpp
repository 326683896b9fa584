// bitwise_and, bitwise_or and bitwise_xor, and bitwise_left_shift and bitwise_right_shift, on the
// CPU, with a Tensor or a Scalar `other`: one kernel per overload, the out variant's, which also
// serves the functional and in-place forms.
//
// Semantics, as PyTorch's: the operands broadcast and combine in their result type (an Int tensor
// & 3 stays Int, a Bool tensor & True stays Bool, a Bool tensor & 3 is Long), which must be Bool
// or integral (Byte, Char, Short, Int, Long): a floating operand is an error. An out= tensor of another dtype receives the result
// converted, as canCast allows; an in-place self keeps its shape and dtype. The shifts take integral
// result types only (Bool too is an error); a shift by a negative count or by at least the type's
// width gives 0 to the left and the sign (0 or -1; Byte has none, so 0) to the right, and a left shift drops the bits
// shifted out of the type (it shifts the unsigned representation).
#include <climits>
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

// Shift counts are compared as signed values of the operands' type.
struct LeftShift {
  template <class T>
  T operator()(T a, T b) const {
    constexpr T kWidth = static_cast<T>(sizeof(T) * CHAR_BIT);
    if (b < 0 || b >= kWidth) return 0;
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
  }
};
struct RightShift {
  template <class T>
  T operator()(T a, T b) const {
    constexpr T kWidth = static_cast<T>(sizeof(T) * CHAR_BIT);
    // Shifted past the width, a signed value is its sign and an unsigned one (Byte) is 0.
    if (b < 0 || b >= kWidth) return std::is_signed_v<T> ? static_cast<T>(a >> (kWidth - 1)) : T{0};
    return static_cast<T>(a >> b);
  }
};

// The element loop, shared by the Tensor and Scalar forms (See Note [Element loops do not depend on
// the form of other] in elementwise.h).
template <class Combine, unsigned kAllowed>
void combineElements(const char* op, const BinaryInputs& inputs, Tensor& out, ScalarType result) {
  runBinaryLoop<kAllowed>(op, inputs.self(), inputs.other(), out, result, result,
                          [](const LoopGeometry& geometry, auto tag) {
                            using T = typename decltype(tag)::type;
                            runElementwise<T, T, T>(geometry, [](T a, T b) { return Combine{}(a, b); });
                          });
}

// One bitwise kernel, computing in the operands' result dtype, which must be one of `kAllowed` (the
// kernel's generated `<kernel>_dtypes`).
template <class Combine, unsigned kAllowed, class Other>
Tensor& bitwise(const KernelContext& ctx, const Tensor& self, const Other& other, Tensor& out) {
  const char* op = ctx.op;
  const BinaryOperands operands = binaryOperands(op, self, other);
  const ScalarType result = operands.result;
  const OutputRole role = binaryOutputFor(ctx, self, operands.other, result, out);
  checkDtypeSupported(op, "self", result, kAllowed);
  const BinaryInputs inputs = prepareBinaryOutput(op, self, operands.other, out, result, role);
  combineElements<Combine, kAllowed>(op, inputs, out, result);
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/binary_ops.yaml) --------------------------

namespace native {

#define SY_DEFINE_BITWISE_KERNELS(name, Combine)                                                                  \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) { \
    return bitwise<Combine, name##_tensor_out_cpu_dtypes>(ctx, self, other, out);                                 \
  }                                                                                                               \
  Tensor& name##_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out, const KernelContext& ctx) { \
    return bitwise<Combine, name##_scalar_out_cpu_dtypes>(ctx, self, other, out);                                 \
  }

SY_DEFINE_BITWISE_KERNELS(bitwise_and, And)
SY_DEFINE_BITWISE_KERNELS(bitwise_or, Or)
SY_DEFINE_BITWISE_KERNELS(bitwise_xor, Xor)
#undef SY_DEFINE_BITWISE_KERNELS

#define SY_DEFINE_SHIFT_KERNELS(name, Shift)                                                                     \
  Tensor& name##_tensor_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) { \
    return bitwise<Shift, name##_tensor_out_cpu_dtypes>(ctx, self, other, out);                                   \
  }                                                                                                              \
  Tensor& name##_tensor_scalar_out_cpu(const Tensor& self, const Scalar& other, Tensor& out,                    \
                                      const KernelContext& ctx) {                                               \
    return bitwise<Shift, name##_tensor_scalar_out_cpu_dtypes>(ctx, self, other, out);                            \
  }

SY_DEFINE_SHIFT_KERNELS(bitwise_left_shift, LeftShift)
SY_DEFINE_SHIFT_KERNELS(bitwise_right_shift, RightShift)
#undef SY_DEFINE_SHIFT_KERNELS

}  // namespace native
}  // namespace sy::cpu
