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
// mix freely. at::empty, at::zeros, at::ones and at::full are operator calls through the
// dispatcher, as in PyTorch, so modes and fallbacks see them. c10::ArrayRef (compat/array_ref.h),
// c10::Dict (compat/dict.h, schema type `Dict(K, V)`) and a device backend's kit (compat/device.h:
// the allocator, the device's name, DeviceGuard, at::native::cpu_fallback) have files of their own.
// What differs from PyTorch is listed in README.md, "Porting PyTorch backend code".
//
// Note [Keys free for a backend of your own]
// Only the dispatch keys Switchyard has exist. The library's own backends and fallbacks take CPU,
// Accel, ZeroTensor and Profiler, so a backend of your own goes on PrivateUse1, PrivateUse2 or
// PrivateUse3 (and its autograd key on AutogradPrivateUse1..3). PyTorch's other device types
// (c10::DeviceType::CUDA, HIP, XLA, MPS, XPU, Meta, Lazy) name no backend here: allocating on one
// or registering a kernel with `torch::dispatch(c10::DeviceType::CUDA, fn)` raises an error that
// says so, and `TORCH_LIBRARY_IMPL(ns, CUDA, m)` does not compile (DispatchKey has no CUDA). Port
// such code by naming PrivateUse1 where it names CUDA.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "switchyard/compat/array_ref.h"
#include "switchyard/compat/aten.h"
#include "switchyard/ivalue/cpu_generator.h"
#include "switchyard/compat/device.h"
#include "switchyard/compat/dict.h"
#include "switchyard/compat/macros.h"
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
using sy::KernelFunction;
using sy::Layout;
using sy::MemoryFormat;
using sy::OperatorHandle;
using sy::OperatorKernel;
using sy::OperatorName;
using sy::Scalar;
using sy::ScalarType;
using sy::Stack;
using sy::Storage;
using sy::StorageImpl;
using sy::TensorImpl;
using sy::TypedOperatorHandle;
using sy::intrusive_ptr;
using sy::make_intrusive;
using sy::elementSize;
using sy::isFloatingType;
using sy::isIntegralType;
using sy::isComplexType;
using sy::promoteTypes;
using sy::canCast;
// The element types (core/half.h, core/bfloat16.h, core/float8.h, core/complex.h, core/opaque_types.h).
using Half = sy::Half;
using BFloat16 = sy::BFloat16;
using Float8_e5m2 = sy::Float8_e5m2;
using Float8_e4m3fn = sy::Float8_e4m3fn;
using Float8_e5m2fnuz = sy::Float8_e5m2fnuz;
using Float8_e4m3fnuz = sy::Float8_e4m3fnuz;
template <class T>
using complex = sy::Complex<T>;
using sy::qint32;
using sy::qint8;
using sy::quint2x4;
using sy::quint4x2;
using sy::quint8;
template <class T>
using optional = std::optional<T>;
using std::nullopt;

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;
// Device types without a backend here (see Note [Keys free for a backend of your own]).
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
inline constexpr DeviceType kHIP = DeviceType::HIP;
inline constexpr DeviceType kXLA = DeviceType::XLA;
inline constexpr DeviceType kMPS = DeviceType::MPS;
inline constexpr DeviceType kXPU = DeviceType::XPU;
inline constexpr DeviceType kMeta = DeviceType::Meta;
inline constexpr DeviceType kLazy = DeviceType::Lazy;

// Every autograd key: what at::AutoDispatchBelowAutograd excludes.
inline constexpr DispatchKeySet autograd_dispatch_keyset = sy::kAutogradKeys;

namespace impl {
using sy::ExcludeDispatchKeyGuard;
using sy::IncludeDispatchKeyGuard;
}  // namespace impl

