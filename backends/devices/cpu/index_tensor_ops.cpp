// aten::index.Tensor and aten::index_put (out=, functional and in-place forms) on the CPU, for
// every dtype: advanced indexing (advanced_index.h) read and written.
//
// Semantics, as PyTorch's:
//   - index: out = self[indices], of self's dtype and the indexing result's shape.
//   - index_put: out = a copy of self (in place: self itself) with out[indices] = values, or
//     += values when `accumulate` (repeated indices then add up; without it, the last one written
//     wins). `values` has self's dtype and broadcasts to the indexing result's shape.
// Elements are copied as bytes, so both take every dtype; accumulate adds in self's dtype (Bool: or).
// An out= tensor sharing memory with an input, or not contiguous, receives a result computed in a
// temporary.
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "switchyard/backends/devices/cpu/advanced_index.h"
#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/index_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// True when `t` shares memory with self, values or one of the index tensors.
bool indexOverlapsInputs(const Tensor& t, const Tensor& self, const Tensor* values, OptionalTensorListRef indices) {
  if (sameMemory(t, self) || (values != nullptr && sameMemory(t, *values))) return true;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (const Tensor* index = indices.get(i); index != nullptr && sameMemory(t, *index)) return true;
  }
  return false;
}

// A contiguous copy of `t`, for an input that the kernel's writes would otherwise change under it.
Tensor denseCopyOf(const char* op, const Tensor& t) {
  Tensor copy = scratchTensor(op, t.sizes(), t.scalar_type());
  copyIntoCPU(op, copy, t, "copy", "input");
  return copy;
}

// values' strides over the indexing result's dimensions, which it broadcasts to (0 where broadcast).
SizesVector valueStrides(const char* op, const AdvancedIndex& plan, const Tensor& values) {
  const SizesVector& sizes = plan.resultSizes();
  const int64_t rank = values.dim();
  const int64_t result_rank = static_cast<int64_t>(sizes.size());
  SizesVector strides(sizes.size(), 0);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t r = result_rank - rank + d;
    const bool fits = r >= 0 ? values.size(d) == 1 || values.size(d) == sizes[static_cast<size_t>(r)] : values.size(d) == 1;
    SY_CHECK_INDEX(fits, op, ": shape mismatch: value tensor of shape ", formatSizes(values.sizes()),
                   " cannot be broadcast to indexing result of shape ", formatSizes(sizes));
    if (r >= 0 && values.size(d) != 1) strides[static_cast<size_t>(r)] = values.stride(d);
  }
  return strides;
}

// Writes values (broadcast to the indexing result's shape, `strides` from valueStrides) into `dst`
// at the places `plan` gives.
void putValues(const char* op, const AdvancedIndex& plan, const Tensor& values, const SizesVector& strides,
               const Tensor& dst, bool accumulate) {
  if (plan.resultNumel() == 0) return;
  const SizesVector& sizes = plan.resultSizes();
  SizesVector coords(sizes.size(), 0);
  int64_t value_offset = 0;
  auto step = [&]() {
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      const size_t du = static_cast<size_t>(d);
      if (++coords[du] < sizes[du]) {
        value_offset += strides[du];
        return;
      }
      coords[du] = 0;
      value_offset -= strides[du] * (sizes[du] - 1);
    }
  };
  if (!accumulate) {
    const size_t item = dst.element_size();
    const char* src = static_cast<const char*>(values.data_ptr());
    char* out = static_cast<char*>(dst.data_ptr());
    plan.forEachElement([&](int64_t, int64_t offset) {
      std::memcpy(out + offset * static_cast<int64_t>(item), src + value_offset * static_cast<int64_t>(item), item);
      step();
    });
    return;
  }
  dispatchDtype<native::index_put_out_cpu_dtypes>(dst.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = values.data_ptr<T>();
    T* out = dst.data_ptr<T>();
    plan.forEachElement([&](int64_t, int64_t offset) {
      if constexpr (std::is_same_v<T, bool>) {
        out[offset] = out[offset] || src[value_offset];
      } else {
        out[offset] = static_cast<T>(out[offset] + src[value_offset]);
      }
      step();
    });
  });
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/index_ops.yaml) ---------------------------

