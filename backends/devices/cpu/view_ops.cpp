// The view operators: view, reshape, permute, transpose.int, unsqueeze, squeeze, squeeze.dim,
// squeeze.dims, expand, slice.Tensor, select.int; and contiguous.
//
// A view is a new TensorImpl over the base's Storage with other sizes, strides and offset, so
// writes through either are visible in the other. Views keep the base's dtype, device and key set
// (a traced or zero tensor's view is traced or zero too), except the autograd keys: autograd gives
// a view it records a key of its own, and one made under NoGradGuard does not require grad (see
// Note [Only tensors that require grad carry an autograd key], autograd/autograd.h). Computing one reads no element, so the
// kernels are registered as CompositeExplicit and serve every strided backend, not only the CPU.
//
// reshape and contiguous may copy; they copy through the dispatcher (aten::clone) and are
// registered as CompositeImplicit, so a backend's own clone does the copying.
//
// Dimension arguments wrap like PyTorch's: -1 is the last dimension, and a 0-dim tensor accepts
// dimensions 0 and -1 wherever a dimension is merely named (transpose, squeeze.dim), but not where
// one is indexed (select, slice).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "switchyard/backends/devices/cpu/borrowed_view.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

// "[2, 3]": how PyTorch spells a size list in these operators' messages.
std::string bracketed(IntArrayRef values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += str(i == 0 ? "" : ", ", values[i]);
  return text + "]";
}

void checkDefined(const char* op, const Tensor& self) {
  SY_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
}

Tensor makeView(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  // See Note [A kernel's own views are borrowed].
  if (std::optional<Tensor> borrowed = borrowedView(base, sizes, strides, storage_offset, base.key_set() - kAutogradKeys)) {
    return *std::move(borrowed);
  }
  auto impl = make_intrusive<TensorImpl>(base.storage(), base.scalar_type(), base.device());
  impl->set_key_set(base.key_set() - kAutogradKeys);
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

// A view with the base's own geometry (PyTorch's alias): what no-op views return.
Tensor alias(const Tensor& base) { return makeView(base, base.sizes(), base.strides(), base.storage_offset()); }

// Strides that let a tensor of (sizes, strides) be read as `shape` without copying, or nothing when
// no such strides exist. The old dimensions are cut into runs that are contiguous with each other
// ("chunks": each dimension's stride is the next one's stride times its size); a valid view must
// split or merge dimensions only within a chunk, never across two.
std::optional<SizesVector> viewStrides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef shape, int64_t numel) {
  if (numel == 0) {
    if (sameSizes(sizes, shape)) return SizesVector(strides.begin(), strides.end());
    return contiguousStrides(shape);
  }
  if (sizes.empty()) return contiguousStrides(shape);  // one element: every shape of 1s fits
  SizesVector result(shape.size());
  int64_t view_dim = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t chunk_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    chunk_numel *= sizes[d];
    const bool chunk_ends_here =
        d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != chunk_numel * chunk_base_stride);
    if (!chunk_ends_here) continue;
    // Lay the new dimensions (and any size-1 ones) over this chunk, innermost first.
    while (view_dim >= 0 && (view_numel < chunk_numel || shape[view_dim] == 1)) {
      result[view_dim] = view_numel * chunk_base_stride;
      view_numel *= shape[view_dim];
      --view_dim;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      chunk_base_stride = strides[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_dim != -1) return std::nullopt;
  return result;
}

// The stride of a new size-1 dimension outside one of `size` and `stride`: size * stride, which
// keeps a contiguous tensor contiguous. A size-1 dimension's stride addresses nothing, so when the
// product does not fit (sizes with a 0 elsewhere can be that large) any stride does: the inner one.
int64_t steppingOver(int64_t size, int64_t stride) {
  int64_t product = 0;
  return __builtin_mul_overflow(size, stride, &product) ? stride : product;
}

bool isChannelsLastContiguous(const Tensor& self) {
  // NHWC: C innermost, then W, H, N; size-1 dimensions may have any stride.
  static constexpr int64_t kInnermostFirst[] = {1, 3, 2, 0};
  int64_t expected = 1;
  for (int64_t d : kInnermostFirst) {
    if (self.size(d) == 1) continue;
    if (self.stride(d) != expected) return self.numel() == 0;
    expected *= self.size(d);
  }
  return true;
}

}  // namespace

