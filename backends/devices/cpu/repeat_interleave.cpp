// repeat_interleave.Tensor_out (+ repeat_interleave.Tensor) on the CPU: the indices 0, 1, ...,
// each i repeated repeats[i] times ([2, 0, 1] gives [0, 0, 2]), the gather index behind
// repeat_interleave(self, repeats, dim).
//
// Semantics (PyTorch's): `repeats` is a 1-D Int or Long tensor of non-negative counts; the result
// has repeats' dtype and as many elements as the counts sum to, which `output_size`, when given,
// must equal. An out= tensor must have repeats' dtype; it is resized.
#include <cstdint>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/index/NativeFunctions.h"

namespace sy::cpu {
namespace native {

Tensor& repeat_interleave_Tensor_out_cpu(const Tensor& repeats, std::optional<int64_t> output_size, Tensor& out,
                                         const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "repeats", repeats);
  SY_CHECK(repeats.dim() == 1, op, ": repeat_interleave only accept 1D vector as repeat (got a ", repeats.dim(),
           "-D tensor)");
  checkDtypeSupported(op, "repeats", repeats.scalar_type(), native::repeat_interleave_Tensor_out_cpu_dtypes);
  const int64_t n = repeats.size(0);
  int64_t total = 0;
  dispatchDtype<native::repeat_interleave_Tensor_out_cpu_dtypes>(repeats.scalar_type(), op, "repeats", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* r = n == 0 ? nullptr : static_cast<const T*>(repeats.data_ptr());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = r[i * repeats.stride(0)];
      SY_CHECK_VALUE(count >= 0, op, ": repeats can not be negative (repeats[", i, "] is ", count, ")");
      SY_CHECK_VALUE(checkedAdd(total, count, &total), op, ": the repeats sum to more than 64 bits hold");
    }
  });
  SY_CHECK_VALUE(!output_size.has_value() || *output_size == total, op, ": allocated size does not match required size (",
                 "output_size is ", output_size.value_or(0), " but the repeats sum to ", total, ")");
  const int64_t sizes[1] = {total};
  checkedNumel(op, sizes);
  // out may be repeats itself, which the resize would overwrite.
  const Tensor source = readableInputOf(op, repeats, out);
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(sizes, TensorOptions(repeats.scalar_type()).device(kCPU));
  } else {
    checkOnCPU(op, "out", out);
    SY_CHECK(out.scalar_type() == repeats.scalar_type(), op, ": expected 'out' to have repeats' dtype ",
             repeats.scalar_type(), " but got ", out.scalar_type());
    resizeOutput(out, sizes);
    checkNoInternalOverlap(op, out, "out");
  }
  dispatchDtype<native::repeat_interleave_Tensor_out_cpu_dtypes>(out.scalar_type(), op, "out", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (total == 0) return;
    const T* r = static_cast<const T*>(source.data_ptr());
    T* o = static_cast<T*>(out.data_ptr());
    const int64_t step = out.stride(0);
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = r[i * source.stride(0)];
      for (int64_t c = 0; c < count; ++c, ++at) o[at * step] = static_cast<T>(i);
    }
  });
  return out;
}

}  // namespace native
}  // namespace sy::cpu
