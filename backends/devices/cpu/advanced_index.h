// PyTorch's advanced indexing (`self[indices]` with a list of optional index tensors), as the CPU
// kernels of index.Tensor and index_put share it: which dimensions the indices select, the shape of
// the indexing result, and a walk over that result giving, for each element, the offset of the
// self element it stands for.
//
// Semantics, as PyTorch's (aten/src/ATen/native/TensorAdvancedIndexing.cpp):
//   - indices[k] is None (dimension k taken whole), a Long or Int tensor (entries in
//     [-size, size), negative ones counted from the end), or a Bool mask over the next mask.dim()
//     dimensions, whose shape must be theirs; a mask stands for its nonzero() coordinates.
//   - the index tensors broadcast together to one shape B; the result is self's dimensions with the
//     indexed ones replaced by B, in place when the indexed dimensions are adjacent, else first:
//     x[:, i, j] has shape (x.size(0), *B), x[i, :, j] has shape (*B, x.size(1)).
//   - dimensions past the list are taken whole; more indexed dimensions than self has is an error.
// Every index value is checked before the caller writes anything.
#pragma once

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "switchyard/ivalue/optional_tensor_list_ref.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cpu {

class AdvancedIndex {
 public:
  // Checks `indices` against `self` (errors name `op`), converts masks, broadcasts the index tensors.
  // Offsets are through `strides` (a tensor of self's shape written in another layout, such as a
  // contiguous out=), or through self's own when empty.
  AdvancedIndex(const char* op, const Tensor& self, OptionalTensorListRef indices, IntArrayRef strides = {});

  // The shape of self[indices].
  const SizesVector& resultSizes() const { return result_sizes_; }
  int64_t resultNumel() const { return result_numel_; }

  // Calls visit(n, self_offset) for every element n of the result in row-major order, where
  // self_offset is the element's offset in `self` (in elements, through self's strides).
  template <class Visit>
  void forEachElement(Visit&& visit) const;

 private:
  struct Indexer {
    Tensor index;  // Long or Int, of a shape that broadcasts to B
    int64_t self_dim = 0;
    int64_t self_size = 0;
    int64_t self_stride = 0;
  };
  static int64_t entry(const Tensor& index, int64_t offset);

  SizesVector result_sizes_;
  SizesVector self_strides_;  // self's stride for each result dimension (0 on B's dimensions)
  int64_t result_numel_ = 1;
  absl::InlinedVector<Indexer, 4> indexers_;
  // Indexer k's strides over the result's dimensions at [k * result rank + d] (0 where broadcast or
  // outside B).
  absl::InlinedVector<int64_t, 16> index_strides_;
};

inline int64_t AdvancedIndex::entry(const Tensor& index, int64_t offset) {
  return index.scalar_type() == ScalarType::Long ? index.data_ptr<int64_t>()[offset]
                                                 : static_cast<int64_t>(index.data_ptr<int32_t>()[offset]);
}

template <class Visit>
void AdvancedIndex::forEachElement(Visit&& visit) const {
  if (result_numel_ == 0) return;
  const int64_t ndim = static_cast<int64_t>(result_sizes_.size());
  SizesVector coords(static_cast<size_t>(ndim), 0);
  SizesVector index_offsets(indexers_.size(), 0);
  int64_t base = 0;  // offset from the dimensions taken whole
  for (int64_t n = 0; n < result_numel_; ++n) {
    int64_t offset = base;
    for (size_t k = 0; k < indexers_.size(); ++k) {
      const Indexer& ix = indexers_[k];
      int64_t v = entry(ix.index, index_offsets[k]);
      if (v < 0) v += ix.self_size;
      offset += v * ix.self_stride;
    }
    visit(n, offset);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      const size_t du = static_cast<size_t>(d);
      if (++coords[du] < result_sizes_[du]) {
        base += self_strides_[du];
        for (size_t k = 0; k < indexers_.size(); ++k) index_offsets[k] += index_strides_[k * coords.size() + du];
        break;
      }
      coords[du] = 0;
      base -= self_strides_[du] * (result_sizes_[du] - 1);
      for (size_t k = 0; k < indexers_.size(); ++k) {
        index_offsets[k] -= index_strides_[k * coords.size() + du] * (result_sizes_[du] - 1);
      }
    }
  }
}

}  // namespace sy::cpu
