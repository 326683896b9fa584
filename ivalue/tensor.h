// Tensor: a handle (one pointer) to a refcounted TensorImpl.
//
// Copying a Tensor shares the impl; moving it touches no count. An undefined Tensor holds null.
// Geometry accessors read the impl directly; the methods that compute (`copy_`, `to`) are operator
// calls through the dispatcher and are defined in ops/.
//
//   sy::Tensor t = sy::ones({2, 3});
//   sy::Tensor u = sy::ops::sin(t);
//   std::cout << u;   // tensor([[0.8415, 0.8415, 0.8415],
//                     //         [0.8415, 0.8415, 0.8415]])
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/types/span.h"

#include "switchyard/core/error.h"
#include "switchyard/ivalue/intrusive_ptr.h"
#include "switchyard/ivalue/load_element.h"
#include "switchyard/core/macros.h"
#include "switchyard/ivalue/optional_int_array_ref.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/sizes_ref.h"
#include "switchyard/ivalue/tensor_impl.h"

namespace sy {

// See Note [Undefined tensors point at a sentinel].
using TensorImplPtr = intrusive_ptr<TensorImpl, UndefinedTensorImpl>;

struct TensorOptions;  // ivalue/tensor_factories.h
// The generated methods' parameter types that are declared after class Tensor.
class Tensor;
using TensorList = absl::Span<const Tensor>;  // as in ivalue/ivalue.h
class OptionalTensorListRef;                  // ivalue/optional_tensor_list_ref.h

class Tensor {
 public:
  Tensor() = default;
  template <class Impl, class NullType>
  explicit Tensor(intrusive_ptr<Impl, NullType> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }
  // The impl; UndefinedTensorImpl::singleton() for an undefined tensor.
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const TensorImplPtr& getIntrusivePtr() const { return impl_; }
  uint32_t use_count() const { return impl_.use_count(); }
  // True when both handles share one TensorImpl.
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  // Key set of the tensor, empty for an undefined one; one load, no branch (the sentinel's is empty).
  DispatchKeySet key_set() const { return impl_->key_set(); }

  // Spans over the impl's own values; `.vec()` copies them out (See Note [A tensor's sizes are a
  // Span with vec()] in ivalue/sizes_ref.h).
  SizesRef sizes() const { return checkedImpl()->sizes(); }
  SizesRef strides() const { return checkedImpl()->strides(); }
  int64_t size(int64_t dim) const { return checkedImpl()->size(dim); }
  int64_t stride(int64_t dim) const { return checkedImpl()->stride(dim); }
  int64_t dim() const { return checkedImpl()->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return checkedImpl()->numel(); }
  ScalarType scalar_type() const { return checkedImpl()->dtype(); }
  ScalarType dtype() const { return scalar_type(); }
  Device device() const { return checkedImpl()->device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_privateuseone() const { return device().is_privateuseone(); }
  Layout layout() const { return Layout::Strided; }
  // This tensor's dtype and device, for making tensors like it: at::empty(size, t.options()).
  TensorOptions options() const;
  bool is_contiguous() const { return checkedImpl()->is_contiguous(); }
  int64_t storage_offset() const { return checkedImpl()->storage_offset(); }
  const Storage& storage() const { return checkedImpl()->storage(); }
  size_t element_size() const { return elementSize(scalar_type()); }

  // The order of dimensions from outermost to innermost in memory (ExecuTorch's dim order):
  // {0, 1, ..., n-1} for a contiguous tensor, {0, 2, 3, 1} for channels-last NCHW.
  SizesVector dim_order() const;

  void* data_ptr() const { return checkedImpl()->data(); }
  // Typed element pointer; raises when T does not match the dtype.
  template <class T>
  T* data_ptr() const {
    checkDtype(CppTypeToScalarType<T>::value);
    return static_cast<T*>(checkedImpl()->data());
  }
  template <class T>
  const T* const_data_ptr() const { return data_ptr<T>(); }

  // The value of a one-element CPU tensor, converted to T.
  template <class T>
  T item() const;

  // Reshapes in place with contiguous strides (ChannelsLast ones for that memory format), growing
  // the storage if needed: aten::resize_, called directly for a CPU tensor without a memory format
  // (as the CPU kernels resize their outputs) and through the dispatcher otherwise, so a device's
  // backend resizes its own tensors.
  const Tensor& resize_(IntArrayRef sizes, std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // A copy on `device` (this tensor itself when already there).
  Tensor to(Device device) const;
  Tensor to(DeviceType type) const { return to(Device(type)); }
  // A copy converted to `dtype` (this tensor itself when it already has it): aten::_to_copy.
  Tensor to(ScalarType dtype) const;
  // A copy with options' device and dtype (this tensor itself when it already has both).
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;

  // ---- The operators as methods, as PyTorch's Tensor has them ----
  // One per aten:: operator whose first argument is `Tensor self` (t.add(u), t.add_(u), t.sum({0}),
  // t.view({2, 3}), ...), generated from the kernel YAML and defined in ops/ (See Note [Tensor
  // methods are generated with the library] in codegen/emit_functions.cpp). Each is the sy::ops
  // function of the same name with this tensor as `self`: one call through the dispatcher; the
  // in-place forms return this tensor.
#ifndef SY_CODEGEN_BOOTSTRAP  // See Note [The generator is built from ivalue/ without the Tensor methods it writes]
#include "switchyard/ops/TensorMethods.h"
#endif

  // ---- Autograd (defined in autograd/; see autograd/autograd.h) ----
  // Makes a floating-point tensor a leaf whose gradient backward accumulates into grad(); false
  // turns that off again (refused for a tensor a recorded call made).
  const Tensor& requires_grad_(bool requires_grad = true) const;
  // True for a leaf that requires grad and for every result of a call recorded from one.
  bool requires_grad() const;
  // True unless a recorded call made this tensor.
  bool is_leaf() const;
  // The gradient backward accumulated (undefined before the first backward).
  const Tensor& grad() const;
  // The same slot, to reset between steps (`w.mutable_grad() = sy::Tensor()`) or to set.
  Tensor& mutable_grad() const;
  // sy::backward(*this, gradient, retain_graph).
  void backward(const Tensor& gradient = Tensor(), bool retain_graph = false) const;
  // The same memory under a new handle with no autograd history, which does not require grad.
  Tensor detach() const;

  std::string toString() const;

 private:
  // Inlined everywhere a kernel reads a tensor's geometry, so the error is built out of line.
  TensorImpl* checkedImpl() const {
    if (SY_UNLIKELY(!defined())) throwUndefined();
    return impl_.get();
  }
  [[noreturn]] static void throwUndefined();
  void checkDtype(ScalarType expected) const;

  TensorImplPtr impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

// Sizes spelled as a Python tuple, as PyTorch messages show them: "(2, 3)", "(3,)", "()".
std::string formatSizes(IntArrayRef sizes);

template <class T>
T Tensor::item() const {
  SY_CHECK(numel() == 1, "item(): a Tensor with ", numel(), " elements cannot be converted to a scalar");
  SY_CHECK(is_cpu(), "item(): tensor is on ", device().str(), "; copy it to the CPU first");
  const void* p = data_ptr();
  T value{};
  const bool known = visitScalarType(scalar_type(), [&](auto tag) {
    using Element = typename decltype(tag)::type;
    value = static_cast<T>(loadElement(static_cast<const Element*>(p)));  // See Note [Bool elements are read as bytes]
  });
  SY_CHECK(known, "item(): unsupported dtype ", scalar_type());
  return value;
}

}  // namespace sy
