// See advanced_index.h.
#include "switchyard/backends/devices/cpu/advanced_index.h"

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {
namespace {

// Calls f(offset) for every element of `t` in row-major order, offsets through its strides.
template <class F>
void forEachIndexOffset(const Tensor& t, F&& f) {
  const int64_t numel = t.numel();
  if (numel == 0) return;
  const int64_t ndim = t.dim();
  SizesVector coords(static_cast<size_t>(ndim), 0);
  int64_t offset = 0;
  for (int64_t n = 0; n < numel; ++n) {
    f(offset);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++coords[static_cast<size_t>(d)] < t.size(d)) {
        offset += t.stride(d);
        break;
      }
      coords[static_cast<size_t>(d)] = 0;
      offset -= t.stride(d) * (t.size(d) - 1);
    }
  }
}

// The coordinates of a Bool mask's true elements, as one Long tensor per mask dimension (nonzero()
// split by column), in row-major order.
absl::InlinedVector<Tensor, 4> maskCoordinates(const Tensor& mask) {
  int64_t count = 0;
  forEachIndexOffset(mask, [&](int64_t offset) { count += mask.data_ptr<bool>()[offset] ? 1 : 0; });
  absl::InlinedVector<Tensor, 4> columns;
  for (int64_t d = 0; d < mask.dim(); ++d) columns.push_back(scratchTensor("index", {count}, ScalarType::Long));
  SizesVector coords(static_cast<size_t>(mask.dim()), 0);
  int64_t written = 0;
  forEachIndexOffset(mask, [&](int64_t offset) {
    if (mask.data_ptr<bool>()[offset]) {
      for (int64_t d = 0; d < mask.dim(); ++d) columns[static_cast<size_t>(d)].data_ptr<int64_t>()[written] = coords[static_cast<size_t>(d)];
      ++written;
    }
    for (int64_t d = mask.dim() - 1; d >= 0; --d) {
      if (++coords[static_cast<size_t>(d)] < mask.size(d)) break;
      coords[static_cast<size_t>(d)] = 0;
    }
  });
  return columns;
}

}  // namespace

AdvancedIndex::AdvancedIndex(const char* op, const Tensor& self, OptionalTensorListRef indices, IntArrayRef strides) {
  SY_CHECK(strides.empty() || static_cast<int64_t>(strides.size()) == self.dim(), op, ": internal: ", strides.size(),
           " strides for a ", self.dim(), "-D tensor");
  auto strideOf = [&](int64_t d) { return strides.empty() ? self.stride(d) : strides[static_cast<size_t>(d)]; };
  // The dimensions the list covers, and its dtypes, before anything is converted.
  int64_t covered = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor* t = indices.get(i);
    if (t == nullptr) {
      ++covered;
      continue;
    }
    checkOnCPU(op, "indices", *t);
    const ScalarType dtype = t->scalar_type();
    SY_CHECK_INDEX(dtype == ScalarType::Long || dtype == ScalarType::Int || dtype == ScalarType::Bool, op,
                   ": tensors used as indices must be Long, Int or Bool tensors, but indices[", i, "] has dtype ", dtype);
    SY_CHECK_INDEX(dtype != ScalarType::Bool || t->dim() > 0, op, ": indices[", i,
                   "] is a 0-dim Bool mask, which this kernel does not support; give the mask at least one dimension");
    covered += dtype == ScalarType::Bool ? t->dim() : 1;
  }
  SY_CHECK_INDEX(covered <= self.dim(), op, ": too many indices for tensor of dimension ", self.dim(), " (got ", covered,
                 ")");
  // One indexer per indexed dimension: index tensors as they are, masks as their coordinates.
  int64_t dim = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor* t = indices.get(i);
    if (t == nullptr) {
      ++dim;
      continue;
    }
    if (t->scalar_type() == ScalarType::Bool) {
      for (int64_t j = 0; j < t->dim(); ++j) {
        SY_CHECK_INDEX(t->size(j) == self.size(dim + j), op, ": The shape of the mask ", formatSizes(t->sizes()),
                       " at index ", j, " does not match the shape of the indexed tensor ", formatSizes(self.sizes()),
                       " at index ", dim + j);
      }
      absl::InlinedVector<Tensor, 4> columns = maskCoordinates(*t);
      for (int64_t j = 0; j < t->dim(); ++j) {
        indexers_.push_back(Indexer{columns[static_cast<size_t>(j)], dim + j, self.size(dim + j), strideOf(dim + j)});
      }
      dim += t->dim();
      continue;
    }
    const int64_t size = self.size(dim);
    const Tensor& index = *t;
    forEachIndexOffset(index, [&](int64_t offset) {
      const int64_t v = entry(index, offset);
      SY_CHECK_INDEX(v >= -size && v < size, op, ": index ", v, " is out of bounds for dimension ", dim, " with size ",
                     size);
    });
    indexers_.push_back(Indexer{index, dim, size, strideOf(dim)});
    ++dim;
  }
  // The shape B the index tensors broadcast to.
  SizesVector broadcast;
  for (const Indexer& ix : indexers_) {
    const int64_t rank = ix.index.dim();
    if (rank > static_cast<int64_t>(broadcast.size())) broadcast.insert(broadcast.begin(), static_cast<size_t>(rank) - broadcast.size(), 1);
    const size_t shift = broadcast.size() - static_cast<size_t>(rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t& b = broadcast[shift + static_cast<size_t>(d)];
      const int64_t s = ix.index.size(d);
      if (b == 1) {
        b = s;
      } else if (s != 1 && s != b) {
        std::string shapes;
        for (const Indexer& other : indexers_) shapes += (shapes.empty() ? "" : ", ") + formatSizes(other.index.sizes());
        SY_CHECK_INDEX(false, op, ": shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
      }
    }
  }
  // The result's dimensions: B in place of adjacent indexed dimensions, else B first.
  bool adjacent = true;
  for (size_t k = 1; k < indexers_.size(); ++k) adjacent = adjacent && indexers_[k].self_dim == indexers_[k - 1].self_dim + 1;
  const int64_t first = indexers_.empty() ? self.dim() : indexers_.front().self_dim;
  const int64_t before = adjacent ? first : 0;  // self dimensions ahead of B
  auto addSelfDim = [&](int64_t d) {
    result_sizes_.push_back(self.size(d));
    self_strides_.push_back(strideOf(d));
  };
  for (int64_t d = 0; d < before; ++d) addSelfDim(d);
  const size_t b_start = result_sizes_.size();
  for (int64_t b : broadcast) {
    result_sizes_.push_back(b);
    self_strides_.push_back(0);
  }
  auto indexed = [&](int64_t d) {
    for (const Indexer& ix : indexers_) {
      if (ix.self_dim == d) return true;
    }
    return false;
  };
  for (int64_t d = before; d < self.dim(); ++d) {
    if (!indexed(d)) addSelfDim(d);
  }
  const size_t rank = result_sizes_.size();
  index_strides_.assign(indexers_.size() * rank, 0);
  for (size_t k = 0; k < indexers_.size(); ++k) {
    const Tensor& index = indexers_[k].index;
    const size_t shift = broadcast.size() - static_cast<size_t>(index.dim());
    for (int64_t d = 0; d < index.dim(); ++d) {
      if (index.size(d) != 1) index_strides_[k * rank + b_start + shift + static_cast<size_t>(d)] = index.stride(d);
    }
  }
  result_numel_ = checkedNumel(op, result_sizes_);
}

}  // namespace sy::cpu
