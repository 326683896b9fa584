// SizesRef: what Tensor::sizes() and Tensor::strides() return. An IntArrayRef (a Span over the
// tensor's own sizes) that also copies out, as PyTorch's IntArrayRef does.
//
//   sy::Tensor t = sy::zeros({2, 3});
//   std::vector<int64_t> shape = t.sizes().vec();    // {2, 3}, an owning copy
//   sy::IntArrayRef view = t.sizes();                 // the Span itself, free
//   bool same = t.sizes() == u.sizes();               // element by element
//
// Note [A tensor's sizes are a Span with vec()]
// Kernel signatures and the boxing are spelled with IntArrayRef (absl::Span<const int64_t>), and
// must stay so (see Note [Unboxed signatures must match exactly]). Only the accessors return this
// subclass: it adds no data, converts to IntArrayRef for free wherever one is taken, and lets
// PyTorch code write `t.sizes().vec()`. Comparisons are its own, so that comparing two of them is
// not ambiguous between absl's Span-with-container overloads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace sy {

class SizesRef : public absl::Span<const int64_t> {
  using Base = absl::Span<const int64_t>;

 public:
  constexpr SizesRef() = default;
  constexpr SizesRef(Base span) : Base(span) {}  // NOLINT: every Span of sizes is one

  // An owning copy of the values.
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  friend bool operator==(SizesRef a, SizesRef b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
  friend bool operator!=(SizesRef a, SizesRef b) { return !(a == b); }
};

}  // namespace sy