SizesVector inferSize(const char* op, IntArrayRef shape, int64_t numel) {
  SizesVector result(shape.begin(), shape.end());
  int64_t inferred_dim = -1;
  int64_t known_product = 1;
  bool overflow = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      SY_CHECK(inferred_dim < 0, op, ": only one dimension can be inferred, but shape ", bracketed(shape),
               " has -1 at indices ", inferred_dim, " and ", i);
      inferred_dim = static_cast<int64_t>(i);
      continue;
    }
    SY_CHECK(shape[i] >= 0, op, ": invalid shape dimension ", shape[i], " at index ", i, " of shape ",
             bracketed(shape));
    overflow = overflow || __builtin_mul_overflow(known_product, shape[i], &known_product);
  }
  // Formatted only on failure: a view allocates nothing but its TensorImpl.
  auto invalid = [&] { return str(op, ": shape '", bracketed(shape), "' is invalid for input of size ", numel); };
  SY_CHECK(!overflow, invalid());
  if (inferred_dim < 0) {
    SY_CHECK(known_product == numel, invalid());
    return result;
  }
  SY_CHECK(known_product != 0 || numel != 0, op, ": cannot reshape tensor of 0 elements into shape ",
           bracketed(shape), " because the unspecified dimension size -1 can be any value and is ambiguous");
  SY_CHECK(known_product != 0 && numel % known_product == 0, invalid());
  result[inferred_dim] = numel / known_product;
  return result;
}

Tensor view(const Tensor& self, IntArrayRef size, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const SizesVector shape = inferSize(op, size, self.numel());
  const std::optional<SizesVector> strides = viewStrides(self.sizes(), self.strides(), shape, self.numel());
  SY_CHECK(strides.has_value(), op,
           ": view size is not compatible with input tensor's size and stride (at least one dimension spans across "
           "two contiguous subspaces). Use .reshape(...) instead. (input size ",
           bracketed(self.sizes()), ", stride ", bracketed(self.strides()), ", requested shape ", bracketed(size), ")");
  return makeView(self, shape, *strides, self.storage_offset());
}

Tensor reshape(const Tensor& self, IntArrayRef shape, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const SizesVector target = inferSize(op, shape, self.numel());
  if (std::optional<SizesVector> strides = viewStrides(self.sizes(), self.strides(), target, self.numel())) {
    return makeView(self, target, *strides, self.storage_offset());
  }
  // No view exists: a contiguous copy (made by whichever backend owns self), reshaped in place.
  Tensor copy = ops::clone(self, MemoryFormat::Contiguous);
  copy.unsafeGetTensorImpl()->set_sizes_and_strides(target, contiguousStrides(target), copy.storage_offset());
  return copy;
}

