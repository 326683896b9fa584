// sy::OptionalIntArrayRef: the C++ type of an `int[]?` argument (an optional list of dims) in the
// sy::ops helpers, like at::OptionalIntArrayRef: it takes a braced list, a vector, an IntArrayRef,
// std::nullopt or a std::optional<IntArrayRef>, so a call reads
//
//   sy::ops::sum(x, {0, 1});               // the dims listed
//   sy::ops::sum(x, std::nullopt, true);   // every dim, kept
//   sy::ops::sum(x, dims_vector);
//
// It refers to the caller's values, which live until the end of the full expression of the call;
// get() is the std::optional<IntArrayRef> the kernels take.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "switchyard/ivalue/tensor_impl.h"

namespace sy {

class OptionalIntArrayRef {
 public:
  // All implicit, like at::OptionalIntArrayRef's, so a call reads sum(x, {0}).
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}                                               // NOLINT
  OptionalIntArrayRef(IntArrayRef dims) : dims_(dims) {}                               // NOLINT
  OptionalIntArrayRef(std::initializer_list<int64_t> dims)                             // NOLINT
      : dims_(IntArrayRef(dims.begin(), dims.size())) {}
  OptionalIntArrayRef(const std::vector<int64_t>& dims) : dims_(IntArrayRef(dims)) {}  // NOLINT
  OptionalIntArrayRef(std::optional<IntArrayRef> dims) : dims_(dims) {}                // NOLINT
  const std::optional<IntArrayRef>& get() const { return dims_; }
  // at::OptionalIntArrayRef's accessors.
  bool has_value() const { return dims_.has_value(); }
  explicit operator bool() const { return dims_.has_value(); }
  IntArrayRef value() const { return dims_.value(); }  // std::bad_optional_access when empty
  IntArrayRef operator*() const { return *dims_; }
  IntArrayRef value_or(IntArrayRef fallback) const { return dims_.value_or(fallback); }

 private:
  std::optional<IntArrayRef> dims_;
};

}  // namespace sy
