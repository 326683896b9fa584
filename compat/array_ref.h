// c10::ArrayRef<T>: PyTorch's non-owning view of contiguous elements, for code written against c10.
//
//   at::Tensor t = at::zeros({2, 3});
//   c10::ArrayRef<int64_t> sizes = t.sizes();
//   std::vector<int64_t> grown = sizes.vec();      // an owning copy
//   c10::ArrayRef<int64_t> last = sizes.slice(1);  // [3]
//
// Included by <switchyard/compat/torch.h>.
//
// Note [c10::ArrayRef is an absl::Span with PyTorch's members]
// Switchyard's own views (sy::IntArrayRef, sy::TensorList) are absl::Span, and the dispatcher's
// kernel signatures are spelled with them. c10::ArrayRef derives from absl::Span<const T> and adds
// no data, so it converts to and from a Span for free, passes in registers as a Span does, and adds
// the members PyTorch code calls that a Span lacks: vec(), equals(), a bounds-checked slice() and
// at(). The Spans Switchyard hands out stay Spans: write `c10::ArrayRef<int64_t>(span).vec()` to
// copy one out (a Tensor's sizes() and strides() have vec() themselves: ivalue/sizes_ref.h).
// `c10::IntArrayRef` is sy::IntArrayRef, a Span, so that kernels spelled with it have the exact
// signature of Switchyard's own (see Note [Unboxed signatures must match exactly]).
// Kernels may take c10::ArrayRef<int64_t>, c10::ArrayRef<double> and c10::ArrayRef<at::Tensor>
// parameters; their schema types are int[], float[] and Tensor[].
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "absl/types/span.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/sizes_ref.h"

namespace c10 {

template <class T>
class ArrayRef : public absl::Span<const T> {
  using Base = absl::Span<const T>;

 public:
  // Pointer and length, containers with data() and size(), braced lists, C arrays.
  using Base::Base;
  constexpr ArrayRef() = default;
  constexpr ArrayRef(Base span) : Base(span) {}  // NOLINT: a Span is an ArrayRef
  // One element, as PyTorch's ArrayRef(const T&).
  constexpr ArrayRef(const T& one) : Base(&one, 1) {}  // NOLINT
  constexpr ArrayRef(const T* begin, const T* end) : Base(begin, static_cast<size_t>(end - begin)) {}

  // An owning copy of the elements.
  std::vector<T> vec() const { return std::vector<T>(this->begin(), this->end()); }
  bool equals(ArrayRef other) const {
    return this->size() == other.size() && std::equal(this->begin(), this->end(), other.begin());
  }
  // Elements [n, n + m) and [n, size()); out-of-range bounds raise, as PyTorch's do.
  ArrayRef slice(size_t n, size_t m) const {
    SY_CHECK(n <= this->size() && m <= this->size() - n, "ArrayRef::slice(", n, ", ", m,
             "): out of range for an ArrayRef of ", this->size(), " elements");
    return ArrayRef(this->data() + n, m);
  }
  ArrayRef slice(size_t n) const {
    SY_CHECK(n <= this->size(), "ArrayRef::slice(", n, "): out of range for an ArrayRef of ", this->size(),
             " elements");
    return ArrayRef(this->data() + n, this->size() - n);
  }
  const T& at(size_t i) const {
    SY_CHECK(i < this->size(), "ArrayRef::at(", i, "): out of range for an ArrayRef of ", this->size(),
             " elements");
    return this->data()[i];
  }
  const T& front() const {
    SY_CHECK(!this->empty(), "ArrayRef::front() of an empty ArrayRef");
    return this->data()[0];
  }
  const T& back() const {
    SY_CHECK(!this->empty(), "ArrayRef::back() of an empty ArrayRef");
    return this->data()[this->size() - 1];
  }

  // Hidden friends, so that comparing two ArrayRefs does not find absl's Span overloads ambiguous.
  friend bool operator==(ArrayRef a, ArrayRef b) { return a.equals(b); }
  friend bool operator!=(ArrayRef a, ArrayRef b) { return !a.equals(b); }
  // And a tensor's sizes or strides, which are their own Span subclass (ivalue/sizes_ref.h).
  friend bool operator==(ArrayRef a, sy::SizesRef b) { return a.equals(ArrayRef(b)); }
  friend bool operator==(sy::SizesRef a, ArrayRef b) { return b.equals(ArrayRef(a)); }
  friend bool operator!=(ArrayRef a, sy::SizesRef b) { return !a.equals(ArrayRef(b)); }
  friend bool operator!=(sy::SizesRef a, ArrayRef b) { return !b.equals(ArrayRef(a)); }
};

}  // namespace c10
