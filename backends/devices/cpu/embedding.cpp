// aten::embedding and aten::embedding.out on the CPU: a row gather from a lookup table.
//
// Semantics, as PyTorch's forward: `weight` is a 2-D (num_embeddings, embedding_dim) table of any
// dtype; `indices` is an Int or Long tensor of any shape (0-dim included); the result has shape
// indices.shape + (embedding_dim,), weight's dtype, and row i equal to weight[indices[i]]. Every
// index must lie in [0, num_embeddings): negative indices are not wrapped, and an out-of-range
// one raises an error naming its value and position before anything is written. padding_idx,
// scale_grad_by_freq and sparse only change the gradient, so the forward ignores them.
//
// Rows are copied with memcpy straight from the table when its rows are dense (any row stride,
// so a sliced or row-broadcast table is not copied first).
#include <cstring>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

SizesVector embeddingOutputSizes(const Tensor& weight, const Tensor& indices) {
  SizesVector sizes(indices.sizes().begin(), indices.sizes().end());
  sizes.push_back(weight.size(1));
  return sizes;
}

void checkEmbedding(const char* op, const Tensor& weight, const Tensor& indices) {
  checkOnCPU(op, "weight", weight);
  checkOnCPU(op, "indices", indices);
  SY_CHECK(weight.dim() == 2, op, ": expected 'weight' to be a 2-D tensor (num_embeddings, embedding_dim) but got a ",
           weight.dim(), "-D tensor");
  SY_CHECK(indices.scalar_type() == ScalarType::Long || indices.scalar_type() == ScalarType::Int, op,
           ": expected 'indices' to have dtype Long or Int but got ", indices.scalar_type());
  SY_CHECK(elementSize(weight.scalar_type()) > 0, op, ": 'weight' has unsupported dtype ", weight.scalar_type());
}

// Raises for the first index outside [0, rows), naming its value and its position in row-major order.
template <class Index>
void checkIndicesInRange(const char* op, const Index* indices, int64_t count, int64_t rows) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = static_cast<int64_t>(indices[i]);
    SY_CHECK_INDEX(index >= 0 && index < rows, op, ": index ", index, " at position ", i,
             " of 'indices' is out of range for 'weight' with ", rows, " rows (expected 0 <= index < ", rows, ")");
  }
}

template <class Index>
void gatherRows(const char* base, int64_t row_stride_bytes, int64_t row_bytes, const Index* indices, int64_t count,
                char* out) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(out + i * row_bytes, base + static_cast<int64_t>(indices[i]) * row_stride_bytes,
                static_cast<size_t>(row_bytes));
  }
}

// Calls body(const Index*) with the data of a dense Int or Long index tensor.
template <class Body>
void withIndexData(const Tensor& dense_indices, Body&& body) {
  if (dense_indices.scalar_type() == ScalarType::Long) {
    body(static_cast<const int64_t*>(dense_indices.data_ptr()));
  } else {
    body(static_cast<const int32_t*>(dense_indices.data_ptr()));
  }
}

// The indices as a dense tensor, after checking that every one of them selects a row of `weight`.
Tensor checkedDenseIndices(const char* op, const Tensor& weight, const Tensor& indices) {
  Tensor dense_indices = nn_detail::contiguousCopyIfNeeded(op, "indices", indices);
  withIndexData(dense_indices, [&](auto index_data) {
    checkIndicesInRange(op, index_data, dense_indices.numel(), weight.size(0));
  });
  return dense_indices;
}

// Writes the selected rows into `out`, which already has the output shape.
Tensor& gatherInto(const char* op, const Tensor& weight, const Tensor& indices, const Tensor& dense_indices,
                   Tensor& out) {
  if (out.numel() == 0) return out;
  // Dense rows can be read in place whatever the distance between them.
  const bool rows_dense = weight.size(1) <= 1 || weight.stride(1) == 1;
  const Tensor table = rows_dense ? weight : nn_detail::contiguousCopyIfNeeded(op, "weight", weight);
  const int64_t element = static_cast<int64_t>(weight.element_size());
  const int64_t row_bytes = weight.size(1) * element;
  const int64_t row_stride_bytes = (rows_dense ? table.stride(0) : weight.size(1)) * element;
  nn_detail::computeIntoDenseOutput(op, out, weight.scalar_type(), {&weight, &indices}, [&](const Tensor& dst) {
    withIndexData(dense_indices, [&](auto index_data) {
      gatherRows(static_cast<const char*>(table.data_ptr()), row_stride_bytes, row_bytes, index_data,
                 dense_indices.numel(), static_cast<char*>(dst.data_ptr()));
    });
  });
  return out;
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

// The functional form: one dispatched allocation, once the indices are checked.
Tensor& embedding_out_cpu(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                          bool sparse, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkEmbedding(op, weight, indices);
  if (ctx.form == OutputForm::Functional) {
    const Tensor dense_indices = checkedDenseIndices(op, weight, indices);
    out = ops::empty(embeddingOutputSizes(weight, indices), TensorOptions(weight.scalar_type()).device(kCPU));
    return gatherInto(op, weight, indices, dense_indices, out);
  }
  checkOnCPU(op, "out", out);
  checkCanCastToOutput(op, weight.scalar_type(), out);
  // The indices are checked before `out` is resized, so a failed call leaves it untouched.
  const Tensor dense_indices = checkedDenseIndices(op, weight, indices);
  resizeOutput(out, embeddingOutputSizes(weight, indices));
  checkNoInternalOverlap(op, out, "out");
  return gatherInto(op, weight, indices, dense_indices, out);
}

}  // namespace native
}  // namespace sy::cpu
