// reflection_pad1d/2d/3d and replication_pad1d/2d/3d (.out, and their functional forms) on the CPU:
// self padded on its last 1, 2 or 3 dimensions with its own border elements, mirrored (reflection:
// [a b c] padded by 2 on the left is [c b a b c]) or repeated (replication: [a a a b c]).
//
// Semantics (PyTorch's): `padding` holds (before, after) pairs, exactly one per padded dimension,
// the first for the last dimension. self has the padded dimensions and optionally one batch
// dimension before a channel dimension (2-D or 3-D for the 1d forms, and so on); every dimension but
// the batch one must be non-empty. A negative padding crops. Reflection mirrors about the border
// element without repeating it, so each padding must be smaller than its dimension. Every
// output size must be at least 0, and one of them at least 1 (PyTorch checks `output_w >= 1 ||
// output_h >= 1`, so a 2d padding may empty one dimension). The result has self's dtype, and an
// out= tensor must have it too; every dtype is taken, by element size. See rearrange.h for the
// out's rules.
#include <cstdint>

#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/nn/NativeFunctions.h"

namespace sy::cpu {
namespace {

enum class BoundaryMode : uint8_t { Reflect, Replicate };

// The index in [0, size) that output coordinate `x` (in self's coordinates: the output index minus
// the padding before it, so possibly negative or past the end) reads. Reflection's paddings are
// below `size`, so one mirror brings x back: x is within (-size, 2 * size - 1).
inline int64_t boundarySourceIndex(BoundaryMode mode, int64_t x, int64_t size) {
  if (mode == BoundaryMode::Reflect) {
    if (x < 0) return -x;
    if (x >= size) return 2 * (size - 1) - x;
    return x;
  }
  return x < 0 ? 0 : (x >= size ? size - 1 : x);
}

// The dimension names PyTorch's messages use for the padded dimensions, last first.
constexpr const char* kBoundaryPadDimNames[] = {"W", "H", "D"};

Tensor& boundaryPadOut(const Tensor& self, IntArrayRef padding, int64_t padded_dims, BoundaryMode mode, Tensor& out,
                       const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(static_cast<int64_t>(padding.size()) == 2 * padded_dims, op, ": padding size is expected to be ",
           2 * padded_dims, ", but got: ", padding.size());
  const int64_t ndim = self.dim();
  bool valid = ndim == padded_dims + 1 || ndim == padded_dims + 2;
  // A batch dimension (the first of padded_dims + 2) may be empty; no other may.
  for (int64_t d = ndim == padded_dims + 2 ? 1 : 0; valid && d < ndim; ++d) valid = self.size(d) != 0;
  SY_CHECK(valid, op, ": Expected ", padded_dims + 1, "D or ", padded_dims + 2,
           "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ",
           formatSizes(self.sizes()));
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  bool some_output_nonempty = false;
  for (int64_t i = 0; i < padded_dims; ++i) {
    const int64_t d = ndim - 1 - i;
    const int64_t before = padding[2 * i];
    const int64_t after = padding[2 * i + 1];
    SY_CHECK(mode != BoundaryMode::Reflect || (before < self.size(d) && after < self.size(d)), op,
             ": Padding size should be less than the corresponding input dimension, but got: padding (", before, ", ",
             after, ") at dimension ", d, " of input ", formatSizes(self.sizes()));
    int64_t size = 0;
    SY_CHECK_VALUE(checkedAdd(self.size(d), before, &size) && checkedAdd(size, after, &size), op, ": padding dimension ",
                   d, " by ", before, " and ", after, " gives a size larger than 64 bits hold");
    sizes[d] = size;
    some_output_nonempty = some_output_nonempty || size >= 1;
  }
  bool too_small = !some_output_nonempty;
  for (int64_t i = 0; i < padded_dims; ++i) too_small = too_small || sizes[ndim - 1 - i] < 0;
  if (too_small) {
    std::string input_sizes, output_sizes;
    for (int64_t i = padded_dims - 1; i >= 0; --i) {
      const int64_t d = ndim - 1 - i;
      input_sizes += str(i == padded_dims - 1 ? "" : ", ", kBoundaryPadDimNames[i], ": ", self.size(d));
      output_sizes += str(i == padded_dims - 1 ? "" : " ", kBoundaryPadDimNames[i], ": ", sizes[d]);
    }
    SY_ERROR(op, ": input (", input_sizes, ") is too small. Calculated output ", output_sizes);
  }
  checkedNumel(op, sizes);
  const Tensor source = readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, sizes, out);
  const int64_t first_padded = ndim - padded_dims;
  writeElementsFrom(out, source, nullptr, [&](const int64_t* index, int64_t* offset) {
    int64_t o = 0;
    for (int64_t d = 0; d < first_padded; ++d) o += index[d] * source.stride(d);
    for (int64_t d = first_padded; d < ndim; ++d) {
      const int64_t x = index[d] - padding[2 * (ndim - 1 - d)];
      o += boundarySourceIndex(mode, x, source.size(d)) * source.stride(d);
    }
    *offset = o;
    return true;
  });
  return out;
}

}  // namespace

namespace native {

Tensor& reflection_pad1d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 1, BoundaryMode::Reflect, out, ctx);
}
Tensor& reflection_pad2d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 2, BoundaryMode::Reflect, out, ctx);
}
Tensor& reflection_pad3d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 3, BoundaryMode::Reflect, out, ctx);
}
Tensor& replication_pad1d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 1, BoundaryMode::Replicate, out, ctx);
}
Tensor& replication_pad2d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 2, BoundaryMode::Replicate, out, ctx);
}
Tensor& replication_pad3d_out_cpu(const Tensor& self, IntArrayRef padding, Tensor& out, const KernelContext& ctx) {
  return boundaryPadOut(self, padding, 3, BoundaryMode::Replicate, out, ctx);
}

}  // namespace native
}  // namespace sy::cpu
