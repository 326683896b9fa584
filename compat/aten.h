// ATen's function API in PyTorch's spellings: at::add(...)-style operator functions, the factories
// (at::empty_like, at::empty_strided, ...), TensorOptions builders (at::device(kCPU).dtype(kFloat)),
// at::_ops::<op>::call / redispatch, Layout, MemoryFormat and OptionalIntArrayRef:
//
//   at::Tensor y = at::add(x, at::ones_like(x), /*alpha=*/2);
//   at::Tensor z = at::empty({2, 3}, at::device(at::kCPU).dtype(at::kFloat));
//   at::Tensor w = at::_ops::mul_Tensor::call(y, z);
//   at::Tensor r = at::_ops::add_Tensor::redispatch(ks.remove(c10::DispatchKey::PrivateUse1), a, b, 1);
//
// Included by <switchyard/compat/torch.h>. Every at:: operator function is the sy::ops function of
// the same name (ops/ops.h, generated from the kernel YAML): a call through the dispatcher, out=
// forms taking `out` first, as ATen's at::add_out does. at::_ops has a struct for the operators
// listed below (PyTorch generates one for every operator; Switchyard's generator does not yet).
#pragma once

#include <optional>

#include "switchyard/switchyard.h"

namespace c10 {
using sy::Layout;
using sy::MemoryFormat;
using sy::OptionalIntArrayRef;
inline constexpr Layout kStrided = Layout::Strided;
// c10::TensorOptions and its builders, as at:: has them (below).
using sy::TensorOptions;
}  // namespace c10

namespace at {
// Every operator function: at::add, at::mul_out, at::relu, at::mm, at::sum, at::view, ...
using namespace sy::ops;  // NOLINT: ATen's function namespace is the operator namespace

using c10::kStrided;
using sy::Device;
using sy::DispatchKeySet;
using sy::IntArrayRef;
using sy::Layout;
using sy::Scalar;
using sy::ScalarType;
using sy::Tensor;
using sy::TensorOptions;
using sy::MemoryFormat;
using sy::OptionalIntArrayRef;

// aten::empty.memory_format with a memory format (at::empty(size, options) is sy::ops::empty).
Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format);

// TensorOptions builders: at::device(kCPU).dtype(kFloat).
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
inline TensorOptions layout(Layout l) { return TensorOptions().layout(l); }

// Conversions ATen code uses around TypeMeta (Switchyard's dtype is the ScalarType itself).
inline constexpr ScalarType typeMetaToScalarType(ScalarType t) { return t; }
inline constexpr ScalarType optTypeMetaToScalarType(std::optional<ScalarType> t) {
  return t.value_or(ScalarType::Float);
}

namespace _ops {
namespace detail {
// One operator's struct: its schema's name and overload, and call/redispatch with the operator's
// C++ signature (so braced lists and Scalars convert as in a direct call).
template <class Op, class Sig>
struct AtenOp;
template <class Op, class Ret, class... Args>
struct AtenOp<Op, Ret(Args...)> {
  using schema = Ret(Args...);
  static sy::TypedOperatorHandle<schema> typed_handle() {
    static const sy::TypedOperatorHandle<schema> handle =
        sy::Dispatcher::singleton().findSchemaOrThrow(Op::name, Op::overload_name).template typed<schema>();
    return handle;
  }
  static Ret call(Args... args) { return typed_handle().call(std::forward<Args>(args)...); }
  static Ret redispatch(DispatchKeySet ks, Args... args) {
    return typed_handle().redispatch(ks, std::forward<Args>(args)...);
  }
};
}  // namespace detail

#define SY_COMPAT_ATEN_OP(ident, op_name, overload, ...)              \
  struct ident : detail::AtenOp<ident, __VA_ARGS__> {                 \
    static constexpr const char* name = op_name;                      \
    static constexpr const char* overload_name = overload;            \
  }

using OptMemoryFormat = std::optional<MemoryFormat>;
using OptScalarType = std::optional<ScalarType>;
SY_COMPAT_ATEN_OP(add_Tensor, "aten::add", "Tensor", Tensor(const Tensor&, const Tensor&, const Scalar&));
SY_COMPAT_ATEN_OP(add_Scalar, "aten::add", "Scalar", Tensor(const Tensor&, const Scalar&, const Scalar&));
SY_COMPAT_ATEN_OP(add_out, "aten::add", "out", Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&));
SY_COMPAT_ATEN_OP(add__Tensor, "aten::add_", "Tensor", Tensor&(Tensor&, const Tensor&, const Scalar&));
SY_COMPAT_ATEN_OP(sub_Tensor, "aten::sub", "Tensor", Tensor(const Tensor&, const Tensor&, const Scalar&));
SY_COMPAT_ATEN_OP(mul_Tensor, "aten::mul", "Tensor", Tensor(const Tensor&, const Tensor&));
SY_COMPAT_ATEN_OP(mul_Scalar, "aten::mul", "Scalar", Tensor(const Tensor&, const Scalar&));
SY_COMPAT_ATEN_OP(mul__Tensor, "aten::mul_", "Tensor", Tensor&(Tensor&, const Tensor&));
SY_COMPAT_ATEN_OP(div_Tensor, "aten::div", "Tensor", Tensor(const Tensor&, const Tensor&));
SY_COMPAT_ATEN_OP(mm, "aten::mm", "", Tensor(const Tensor&, const Tensor&));
SY_COMPAT_ATEN_OP(addmm, "aten::addmm", "", Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&));
SY_COMPAT_ATEN_OP(relu, "aten::relu", "", Tensor(const Tensor&));
SY_COMPAT_ATEN_OP(neg, "aten::neg", "", Tensor(const Tensor&));
SY_COMPAT_ATEN_OP(sum, "aten::sum", "", Tensor(const Tensor&, OptScalarType));
SY_COMPAT_ATEN_OP(view, "aten::view", "", Tensor(const Tensor&, IntArrayRef));
SY_COMPAT_ATEN_OP(clone, "aten::clone", "", Tensor(const Tensor&, OptMemoryFormat));
SY_COMPAT_ATEN_OP(copy_, "aten::copy_", "", Tensor&(Tensor&, const Tensor&, bool));
SY_COMPAT_ATEN_OP(_copy_from, "aten::_copy_from", "", Tensor(const Tensor&, const Tensor&, bool));
SY_COMPAT_ATEN_OP(_copy_from_and_resize, "aten::_copy_from_and_resize", "", Tensor(const Tensor&, const Tensor&));
SY_COMPAT_ATEN_OP(resize_, "aten::resize_", "", const Tensor&(const Tensor&, IntArrayRef, OptMemoryFormat));
SY_COMPAT_ATEN_OP(empty_memory_format, "aten::empty", "memory_format",
                  Tensor(IntArrayRef, OptScalarType, std::optional<Layout>, std::optional<Device>, std::optional<bool>,
                         OptMemoryFormat));
SY_COMPAT_ATEN_OP(empty_strided, "aten::empty_strided", "",
                  Tensor(IntArrayRef, IntArrayRef, OptScalarType, std::optional<Layout>, std::optional<Device>,
                         std::optional<bool>));
SY_COMPAT_ATEN_OP(_to_copy, "aten::_to_copy", "",
                  Tensor(const Tensor&, OptScalarType, std::optional<Layout>, std::optional<Device>,
                         std::optional<bool>, bool, OptMemoryFormat));
#undef SY_COMPAT_ATEN_OP
}  // namespace _ops

inline Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  return _ops::empty_memory_format::call(size, options.dtype_opt(), std::nullopt, options.device(), std::nullopt,
                                         memory_format);
}
}  // namespace at