// c10::List<T>: a list of T that boxes as the matching IValue list (int[], float[], bool[],
// Tensor[], or a generic list for List<IValue>). As in PyTorch, a List is a reference to its
// elements: a copy shares them, so a write through one copy is seen through every other (copy()
// makes an independent list). Boxing copies the elements into the IValue, whose lists are values.
template <class T>
class List {
 public:
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  List() : elements_(std::make_shared<std::vector<T>>()) {}
  List(std::initializer_list<T> values) : elements_(std::make_shared<std::vector<T>>(values)) {}
  explicit List(std::vector<T> values) : elements_(std::make_shared<std::vector<T>>(std::move(values))) {}
  explicit List(ArrayRef<T> values) : elements_(std::make_shared<std::vector<T>>(values.begin(), values.end())) {}

  size_t size() const { return elements_->size(); }
  bool empty() const { return elements_->empty(); }
  T get(size_t i) const { return elements_->at(i); }
  void set(size_t i, T value) const { elements_->at(i) = std::move(value); }
  T operator[](size_t i) const { return get(i); }
  void push_back(T value) const { elements_->push_back(std::move(value)); }
  template <class... Args>
  void emplace_back(Args&&... args) const {
    elements_->emplace_back(std::forward<Args>(args)...);
  }
  void reserve(size_t n) const { elements_->reserve(n); }
  void clear() const { elements_->clear(); }
  void resize(size_t n) const { elements_->resize(n); }
  iterator begin() const { return elements_->begin(); }
  iterator end() const { return elements_->end(); }
  // A copy of the elements.
  std::vector<T> vec() const { return *elements_; }
  // An independent list with the same elements (a plain copy shares them).
  List copy() const { return List(*elements_); }
  // How many Lists share these elements.
  size_t use_count() const { return static_cast<size_t>(elements_.use_count()); }
  bool is(const List& other) const { return elements_ == other.elements_; }

  operator IValue() const {  // NOLINT: boxes implicitly, as in PyTorch
    const std::vector<T>& elements = *elements_;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, sy::Tensor> || std::is_same_v<T, IValue>) {
      return IValue(elements);
    } else if constexpr (std::is_floating_point_v<T>) {
      return IValue(std::vector<double>(elements.begin(), elements.end()));
    } else if constexpr (std::is_integral_v<T>) {
      return IValue(std::vector<int64_t>(elements.begin(), elements.end()));
    } else {
      std::vector<IValue> boxed(elements.begin(), elements.end());
      return IValue(std::move(boxed));
    }
  }

  friend bool operator==(const List& a, const List& b) { return *a.elements_ == *b.elements_; }
  friend bool operator!=(const List& a, const List& b) { return !(a == b); }

 private:
  std::shared_ptr<std::vector<T>> elements_;
};

// Autograd's guard (autograd/autograd.h): nothing is recorded while it lives.
using sy::InferenceMode;
}  // namespace c10

namespace sy {
namespace detail {
// Kernel parameters spelled c10::ArrayRef<T> (see Note [c10::ArrayRef is an absl::Span with PyTorch's members]).
template <class T>
struct SchemaTypeOf<c10::ArrayRef<T>> : SchemaTypeOf<absl::Span<const T>> {};
template <>
struct IValueToArg<c10::ArrayRef<int64_t>> {
  static c10::ArrayRef<int64_t> get(IValue& v) { return v.toIntList(); }
};
template <>
struct IValueToArg<c10::ArrayRef<double>> {
  static c10::ArrayRef<double> get(IValue& v) { return c10::ArrayRef<double>(v.toDoubleList()); }
};
template <>
struct IValueToArg<c10::ArrayRef<Tensor>> {
  static c10::ArrayRef<Tensor> get(IValue& v) { return v.toTensorList(); }
};
}  // namespace detail

// IValue::to<c10::List<T>>().
template <class T>
struct IValueTo<c10::List<T>> {
  static c10::List<T> get(const IValue& v) {
    if constexpr (std::is_same_v<T, IValue>) {
      return c10::List<T>(v.toList());
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      c10::List<T> list;
      for (int64_t x : v.toIntList()) list.push_back(static_cast<T>(x));
      return list;
    } else {
      return c10::List<T>(v.to<std::vector<T>>());
    }
  }
};
}  // namespace sy

