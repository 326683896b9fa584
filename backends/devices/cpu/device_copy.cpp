// et_copy::_h2d_copy.out and et_copy::_d2h_copy.out: the copies ExecuTorch's device-placement pass
// inserts where a program's data moves between host memory and a device's (kernels registered from
// shape_ops.yaml).
//
// Semantics (ExecuTorch's): `out` takes self's shape and holds a copy of its elements; both have
// the same dtype. The host side must be on the CPU: self for _h2d_copy, out for _d2h_copy. The copy
// itself is aten::copy_ through the dispatcher, so that when the other side is on a device, that
// device's backend moves the bytes (See Note [copy_ across devices goes to _copy_from] in copy.cpp);
// a program whose device buffers were planned in host memory copies host to host.
#include <string_view>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ops/shape/NativeFunctions.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

Tensor& deviceCopy(const KernelContext& ctx, const Tensor& self, Tensor& out, const char* host_side) {
  const char* op = ctx.op;
  SY_CHECK(self.defined() && out.defined(), op, ": self and out must be defined tensors");
  const Tensor& host = std::string_view(host_side) == "self" ? self : out;
  SY_CHECK(host.device().is_cpu(), op, ": '", host_side, "' is the host side of this copy and must be on the CPU, but is on ",
           host.device());
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const Tensor source = unaffectedByResizeOf(out, self);
  resizeOutput(out, self.sizes());
  if (out.numel() != 0) ops::copy_(out, source);
  return out;
}

}  // namespace

namespace native {

Tensor& _h2d_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return deviceCopy(ctx, self, out, "self");
}
Tensor& _d2h_copy_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return deviceCopy(ctx, self, out, "out");
}

}  // namespace native
}  // namespace sy::cpu
