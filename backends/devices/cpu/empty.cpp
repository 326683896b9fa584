// aten::empty.memory_format on the CPU: uninitialised memory from the CPU allocator; and
// aten::empty.out, which resizes its out (PyTorch's: memory_format must be None there, since out
// keeps its own layout; a negative size is an error).
//
// Semantics: dtype defaults to Float; negative sizes are rejected naming the index; only the
// Strided layout exists; pin_memory is accepted and ignored (there is no device DMA to pin for);
// memory_format Contiguous (the default) gives row-major strides, ChannelsLast gives NHWC strides
// for a 4-D size (dim order {0, 2, 3, 1}), and Preserve is an error because empty has no input
// whose format could be preserved. empty_strided takes the strides as given (any, including 0 and
// overlapping ones, as PyTorch does). resize_ resizes in place with contiguous strides (ChannelsLast
// ones for that memory format), growing the storage when it is too small.
#include <cstdint>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/creation/NativeFunctions.h"

namespace sy::cpu {
namespace {

// A 4-D size's NHWC strides (dim order 0, 2, 3, 1), checked.
SizesVector checkedChannelsLastStrides(const char* op, IntArrayRef size) {
  SY_CHECK(size.size() == 4, op, ": memory_format ChannelsLast needs a 4-D size (N, C, H, W), but got ",
           formatSizes(size));
  const auto strides = checkedStridesInDimOrder(op, size, {0, 2, 3, 1});
  return SizesVector(strides.begin(), strides.end());
}

}  // namespace

Tensor empty_memory_format_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                               std::optional<Device> device, std::optional<bool> pin_memory,
                               std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkedNumel(op, size);  // a negative dimension is a ValueError naming the operator
  const Device target = device.value_or(kCPU);
  SY_CHECK(target.is_cpu(), op, ": the CPU kernel cannot allocate on ", target, "; register an ", op,
           " kernel for that device's backend");
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
  const ScalarType element_type = dtype.value_or(ScalarType::Float);
  SY_CHECK(elementSize(element_type) > 0, op, ": cannot allocate a tensor of dtype ", element_type);
  const TensorOptions options = TensorOptions(element_type).device(target);

  switch (memory_format.value_or(MemoryFormat::Contiguous)) {
    case MemoryFormat::Contiguous:
      return sy::empty(size, options);
    case MemoryFormat::ChannelsLast:
      return sy::empty_strided(size, checkedChannelsLastStrides(op, size), options);
    case MemoryFormat::Preserve:
      break;
  }
  SY_ERROR(op, ": memory_format ", static_cast<int>(*memory_format),
           " is not supported (use Contiguous or ChannelsLast; Preserve needs an input tensor to preserve)");
}

namespace {

// aten::resize_, registered below by hand: its C++ signature is PyTorch's, with a const self.
const Tensor& resize_cpu(const Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format,
                         const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  SY_CHECK(self.is_cpu(), op, ": the CPU kernel cannot resize a tensor on ", self.device(), "; register an ", op,
           " kernel for that device's backend");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  SY_CHECK(format != MemoryFormat::Preserve, op, ": memory_format Preserve is not supported (use Contiguous or ChannelsLast)");
  // Checked before anything changes, so a refused call leaves self as it was.
  const SizesVector strides = format == MemoryFormat::ChannelsLast ? checkedChannelsLastStrides(op, size) : SizesVector();
  TensorImpl* impl = self.unsafeGetTensorImpl();
  impl->resize(size);
  if (format == MemoryFormat::ChannelsLast) impl->set_sizes_and_strides(size, strides, impl->storage_offset());
  return self;
}

}  // namespace

namespace native {

Tensor& empty_out_cpu(IntArrayRef size, std::optional<MemoryFormat> memory_format, Tensor& out,
                      const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "out", out);
  SY_CHECK(!memory_format.has_value(), op, ": 'memory_format' argument is incompatible with 'out' tensor argument");
  checkedNumel(op, size);
  resizeOutput(out, size);
  return out;
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                         const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(size.size() == stride.size(), op, ": size ", formatSizes(size), " has ", size.size(),
           " dimensions but stride ", formatSizes(stride), " has ", stride.size());
  const Device target = device.value_or(kCPU);
  SY_CHECK(target.is_cpu(), op, ": the CPU kernel cannot allocate on ", target, "; register an ", op,
           " kernel for that device's backend");
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
  for (size_t i = 0; i < stride.size(); ++i) {
    SY_CHECK_VALUE(stride[i] >= 0, op, ": stride ", formatSizes(stride), " has the negative stride ", stride[i],
                   " at dimension ", i);
  }
  return sy::empty_strided(size, stride, TensorOptions(dtype.value_or(ScalarType::Float)));
}

}  // namespace native
}  // namespace sy::cpu

// Registered here, beside the kernel, so that the dispatcher's trampoline inlines it: every
// functional operator allocates through it.
SY_LIBRARY_IMPL(aten, CPU, m) {
  static constexpr sy::KernelContext kEmpty{"aten::empty.memory_format", sy::OutputForm::Functional};
  m.impl(kEmpty.op, sy::withContext<&sy::cpu::empty_memory_format_cpu, &kEmpty>());
  static constexpr sy::KernelContext kResize{"aten::resize_", sy::OutputForm::InPlace};
  m.impl("resize_", sy::withContext<&sy::cpu::resize_cpu, &kResize>());
}