namespace caffe2 {
// PyTorch's dtype object, as far as making tensors needs it: converts to and from ScalarType.
class TypeMeta {
 public:
  constexpr TypeMeta(sy::ScalarType t = sy::ScalarType::Float) : type_(t) {}  // NOLINT
  template <class T>
  static constexpr TypeMeta Make() {
    return TypeMeta(sy::CppTypeToScalarType<T>::value);
  }
  static constexpr TypeMeta fromScalarType(sy::ScalarType t) { return TypeMeta(t); }
  constexpr sy::ScalarType toScalarType() const { return type_; }
  constexpr operator sy::ScalarType() const { return type_; }  // NOLINT

 private:
  sy::ScalarType type_;
};
}  // namespace caffe2

namespace torch {
// Seeds the generator rand, randn and native_dropout draw from
// (See Note [The CPU generator draws as PyTorch's does] in ivalue/cpu_generator.h).
inline void manual_seed(uint64_t seed) { sy::manualSeed(seed); }
using sy::CppFunction;
using sy::Library;
using sy::dispatch;
// Autograd's guard (autograd/autograd.h).
using sy::NoGradGuard;
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
using torch::manual_seed;
using c10::ArrayRef;
using c10::kCPU;
using sy::Device;
using sy::DeviceType;
using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::IntArrayRef;
using sy::Layout;
using sy::MemoryFormat;
using sy::Scalar;
using sy::ScalarType;
using sy::Tensor;
using sy::TensorImpl;
using sy::TensorList;
using sy::TensorOptions;
// Operator calls through the dispatcher (aten::empty.memory_format, aten::zeros, ...).
using sy::ops::empty;
using sy::ops::empty_strided;
using sy::ops::full;
using sy::ops::ones;
using sy::ops::zeros;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
inline constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
inline constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
inline constexpr ScalarType kQInt8 = ScalarType::QInt8;
inline constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
inline constexpr ScalarType kQInt32 = ScalarType::QInt32;
inline constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
inline constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
inline constexpr ScalarType kFloat8_e5m2fnuz = ScalarType::Float8_e5m2fnuz;
inline constexpr ScalarType kFloat8_e4m3fnuz = ScalarType::Float8_e4m3fnuz;
inline constexpr ScalarType kUInt16 = ScalarType::UInt16;
inline constexpr ScalarType kUInt32 = ScalarType::UInt32;
inline constexpr ScalarType kUInt64 = ScalarType::UInt64;
using c10::BFloat16;
using c10::Half;

// Calls below this guard skip every autograd key: what an autograd kernel uses to reach the
// backend kernel it wraps.
class AutoDispatchBelowAutograd {
 public:
  AutoDispatchBelowAutograd() : guard_(c10::autograd_dispatch_keyset) {}

 private:
  sy::ExcludeDispatchKeyGuard guard_;
};
using sy::NoGradGuard;

// A tensor over memory the caller provides (sy::fromBlob): nothing is copied; with a deleter, it
// runs when the last tensor viewing the memory is gone.
inline Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options = {}) {
  return sy::fromBlob(data, sizes, strides, options);
}
inline Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {}) {
  return sy::fromBlob(data, sizes, options);
}
inline Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                        const TensorOptions& options = {}) {
  return sy::fromBlob(data, sizes, deleter, options);
}

namespace detail {
// A Tensor whose impl is a new Impl(args...): how a backend makes its own tensors.
template <class Impl, class... Args>
Tensor make_tensor(Args&&... args) {
  return Tensor(sy::make_intrusive<Impl>(std::forward<Args>(args)...));
}
}  // namespace detail
}  // namespace at

#define TORCH_LIBRARY SY_LIBRARY
#define TORCH_LIBRARY_FRAGMENT SY_LIBRARY_FRAGMENT
#define TORCH_LIBRARY_IMPL SY_LIBRARY_IMPL
#define TORCH_FN SY_FN
// A Library object for the scope it is stored in, rather than for the whole process.
#define MAKE_TORCH_LIBRARY(ns) ::torch::Library(::torch::Library::DEF, #ns, std::nullopt, __FILE__, __LINE__)
#define MAKE_TORCH_LIBRARY_IMPL(ns, k) \
  ::torch::Library(::torch::Library::IMPL, #ns, ::c10::DispatchKey::k, __FILE__, __LINE__)