Tensor permute(const Tensor& self, IntArrayRef dims, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t ndim = self.dim();
  SY_CHECK(static_cast<int64_t>(dims.size()) == ndim, op,
           ": number of dimensions in the tensor input does not match the length of the desired ordering of "
           "dimensions i.e. input.dim() = ",
           ndim, " is not equal to len(dims) = ", dims.size());
  SizesVector sizes(ndim), strides(ndim);
  absl::InlinedVector<bool, 8> used(static_cast<size_t>(ndim), false);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = wrapDim(dims[i], ndim, op, "dims", /*wrap_scalar=*/false);
    SY_CHECK(!used[d], op, ": duplicate dims are not allowed (dimension ", d, " appears twice in ",
             bracketed(dims), ")");
    used[d] = true;
    sizes[i] = self.size(d);
    strides[i] = self.stride(d);
  }
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor transpose_int(const Tensor& self, int64_t dim0, int64_t dim1, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t d0 = wrapDim(dim0, self.dim(), op, "dim0");
  const int64_t d1 = wrapDim(dim1, self.dim(), op, "dim1");
  if (d0 == d1) return alias(self);
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor unsqueeze(const Tensor& self, int64_t dim, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t ndim = self.dim();
  const int64_t d = wrapDim(dim, ndim + 1, op, "dim", /*wrap_scalar=*/false);
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  // The new dimension steps over everything inside it, so a contiguous tensor stays contiguous.
  const int64_t stride = d >= ndim ? 1 : steppingOver(sizes[d], strides[d]);
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor squeeze(const Tensor& self, const KernelContext& ctx) {
  checkDefined(ctx.op, self);
  SizesVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor squeeze_dim(const Tensor& self, int64_t dim, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t d = wrapDim(dim, self.dim(), op, "dim");
  // A dimension other than 1 (or a 0-dim tensor's pretend one) is left alone, as in PyTorch.
  if (self.dim() == 0 || self.size(d) != 1) return alias(self);
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor squeeze_dims(const Tensor& self, IntArrayRef dim, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t ndim = self.dim();
  absl::InlinedVector<bool, 8> listed(static_cast<size_t>(ndim > 0 ? ndim : 1), false);
  for (int64_t d : dim) {
    const int64_t wrapped = wrapDim(d, ndim, op, "dim");
    SY_CHECK(!listed[wrapped], op, ": dim ", wrapped, " appears multiple times in the list of dims ", bracketed(dim));
    listed[wrapped] = true;
  }
  SizesVector sizes, strides;
  for (int64_t d = 0; d < ndim; ++d) {
    // Listed dimensions other than 1 are left alone, as squeeze.dim does.
    if (listed[d] && self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return makeView(self, sizes, strides, self.storage_offset());
}

// `implicit` only tells PyTorch's tracer that the expansion came from broadcasting; the view is
// the same either way.
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t self_ndim = self.dim();
  SY_CHECK(ndim >= self_ndim, op, ": the number of sizes provided (", ndim,
           ") must be greater or equal to the number of dimensions in the tensor (", self_ndim, ")");
  SizesVector sizes(ndim), strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t self_dim = i - (ndim - self_ndim);  // aligned from the right; negative: a new leading dim
    int64_t existing_size = 1;
    // A new leading dimension of size 1 steps over everything inside it, like unsqueeze(0).
    int64_t stride = i + 1 < ndim ? steppingOver(sizes[i + 1], strides[i + 1]) : 1;
    if (self_dim >= 0) {
      existing_size = self.size(self_dim);
      stride = self.stride(self_dim);
    }
    int64_t target = size[i];
    if (target == -1) {
      SY_CHECK(self_dim >= 0, op, ": the expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
               "dimension ", i);
      target = existing_size;
    }
    SY_CHECK(target >= 0, op, ": the expanded size of the tensor (", target, ") at dimension ", i,
             " is negative; only -1 (keep the existing size) may be negative. Target sizes: ", bracketed(size));
    if (target != existing_size) {
      SY_CHECK(existing_size == 1, op, ": the expanded size of the tensor (", target,
               ") must match the existing size (", existing_size, ") at non-singleton dimension ", i,
               ".  Target sizes: ", bracketed(size), ".  Tensor sizes: ", bracketed(self.sizes()));
      stride = 0;  // every index along the new size reads the one existing element
    }
    sizes[i] = target;
    strides[i] = stride;
  }
  checkedNumel(op, sizes);
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor slice_Tensor(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                    int64_t step, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  SY_CHECK(self.dim() > 0, op, ": slice() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrapDim(dim, self.dim(), op, "dim", /*wrap_scalar=*/false);
  SY_CHECK(step > 0, op, ": slice step must be positive, but got step=", step);
  const int64_t size = self.size(d);
  // Python slicing: negative bounds count from the end, then both are clamped into [0, size].
  int64_t first = start.value_or(0);
  int64_t last = end.value_or(std::numeric_limits<int64_t>::max());
  if (first < 0) first += size;
  if (last < 0) last += size;
  first = first < 0 ? 0 : (first > size ? size : first);
  last = last < first ? first : (last > size ? size : last);
  const int64_t length = last == first ? 0 : 1 + (last - first - 1) / step;

  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  const int64_t offset = self.storage_offset() + first * strides[d];
  sizes[d] = length;
  // A step larger than the dimension leaves at most one element, whose stride does not matter;
  // keep the old one rather than overflow.
  int64_t stepped_stride;
  if (!__builtin_mul_overflow(strides[d], step, &stepped_stride)) strides[d] = stepped_stride;
  return makeView(self, sizes, strides, offset);
}

Tensor select_int(const Tensor& self, int64_t dim, int64_t index, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  SY_CHECK(self.dim() > 0, op, ": select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrapDim(dim, self.dim(), op, "dim", /*wrap_scalar=*/false);
  const int64_t size = self.size(d);
  SY_CHECK_INDEX(index >= -size && index < size, op, ": select(): index ", index, " out of range for tensor of size ",
           bracketed(self.sizes()), " at dimension ", d);
  const int64_t position = index < 0 ? index + size : index;
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector strides(self.strides().begin(), self.strides().end());
  const int64_t offset = self.storage_offset() + position * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return makeView(self, sizes, strides, offset);
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkDefined(op, self);
  switch (memory_format) {
    case MemoryFormat::Contiguous:
      return self.is_contiguous() ? self : ops::clone(self, MemoryFormat::Contiguous);
    case MemoryFormat::ChannelsLast:
      SY_CHECK(self.dim() == 4, op, ": memory_format ChannelsLast needs a 4-D tensor (N, C, H, W), but 'self' is ",
               self.dim(), "-D");
      return isChannelsLastContiguous(self) ? self : ops::clone(self, MemoryFormat::ChannelsLast);
    case MemoryFormat::Preserve:
      break;
  }
  SY_ERROR(op, ": preserve memory format is unsupported by the contiguous operator");
}

// The contexts the view kernels are registered with (below); the *_copy kernels pass them when they
// call a view directly.
namespace views {
extern const KernelContext kView{"aten::view", OutputForm::Functional};
extern const KernelContext kReshape{"aten::reshape", OutputForm::Functional};
extern const KernelContext kPermute{"aten::permute", OutputForm::Functional};
extern const KernelContext kTransposeInt{"aten::transpose.int", OutputForm::Functional};
extern const KernelContext kUnsqueeze{"aten::unsqueeze", OutputForm::Functional};
extern const KernelContext kSqueeze{"aten::squeeze", OutputForm::Functional};
extern const KernelContext kSqueezeDim{"aten::squeeze.dim", OutputForm::Functional};
extern const KernelContext kSqueezeDims{"aten::squeeze.dims", OutputForm::Functional};
extern const KernelContext kExpand{"aten::expand", OutputForm::Functional};
extern const KernelContext kSliceTensor{"aten::slice.Tensor", OutputForm::Functional};
extern const KernelContext kSelectInt{"aten::select.int", OutputForm::Functional};
extern const KernelContext kContiguous{"aten::contiguous", OutputForm::Functional};
}  // namespace views

}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeExplicit, m) {
  using namespace sy::cpu;
  using sy::withContext;
  m.impl(views::kView.op, withContext<&view, &views::kView>());
  m.impl(views::kPermute.op, withContext<&permute, &views::kPermute>());
  m.impl(views::kTransposeInt.op, withContext<&transpose_int, &views::kTransposeInt>());
  m.impl(views::kUnsqueeze.op, withContext<&unsqueeze, &views::kUnsqueeze>());
  m.impl(views::kSqueeze.op, withContext<&squeeze, &views::kSqueeze>());
  m.impl(views::kSqueezeDim.op, withContext<&squeeze_dim, &views::kSqueezeDim>());
  m.impl(views::kSqueezeDims.op, withContext<&squeeze_dims, &views::kSqueezeDims>());
  m.impl(views::kExpand.op, withContext<&expand, &views::kExpand>());
  m.impl(views::kSliceTensor.op, withContext<&slice_Tensor, &views::kSliceTensor>());
  m.impl(views::kSelectInt.op, withContext<&select_int, &views::kSelectInt>());
}

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  using namespace sy::cpu;
  using sy::withContext;
  m.impl(views::kReshape.op, withContext<&reshape, &views::kReshape>());
  m.impl(views::kContiguous.op, withContext<&contiguous, &views::kContiguous>());
}
