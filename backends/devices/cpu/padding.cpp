// constant_pad_nd (+ constant_pad_nd.out) on the CPU: self with `value` added around its last
// dimensions.
//
// Semantics (PyTorch's): `pad` holds (before, after) pairs, the first pair for the last dimension,
// the next for the one before it, and so on, so it has an even length of at most twice self's rank;
// a negative pad crops instead, and no dimension may end up with a negative size. `value` is
// converted to self's dtype (an error when the dtype cannot hold it); the result has self's
// dtype, and an out= tensor must have it too. See rearrange.h for the out's rules.
#include <cstring>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/checked_size.h"

namespace sy::cpu {
namespace native {

Tensor& constant_pad_nd_out_cpu(const Tensor& self, IntArrayRef pad, const Scalar& value, Tensor& out,
                                const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  const int64_t ndim = self.dim();
  SY_CHECK(pad.size() % 2 == 0, op, ": Length of pad must be even but instead it equals ", pad.size());
  const int64_t pairs = static_cast<int64_t>(pad.size() / 2);
  SY_CHECK(pairs <= ndim, op, ": Length of pad should be no more than twice the number of dimensions of the input. "
           "Pad length is ", pad.size(), " while the input has ", ndim, " dimensions.");
  SizesVector sizes(self.sizes().begin(), self.sizes().end());
  SizesVector before(static_cast<size_t>(ndim), 0);
  for (int64_t i = 0; i < pairs; ++i) {
    const int64_t d = ndim - 1 - i;
    before[d] = pad[2 * i];
    int64_t size = 0;
    SY_CHECK_VALUE(checkedAdd(self.size(d), pad[2 * i], &size) && checkedAdd(size, pad[2 * i + 1], &size), op,
                   ": padding dimension ", d, " by ", pad[2 * i], " and ", pad[2 * i + 1],
                   " gives a size larger than 64 bits hold");
    SY_CHECK(size >= 0, op, ": The input size ", self.size(d), ", plus negative padding ", pad[2 * i], " and ",
             pad[2 * i + 1], " resulted in a negative output size, which is invalid. Check dimension ", d,
             " of your input.");
    sizes[d] = size;
  }
  checkedNumel(op, sizes);
  uint64_t fill = 0;  // one element of self's dtype
  dispatchDtype<native::constant_pad_nd_out_cpu_dtypes>(self.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    SY_CHECK_VALUE(value.fits<T>(), op, ": value ", value, " cannot be converted to type ", self.scalar_type(),
                   " without overflow");
    const T converted = value.to<T>();
    std::memcpy(&fill, &converted, sizeof(T));
  });
  const Tensor source = readableInputOf(op, self, out);
  rearrangedOutput(ctx, self, sizes, out);
  writeElementsFrom(out, source, &fill, [&](const int64_t* index, int64_t* offset) {
    int64_t o = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t i = index[d] - before[d];
      if (i < 0 || i >= source.size(d)) return false;
      o += i * source.stride(d);
    }
    *offset = o;
    return true;
  });
  return out;
}

}  // namespace native
}  // namespace sy::cpu