namespace native {

Tensor& index_Tensor_out_cpu(const Tensor& self, OptionalTensorListRef indices, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const AdvancedIndex plan(op, self, indices);
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(plan.resultSizes(), TensorOptions(self.scalar_type()).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  SY_CHECK_TYPE(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
                " but got ", out.scalar_type());
  const bool staged = !out.is_contiguous() || indexOverlapsInputs(out, self, nullptr, indices);
  if (!staged) {
    resizeOutput(out, plan.resultSizes());
    checkNoInternalOverlap(op, out);
  }
  // A staged result leaves `out` untouched until the end, so self and the indices keep their geometry.
  const Tensor dst = staged ? scratchTensor(op, plan.resultSizes(), self.scalar_type()) : out;
  const size_t item = self.element_size();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* write = static_cast<char*>(dst.data_ptr());
  plan.forEachElement([&](int64_t n, int64_t offset) {
    std::memcpy(write + n * static_cast<int64_t>(item), src + offset * static_cast<int64_t>(item), item);
  });
  if (staged) {
    resizeOutput(out, plan.resultSizes());
    checkNoInternalOverlap(op, out);
    copyIntoCPU(op, out, dst, "out", "result");
  }
  return out;
}

Tensor& index_put_out_cpu(const Tensor& self, OptionalTensorListRef indices, const Tensor& values, bool accumulate,
                          Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "values", values);
  SY_CHECK_TYPE(values.scalar_type() == self.scalar_type(), op,
                ": Index put requires the source and destination dtypes match, got ", self.scalar_type(),
                " for the destination and ", values.scalar_type(), " for the source.");
  if (ctx.form == OutputForm::InPlace) {
    checkNoInternalOverlap(op, out, "self");
    // Values or indices that share self's memory are read from copies, made before anything is written.
    const Tensor source = sameMemory(values, self) ? denseCopyOf(op, values) : values;
    bool indices_alias = false;
    for (size_t i = 0; i < indices.size(); ++i) {
      if (const Tensor* index = indices.get(i); index != nullptr && sameMemory(*index, self)) indices_alias = true;
    }
    if (!indices_alias) {
      const AdvancedIndex plan(op, self, indices);
      putValues(op, plan, source, valueStrides(op, plan, source), self, accumulate);
      return out;
    }
    std::vector<std::optional<Tensor>> copies;
    for (size_t i = 0; i < indices.size(); ++i) {
      const Tensor* index = indices.get(i);
      copies.push_back(index == nullptr ? std::nullopt : std::optional<Tensor>(denseCopyOf(op, *index)));
    }
    const AdvancedIndex plan(op, self, copies);
    putValues(op, plan, source, valueStrides(op, plan, source), self, accumulate);
    return out;
  }
  // The result is written contiguous: into out itself when it may be, else into a temporary.
  const SizesVector strides = checkedContiguousStrides(op, self.sizes());
  const AdvancedIndex plan(op, self, indices, strides);
  const SizesVector values_strides = valueStrides(op, plan, values);
  if (ctx.form == OutputForm::Functional) out = ops::empty(self.sizes(), TensorOptions(self.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK_TYPE(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have self's dtype ", self.scalar_type(),
                " but got ", out.scalar_type());
  const bool overlaps = indexOverlapsInputs(out, self, &values, indices);
  if (!overlaps) {
    resizeOutput(out, self.sizes());
    checkNoInternalOverlap(op, out);
  }
  if (!overlaps && out.is_contiguous()) {
    copyIntoCPU(op, out, self, "out", "self");
    putValues(op, plan, values, values_strides, out, accumulate);
    return out;
  }
  const Tensor result = denseCopyOf(op, self);
  putValues(op, plan, values, values_strides, result, accumulate);
  resizeOutput(out, self.sizes());
  checkNoInternalOverlap(op, out);
  copyIntoCPU(op, out, result, "out", "result");
  return out;
}

}  // namespace native
}  // namespace sy::cpu
