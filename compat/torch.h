// PyTorch spellings for Switchyard, so backend code written against torch/library.h and c10
// compiles unchanged:
//
//   #include <switchyard/compat/torch.h>
//   void backend_fallback(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
//     op.redispatchBoxed(ks.remove(c10::DispatchKey::PrivateUse1), stack);
//   }
//   TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
//     m.fallback(torch::CppFunction::makeFromBoxedFunction<&backend_fallback>());
//   }
//
// The names are aliases of the sy:: ones (c10::DispatchKey is sy::DispatchKey), so both spellings
// mix freely. Only the dispatch keys Switchyard has exist: map your backend to CPU, Accel or one of
// PrivateUse1..3.
#pragma once

#include <optional>

#include "switchyard/switchyard.h"

namespace c10 {
using sy::Device;
using sy::DeviceType;
using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Dispatcher;
using sy::Error;
using sy::FunctionSchema;
using sy::IntArrayRef;
using sy::IValue;
using sy::Layout;
using sy::MemoryFormat;
using sy::OperatorHandle;
using sy::OperatorKernel;
using sy::OperatorName;
using sy::Scalar;
using sy::ScalarType;
using sy::TypedOperatorHandle;
using sy::intrusive_ptr;
using sy::make_intrusive;
template <class T>
using optional = std::optional<T>;
using std::nullopt;
namespace impl {
using sy::ExcludeDispatchKeyGuard;
using sy::IncludeDispatchKeyGuard;
}  // namespace impl
}  // namespace c10

namespace torch {
using sy::CppFunction;
using sy::Library;
using sy::dispatch;
namespace jit {
using sy::Stack;
using sy::drop;
using sy::last;
using sy::peek;
using sy::pop;
using sy::push;
}  // namespace jit
}  // namespace torch

namespace at {
using sy::Device;
using sy::IntArrayRef;
using sy::Scalar;
using sy::ScalarType;
using sy::Tensor;
using sy::TensorList;
using sy::TensorOptions;
using sy::empty;
using sy::full;
using sy::ones;
using sy::zeros;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kBool = ScalarType::Bool;
}  // namespace at

#define TORCH_LIBRARY SY_LIBRARY
#define TORCH_LIBRARY_FRAGMENT SY_LIBRARY_FRAGMENT
#define TORCH_LIBRARY_IMPL SY_LIBRARY_IMPL
#define TORCH_FN SY_FN
#define TORCH_CHECK SY_CHECK
