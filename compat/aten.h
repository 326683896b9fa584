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
// forms taking `out` first, as ATen's at::add_out does. at::_ops has a struct for every aten::
// operator, generated as PyTorch generates them (switchyard/ops/Operators.h).
#pragma once

#include <optional>

#include "switchyard/ops/Operators.h"
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

// PyTorch's at::_ops: a struct per aten:: operator Switchyard has (add_Tensor, add__Tensor, add_out,
// mm, ...), generated from the kernel YAML (sy::_ops, ops/operator_struct.h), and by hand for the
// two operators registered by hand.
namespace _ops {
using namespace ::sy::_ops;  // NOLINT: the generated structs are at::_ops's
struct resize_ : sy::detail::OperatorStruct<resize_, const Tensor&(const Tensor&, IntArrayRef, std::optional<MemoryFormat>)> {
  static constexpr const char* name = "aten::resize_";
  static constexpr const char* overload_name = "";
};
struct empty_memory_format
    : sy::detail::OperatorStruct<empty_memory_format,
                                 Tensor(IntArrayRef, std::optional<ScalarType>, std::optional<Layout>,
                                        std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>)> {
  static constexpr const char* name = "aten::empty";
  static constexpr const char* overload_name = "memory_format";
};
}  // namespace _ops

inline Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  return _ops::empty_memory_format::call(size, options.dtype_opt(), std::nullopt, options.device(), std::nullopt,
                                         memory_format);
}
}  // namespace at
