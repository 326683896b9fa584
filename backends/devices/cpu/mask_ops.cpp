// Operators driven by a Bool mask or by nonzero elements, on the CPU: masked_fill (Scalar value),
// masked_select, masked_scatter and nonzero.
//
// Semantics (PyTorch's):
//  - the mask must be Bool; self and mask broadcast together.
//  - masked_fill: out[i] = mask[i] ? value : self[i], of self's dtype and the broadcast shape (in
//    place: self's shape, which the mask must broadcast to); `value` is converted to self's dtype.
//  - masked_select: the 1-D tensor of self's elements where the (broadcast) mask is true, in
//    row-major order of the broadcast shape; out has self's dtype.
//  - masked_scatter: self (broadcast with the mask, in place: self's shape) with the elements where
//    the mask is true replaced by source's elements in row-major order; source has self's dtype
//    and at least as many elements as the mask has true values.
//  - nonzero: a Long [n, self.dim()] tensor, the index of each nonzero element (NaN is nonzero) in
//    row-major order; a 0-dim self gives [n, 0].
// masked_select and nonzero count first and then write, so an out= tensor is resized once; they
// walk the broadcast index space with one odometer (ivalue/odometer.h) and copy elements as bytes.
#include <algorithm>
#include <array>
#include <cstring>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/index_kernels.h"
#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

void checkBoolMask(const char* op, const Tensor& mask) {
  checkOnCPU(op, "mask", mask);
  SY_CHECK(mask.scalar_type() == ScalarType::Bool, op, ": expected 'mask' to have dtype Bool but got ",
           mask.scalar_type());
}

// t's strides for reading it as the broadcast `shape`: 0 along the dims it is broadcast over.
SizesVector maskBroadcastStrides(const Tensor& t, IntArrayRef shape) {
  SizesVector strides(shape.size(), 0);
  const int64_t offset = static_cast<int64_t>(shape.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1) strides[static_cast<size_t>(d + offset)] = t.stride(d);
  }
  return strides;
}

// Calls visit(a_element, b_element, index) for each position of the broadcast `shape` in
// row-major order, with the addresses of a's and b's elements there (both broadcast to shape).
template <class Visit>
void forEachBroadcastPair(const Tensor& a, const Tensor& b, IntArrayRef shape, Visit&& visit) {
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  if (numel == 0) return;
  const SizesVector a_strides = maskBroadcastStrides(a, shape);
  const SizesVector b_strides = maskBroadcastStrides(b, shape);
  const int64_t ndim = static_cast<int64_t>(shape.size());
  const std::array<int64_t, 2> items{static_cast<int64_t>(a.element_size()), static_cast<int64_t>(b.element_size())};
  SizesVector index(shape.size(), 0);
  std::array<const char*, 2> at{static_cast<const char*>(a.data_ptr()), static_cast<const char*>(b.data_ptr())};
  for (int64_t n = 0; n < numel; ++n) {
    visit(at[0], at[1], index.data());
    advanceOdometer(index.data(), shape.data(), ndim - 1, at,
                    [&](int64_t d, size_t k) { return (k == 0 ? a_strides[d] : b_strides[d]) * items[k]; });
  }
}

// The tensor a kernel writes `out`'s values into: out itself when contiguous and separate from
// the inputs, else a temporary the caller copies into out.
Tensor maskResultBuffer(const Tensor& out, std::initializer_list<const Tensor*> inputs) {
  bool direct = out.is_contiguous();
  for (const Tensor* input : inputs) direct = direct && !sameMemory(out, *input);
  return direct ? out : scratchTensor("masked result", out.sizes(), out.scalar_type());
}

}  // namespace

// The kernels backends/devices/cpu/index_ops.yaml binds.
namespace native {

Tensor& masked_fill_scalar_out_cpu(const Tensor& self, const Tensor& mask, const Scalar& value, Tensor& out,
                                   const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkDtypeSupported(op, "self", self.scalar_type(), masked_fill_scalar_out_cpu_dtypes);
  checkBoolMask(op, mask);
  // The value in self's dtype, converted as PyTorch's masked_fill converts it (Scalar::to: a value
  // the dtype cannot hold is an error, even when nothing is filled).
  const Tensor fill = scratchTensor(op, {}, self.scalar_type());
  fillCPU(fill, value);
  const SizesVector shape = broadcastShapes(op, {{"self", self.sizes()}, {"mask", mask.sizes()}});
  if (ctx.form == OutputForm::Functional) out = ops::empty(shape, TensorOptions(self.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  // See Note [An out= that is also an input keeps the input's values].
  const Tensor pinned_self = unaffectedByResizeOf(out, self);
  const Tensor pinned_mask = unaffectedByResizeOf(out, mask);
  shapeOutput(op, out, shape, ctx.form == OutputForm::InPlace ? OutputRole::InPlace : OutputRole::Out);
  if (out.numel() == 0) return out;
  computeIntoOutput(op, out, self.scalar_type(), {&pinned_self, &pinned_mask}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &pinned_mask, &pinned_self, &fill});
    dispatchDtype<masked_fill_scalar_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      runElementwise<T, bool, T, T>(geometry, [](bool masked, T x, T v) { return masked ? v : x; });
    });
  });
  return out;
}

