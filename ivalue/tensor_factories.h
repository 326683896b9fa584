// Tensor factories: make tensors from sizes, fill values, ranges and C++ vectors.
//
//   sy::Tensor a = sy::zeros({2, 3});                                  // Float on CPU
//   sy::Tensor b = sy::full({4}, 2.5, sy::TensorOptions().dtype(sy::ScalarType::Double));
//   sy::Tensor c = sy::tensor<int64_t>({1, 2, 3, 4}, {2, 2});
//   bool same = sy::allclose(a, b);
//
// These allocate directly with the device's allocator; `sy::ops::empty` is the same allocation as
// an operator call through the dispatcher.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

struct TensorOptions {
  ScalarType dtype_ = ScalarType::Float;
  Device device_ = kCPU;
  // False while dtype_ is only the Float default, so factories that infer a dtype (arange) may.
  bool has_dtype_ = false;

  TensorOptions() = default;
  TensorOptions(ScalarType d) : dtype_(d), has_dtype_(true) {}  // NOLINT: implicit, like at::TensorOptions
  TensorOptions(Device d) : device_(d) {}     // NOLINT
  TensorOptions(DeviceType t) : device_(t) {}  // NOLINT: at::TensorOptions(kCPU)
  TensorOptions(Layout) {}                      // NOLINT: Strided is the only layout
  TensorOptions dtype(ScalarType d) const { TensorOptions o = *this; o.dtype_ = d; o.has_dtype_ = true; return o; }
  TensorOptions dtype(std::optional<ScalarType> d) const { return d ? dtype(*d) : *this; }
  TensorOptions device(Device d) const { TensorOptions o = *this; o.device_ = d; return o; }
  TensorOptions device(std::optional<Device> d) const { return d ? device(*d) : *this; }
  TensorOptions device(DeviceType t, DeviceIndex index = -1) const { return device(Device(t, index)); }
  // Accepted for PyTorch's spelling; Strided is the only layout.
  TensorOptions layout(Layout) const { return *this; }
  TensorOptions layout(std::optional<Layout>) const { return *this; }

  // PyTorch's getters: the dtype (Float by default), the device (the CPU by default).
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }
  Layout layout() const { return Layout::Strided; }
  bool has_dtype() const { return has_dtype_; }
  std::optional<ScalarType> dtype_opt() const { return has_dtype_ ? std::optional<ScalarType>(dtype_) : std::nullopt; }
  std::optional<Device> device_opt() const { return device_; }
  DeviceIndex device_index() const { return device_.index(); }
};

// Uninitialised contiguous tensor.
Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
// A tensor over memory the caller provides (PyTorch's from_blob), on options' device: nothing is
// copied. Without a deleter the caller keeps the memory alive for as long as the tensor and its
// views; with one, deleter(data) runs when the last of them is gone.
Tensor fromBlob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor fromBlob(void* data, IntArrayRef sizes, TensorOptions options = {});
Tensor fromBlob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter, TensorOptions options = {});
// What a device backend's aten::empty.memory_format and aten::empty_strided kernels return (PyTorch's
// at::detail::empty_generic and empty_strided_generic): memory from `allocator`, on the device the
// allocation names, and the dispatch keys `ks`. memory_format: Contiguous (the default) or
// ChannelsLast (a 4-D size); Preserve is an error, as there is nothing to preserve.
Tensor emptyGeneric(IntArrayRef sizes, Allocator* allocator, DispatchKeySet ks, ScalarType dtype,
                    std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor emptyStridedGeneric(IntArrayRef sizes, IntArrayRef strides, Allocator* allocator, DispatchKeySet ks,
                           ScalarType dtype);
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options = {});
// [start, end) in steps of `step`; Long when all three are integers, else Float (as in PyTorch),
// unless options name a dtype.
Tensor arange(const Scalar& end);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options);
// Wraps a copy of `values`; `sizes` defaults to 1-D. The dtype follows T.
template <class T>
Tensor tensor(const std::vector<T>& values, IntArrayRef sizes = {});
Tensor tensor(std::initializer_list<float> values);

// Element-wise |a - b| <= atol + rtol * |b| on CPU tensors of equal shape (any dtypes);
// NaNs compare equal only when `equal_nan`.
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);

// Sets every element of a CPU tensor (any strides) to `value`.
void fillCPU(const Tensor& t, const Scalar& value);

}  // namespace sy
