// sy::OptionalTensorListRef: the C++ type of a `Tensor?[]` argument (a list of optional tensors,
// as index.Tensor's and index_put's `indices`), a view like PyTorch's IOptTensorListRef and in
// the spirit of ExecuTorch's ArrayRef<optional<Tensor>>. It refers either to the elements of a boxed
// generic list (each None or a Tensor; what a Stack and a loaded program hold) or to a C++ caller's
// optional tensors, so neither an unboxed nor a boxed call copies the list:
//
//   sy::ops::index(x, {std::nullopt, rows});   // x[:, rows]
//   for (size_t i = 0; i < indices.size(); ++i)
//     if (const sy::Tensor* t = indices.get(i)) ...   // nullptr for None
//
// It refers to the caller's values, which live until the end of the full expression of the call.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

class OptionalTensorListRef {
 public:
  // All implicit, so that a call reads index(x, {std::nullopt, rows}).
  OptionalTensorListRef() = default;
  OptionalTensorListRef(absl::Span<const std::optional<Tensor>> items)  // NOLINT
      : optionals_(items.data()), size_(items.size()) {}
  // A braced list lives until the end of the full expression, which is what a call needs (as
  // for c10::ArrayRef). Through a Span, so that the compiler does not warn about the member
  // outliving the list in every file that includes this one.
  OptionalTensorListRef(std::initializer_list<std::optional<Tensor>> items)  // NOLINT
      : OptionalTensorListRef(absl::Span<const std::optional<Tensor>>(items.begin(), items.size())) {}
  OptionalTensorListRef(const std::vector<std::optional<Tensor>>& items)  // NOLINT
      : optionals_(items.data()), size_(items.size()) {}

  OptionalTensorListRef(TensorList items)  // NOLINT: a Tensor[] has no None
      : tensors_(items.data()), size_(items.size()) {}

  // The elements of a boxed list, each None or a Tensor; anything else raises, naming it.
  static OptionalTensorListRef ofIValues(absl::Span<const IValue> items) {
    for (size_t i = 0; i < items.size(); ++i) {
      SY_CHECK_TYPE(items[i].isNone() || items[i].isTensor(), "a Tensor?[] holds None or tensors, but element ", i, " is ",
               toString(items[i].tag()));
    }
    OptionalTensorListRef ref;
    ref.ivalues_ = items.data();
    ref.size_ = items.size();
    return ref;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Element i, or nullptr where it is None.
  const Tensor* get(size_t i) const {
    if (ivalues_ != nullptr) return ivalues_[i].isNone() ? nullptr : &ivalues_[i].toTensor();
    if (tensors_ != nullptr) return &tensors_[i];
    return optionals_[i].has_value() ? &*optionals_[i] : nullptr;
  }

  // The boxed form: a generic list of None and tensors.
  IValue toIValue() const {
    std::vector<IValue> items;
    items.reserve(size_);
    for (size_t i = 0; i < size_; ++i) {
      const Tensor* t = get(i);
      items.push_back(t != nullptr ? IValue(*t) : IValue());
    }
    return IValue(std::move(items));
  }

 private:
  const std::optional<Tensor>* optionals_ = nullptr;
  const IValue* ivalues_ = nullptr;
  const Tensor* tensors_ = nullptr;
  size_t size_ = 0;
};

}  // namespace sy