Tensor& masked_select_out_cpu(const Tensor& self, const Tensor& mask, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkDtypeSupported(op, "self", self.scalar_type(), masked_select_out_cpu_dtypes);
  checkBoolMask(op, mask);
  const SizesVector shape = broadcastShapes(op, {{"self", self.sizes()}, {"mask", mask.sizes()}});
  int64_t count = 0;
  forEachBroadcastPair(self, mask, shape, [&](const char*, const char* selected, const int64_t*) {
    count += *reinterpret_cast<const bool*>(selected) ? 1 : 0;
  });
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty({count}, TensorOptions(self.scalar_type()).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const Tensor pinned_self = unaffectedByResizeOf(out, self);
  const Tensor pinned_mask = unaffectedByResizeOf(out, mask);
  resizeOutput(out, {count});
  if (count == 0) return out;
  const Tensor dst = maskResultBuffer(out, {&pinned_self, &pinned_mask});
  const size_t item = self.element_size();
  char* write = static_cast<char*>(dst.data_ptr());
  forEachBroadcastPair(pinned_self, pinned_mask, shape, [&](const char* element, const char* selected, const int64_t*) {
    if (!*reinterpret_cast<const bool*>(selected)) return;
    std::memcpy(write, element, item);
    write += item;
  });
  if (!dst.is_same(out)) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

Tensor& masked_scatter_out_cpu(const Tensor& self, const Tensor& mask, const Tensor& source, Tensor& out,
                               const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkDtypeSupported(op, "self", self.scalar_type(), masked_scatter_out_cpu_dtypes);
  checkBoolMask(op, mask);
  checkOnCPU(op, "source", source);
  SY_CHECK(source.scalar_type() == self.scalar_type(), op, ": expected 'source' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", source.scalar_type());
  const SizesVector shape = broadcastShapes(op, {{"self", self.sizes()}, {"mask", mask.sizes()}});
  int64_t count = 0;
  forEachBroadcastPair(mask, mask, shape, [&](const char* selected, const char*, const int64_t*) {
    count += *reinterpret_cast<const bool*>(selected) ? 1 : 0;
  });
  SY_CHECK(source.numel() >= count, op, ": expected 'source' to have at least ", count,
           " elements (the mask's true count) but it has ", source.numel());
  if (ctx.form == OutputForm::Functional) out = ops::empty(shape, TensorOptions(self.scalar_type()).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const Tensor pinned_self = unaffectedByResizeOf(out, self);
  const Tensor pinned_mask = unaffectedByResizeOf(out, mask);
  const Tensor pinned_source = unaffectedByResizeOf(out, source);
  shapeOutput(op, out, shape, ctx.form == OutputForm::InPlace ? OutputRole::InPlace : OutputRole::Out);
  if (out.numel() == 0) return out;
  // Source elements are taken in row-major order, so a strided source is made dense once.
  const Tensor dense_source = count == 0 ? pinned_source : nn_detail::contiguousCopyIfNeeded(op, "source", pinned_source);
  const Tensor dst = maskResultBuffer(out, {&pinned_self, &pinned_mask, &dense_source});
  const size_t item = self.element_size();
  char* write = static_cast<char*>(dst.data_ptr());
  const char* next = static_cast<const char*>(dense_source.data_ptr());
  forEachBroadcastPair(pinned_self, pinned_mask, shape, [&](const char* element, const char* selected, const int64_t*) {
    if (*reinterpret_cast<const bool*>(selected)) {
      std::memcpy(write, next, item);
      next += item;
    } else {
      std::memcpy(write, element, item);
    }
    write += item;
  });
  if (!dst.is_same(out)) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

Tensor& nonzero_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkDtypeSupported(op, "self", self.scalar_type(), nonzero_out_cpu_dtypes);
  const int64_t ndim = self.dim();
  int64_t count = 0;
  dispatchDtype<nonzero_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    forEachBroadcastPair(self, self, self.sizes(), [&](const char* element, const char*, const int64_t*) {
      count += loadElement(reinterpret_cast<const T*>(element)) != T(0) ? 1 : 0;
    });
  });
  if (ctx.form == OutputForm::Functional) out = ops::empty({count, ndim}, TensorOptions(ScalarType::Long).device(kCPU));
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == ScalarType::Long, op, ": expected 'out' to have dtype Long but got ", out.scalar_type());
  const Tensor pinned_self = unaffectedByResizeOf(out, self);
  resizeOutput(out, {count, ndim});
  if (out.numel() == 0) return out;
  const Tensor dst = maskResultBuffer(out, {&pinned_self});
  int64_t* write = static_cast<int64_t*>(dst.data_ptr());
  dispatchDtype<nonzero_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    forEachBroadcastPair(pinned_self, pinned_self, pinned_self.sizes(),
                         [&](const char* element, const char*, const int64_t* index) {
                           if (loadElement(reinterpret_cast<const T*>(element)) == T(0)) return;
                           write = std::copy(index, index + ndim, write);
                         });
  });
  if (!dst.is_same(out)) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

}  // namespace native
}  // namespace sy::cpu
