#include "switchyard/backends/cpu/elementwise.h"

#include <algorithm>
#include <numeric>

namespace sy::cpu {

namespace detail {
void throwUnsupportedDtype(const char* op, const char* argument, ScalarType dtype, unsigned supported) {
  std::string names;
  for (int t = 0; t < kNumScalarTypes; ++t) {
    if ((supported & (1u << t)) == 0) continue;
    if (!names.empty()) names += ", ";
    names += toString(static_cast<ScalarType>(t));
  }
  SY_ERROR(op, ": argument '", argument, "' has dtype ", dtype, ", which this kernel does not support (supported: ",
           names, ")");
}
}  // namespace detail

void checkOnCPU(const char* op, const char* argument, const Tensor& t) {
  SY_CHECK(t.defined(), op, ": argument '", argument, "' is an undefined tensor");
  SY_CHECK(t.is_cpu(), op, ": argument '", argument, "' is on ", t.device(),
           ", but this is the CPU kernel; copy the tensor to the CPU first or register a kernel for its backend");
}

SizesVector broadcastShapes(const char* op, IntArrayRef a, IntArrayRef b) {
  const size_t ndim = std::max(a.size(), b.size());
  SizesVector result(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    // Dimension i counted from the right; a missing dimension acts as size 1.
    const int64_t size_a = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t size_b = i < b.size() ? b[b.size() - 1 - i] : 1;
    SY_CHECK(size_a == size_b || size_a == 1 || size_b == 1, op, ": the shapes ", formatSizes(a), " and ",
             formatSizes(b), " cannot be broadcast together: the size of tensor a (", size_a,
             ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", ndim - 1 - i);
    result[ndim - 1 - i] = size_a == 1 ? size_b : size_a;
  }
  return result;
}

namespace {

ScalarType promoteSkippingUndefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promoteTypes(a, b);
}

// `higher` is the dimensioned operands' type, `lower` the 0-dim operands'; the lower one only
// counts when it belongs to a higher category (bool < integral < floating).
ScalarType combineCategories(ScalarType higher, ScalarType lower) {
  if (isFloatingType(higher)) return higher;
  if (higher == ScalarType::Bool || isFloatingType(lower)) return promoteSkippingUndefined(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}

}  // namespace

ScalarType binaryResultType(const Tensor& a, const Tensor& b) {
  ScalarType dimensioned = ScalarType::Undefined;
  ScalarType zero_dim = ScalarType::Undefined;
  for (const Tensor* t : {&a, &b}) {
    ScalarType& slot = t->dim() == 0 ? zero_dim : dimensioned;
    slot = promoteSkippingUndefined(slot, t->scalar_type());
  }
  return combineCategories(dimensioned, zero_dim);
}

void checkCanCastToOutput(const char* op, ScalarType result, const Tensor& out) {
  SY_CHECK(canCast(result, out.scalar_type()), op, ": result type ", result,
           " can't be cast to the desired output type ", out.scalar_type());
}

void resizeOutput(const Tensor& out, IntArrayRef sizes) {
  if (sameSizes(out.sizes(), sizes)) return;
  out.resize_(sizes);
}

Tensor convertedTo(const char* op, const char* argument, const Tensor& t, ScalarType dtype) {
  if (t.scalar_type() == dtype) return t;
  Tensor converted = sy::empty(t.sizes(), dtype);
  copyIntoCPU(op, converted, t, "converted", argument);
  return converted;
}

bool partiallyOverlaps(const Tensor& out, const Tensor& input) {
  if (out.storage().get() != input.storage().get() || out.storage().get() == nullptr) return false;
  const bool same_geometry = out.storage_offset() == input.storage_offset() && sameSizes(out.sizes(), input.sizes()) &&
                             sameSizes(out.strides(), input.strides()) && out.scalar_type() == input.scalar_type();
  return !same_geometry;
}

LoopGeometry makeLoopGeometry(std::initializer_list<const Tensor*> operands) {
  SY_CHECK(operands.size() >= 1 && operands.size() <= kMaxOperands, "makeLoopGeometry: ", operands.size(),
           " operands (1 to ", kMaxOperands, " supported)");
  const Tensor& output = **operands.begin();
  const IntArrayRef shape = output.sizes();
  const int64_t ndim = static_cast<int64_t>(shape.size());

  LoopGeometry g;
  g.num_operands = operands.size();
  g.numel = output.numel();

  // The common case, without the general machinery: every operand dense and of the output's shape.
  bool all_dense_same_shape = true;
  for (const Tensor* operand : operands) {
    all_dense_same_shape = all_dense_same_shape && operand->is_contiguous() && sameSizes(operand->sizes(), shape);
  }
  if (all_dense_same_shape) {
    size_t k = 0;
    std::array<int64_t, kMaxOperands> element_strides{};
    for (const Tensor* operand : operands) {
      g.data[k] = static_cast<char*>(operand->data_ptr());
      element_strides[k++] = static_cast<int64_t>(operand->element_size());
    }
    if (g.numel != 1) {  // a single element needs no dimension at all
      g.sizes.push_back(g.numel);
      g.strides.push_back(element_strides);
    }
    return g;
  }

  // Byte strides of every operand over the full shape, inputs aligned to the trailing dimensions.
  absl::InlinedVector<std::array<int64_t, kMaxOperands>, 5> full_strides(static_cast<size_t>(ndim));
  size_t k = 0;
  for (const Tensor* operand : operands) {
    g.data[k] = static_cast<char*>(operand->data_ptr());
    const int64_t element_size = static_cast<int64_t>(operand->element_size());
    const IntArrayRef sizes = operand->sizes();
    const IntArrayRef strides = operand->strides();
    const int64_t offset = ndim - static_cast<int64_t>(sizes.size());
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t od = d - offset;
      const bool broadcast = od < 0 || (sizes[od] == 1 && shape[d] != 1);
      full_strides[d][k] = broadcast ? 0 : strides[od] * element_size;
    }
    ++k;
  }

  // Size-1 dimensions contribute nothing; order the rest by the output's strides, largest outside.
  SizesVector dims;
  for (int64_t d = 0; d < ndim; ++d) {
    if (shape[d] != 1) dims.push_back(d);
  }
  // Insertion sort: stable, allocation-free, and a no-op pass for the usual contiguous output.
  for (size_t i = 1; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    size_t j = i;
    for (; j > 0 && std::abs(full_strides[dims[j - 1]][0]) < std::abs(full_strides[d][0]); --j) dims[j] = dims[j - 1];
    dims[j] = d;
  }

  // Merge a dimension into the one outside it when every operand steps through both as one.
  for (int64_t d : dims) {
    if (!g.sizes.empty()) {
      const size_t outer = g.sizes.size() - 1;
      bool mergeable = true;
      for (size_t op = 0; op < g.num_operands; ++op) {
        mergeable = mergeable && g.strides[outer][op] == full_strides[d][op] * shape[d];
      }
      if (mergeable) {
        g.sizes[outer] *= shape[d];
        g.strides[outer] = full_strides[d];
        continue;
      }
    }
    g.sizes.push_back(shape[d]);
    g.strides.push_back(full_strides[d]);
  }
  return g;
}

}  // namespace sy::cpu
