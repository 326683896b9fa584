// The creation operators on the CPU: zeros, ones, full, scalar_tensor, arange, empty_like, zeros_like,
// ones_like, full_like (each with its out= form); and allocateLike, the layout rules of the
// *_like family, which clone and _to_copy share.
//
// Semantics (PyTorch's):
//   - zeros/ones default to Float; full infers its dtype from fill_value (bool -> Bool,
//     integer -> Long, floating -> Float) unless dtype is given; the *_like forms default to
//     self's dtype and device and preserve self's layout (see allocateLike in shape_kernels.h).
//   - A fill value that does not fit the dtype is an error rather than a silent wrap
//     ("value 3000000000 cannot be converted to type Int without overflow"); NaN and infinities are
//     fine for Float/Double, and any value converts to Bool (nonzero -> true).
//   - arange gives Long when start, end and step are all integers and Float otherwise. A floating
//     result is start + i * step computed in double, then converted. An integral result (Int or
//     Long) first converts start, end and step to 64-bit integers, truncating toward zero, and
//     steps through those exactly: arange(-2.5, 5, dtype=Int) starts at -2, and a step that
//     truncates to 0 is an error. Its length, as in PyTorch, is ceil((end - start) / step) of the
//     truncated values for Long but of the values as given for Int (arange(0, 2.5) has 2 Long
//     elements but 3 Int ones). Its out= form keeps out's shape when out already has the right
//     number of elements (filled in row-major order) and resizes it to 1-D otherwise.
//   - Only the Strided layout exists; pin_memory is accepted and ignored (there is no DMA to pin).
//   - A tensor requested on another device is built on the CPU and copied over with aten::empty
//     and aten::copy_ through the dispatcher, so that device's backend does the transfer.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/shape_kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

void checkStridedLayout(const char* op, std::optional<Layout> layout) {
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
}

void checkSizes(const char* op, IntArrayRef size) {
  checkedNumel(op, size);  // a negative dimension is a ValueError naming the operator
}

// `value` as a T, or an error naming `op` when T cannot represent it (Scalar::fits; see Note
// [Scalars convert only to types that can hold them]).
template <class T>
T checkedFillValue(const char* op, const Scalar& value, ScalarType dtype) {
  SY_CHECK_VALUE(value.fits<T>(), op, ": value ", value, " cannot be converted to type ", dtype, " without overflow");
  return value.to<T>();
}

template <class T>
void fillWith(const Tensor& t, T value) {
  if (t.is_contiguous()) {
    std::fill_n(static_cast<T*>(t.data_ptr()), t.numel(), value);
    return;
  }
  const LoopGeometry geometry = makeLoopGeometry({&t});
  forEachRow<1>(geometry, [value](const std::array<char*, 1>& data, const std::array<int64_t, 1>& strides, int64_t n) {
    if (strides[0] == static_cast<int64_t>(sizeof(T))) {
      std::fill_n(reinterpret_cast<T*>(data[0]), n, value);
      return;
    }
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(data[0] + i * strides[0]) = value;
  });
}

// The dtypes zeros, ones, full, scalar_tensor, their *_like forms and fill fill: every real dtype
// (a fill computes nothing, so Half, BFloat16, the Float8 and the narrow and wide integer types
// need no arithmetic of their own). Their entries in creation_ops.yaml declare it, one set.
constexpr unsigned kFillableDtypes = native::full_out_cpu_dtypes;
static_assert(native::full_cpu_dtypes == kFillableDtypes && native::zeros_cpu_dtypes == kFillableDtypes &&
                  native::zeros_out_cpu_dtypes == kFillableDtypes && native::ones_cpu_dtypes == kFillableDtypes &&
                  native::ones_out_cpu_dtypes == kFillableDtypes && native::scalar_tensor_cpu_dtypes == kFillableDtypes &&
                  native::scalar_tensor_out_cpu_dtypes == kFillableDtypes &&
                  native::zeros_like_cpu_dtypes == kFillableDtypes && native::zeros_like_out_cpu_dtypes == kFillableDtypes &&
                  native::ones_like_cpu_dtypes == kFillableDtypes && native::ones_like_out_cpu_dtypes == kFillableDtypes &&
                  native::full_like_cpu_dtypes == kFillableDtypes && native::full_like_out_cpu_dtypes == kFillableDtypes &&
                  native::fill_Scalar_out_cpu_dtypes == kFillableDtypes &&
                  native::fill_Tensor_out_cpu_dtypes == kFillableDtypes,
              "the filling kernels share fillChecked, so their entries in creation_ops.yaml declare the same dtypes");

// Sets every element of the CPU tensor `t` (any strides) to `value`.
void fillChecked(const char* op, const Tensor& t, const Scalar& value, const char* argument) {
  dispatchDtype<kFillableDtypes>(t.scalar_type(), op, argument, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T converted = checkedFillValue<T>(op, value, t.scalar_type());
    if (t.numel() > 0) fillWith<T>(t, converted);
  });
}

// A CPU tensor built here, handed to `device` (itself when that is the CPU).
Tensor onDevice(Tensor cpu_result, Device device) { return device.is_cpu() ? cpu_result : cpu_result.to(device); }

// The shared body of zeros, ones and full.
Tensor filledFactory(const char* op, IntArrayRef size, const Scalar& value, ScalarType dtype,
                     std::optional<Layout> layout, std::optional<Device> device) {
  checkStridedLayout(op, layout);
  checkSizes(op, size);
  Tensor out = ops::empty(size, TensorOptions(dtype).device(kCPU));
  fillChecked(op, out, value, "dtype");
  return onDevice(std::move(out), device.value_or(kCPU));
}

Tensor& filledOut(const char* op, IntArrayRef size, const Scalar& value, Tensor& out) {
  checkOnCPU(op, "out", out);
  checkSizes(op, size);
  // Validate the value before touching out, so a failed call leaves it as it was.
  dispatchDtype<kFillableDtypes>(out.scalar_type(), op, "out", [&](auto tag) {
    checkedFillValue<typename decltype(tag)::type>(op, value, out.scalar_type());
  });
  resizeOutput(out, size);
  fillChecked(op, out, value, "out");
  return out;
}

// full's dtype when none is given: what a tensor made from the Python value would hold.
ScalarType dtypeOfFillValue(const Scalar& value) {
  if (value.isBoolean()) return ScalarType::Bool;
  return value.isIntegral(false) ? ScalarType::Long : ScalarType::Float;
}

// ---- arange --------------------------------------------------------------------------------------

// The arange overloads share their loops, so their entries declare one set (no Bool ranges).
constexpr unsigned kArangeDtypes = native::arange_out_cpu_dtypes;
static_assert(native::arange_cpu_dtypes == kArangeDtypes && native::arange_start_cpu_dtypes == kArangeDtypes &&
                  native::arange_start_step_cpu_dtypes == kArangeDtypes && native::arange_start_out_cpu_dtypes == kArangeDtypes,
              "the arange overloads declare the same dtypes: in creation_ops.yaml");

bool integralBounds(const Scalar& start, const Scalar& end, const Scalar& step) {
  return start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true);
}

// The number of elements of arange(start, end, step) in `dtype` (that of the argument named
// `argument`), after PyTorch's checks.
int64_t arangeLength(const char* op, const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dtype,
                     const char* argument) {
  dispatchDtype<kArangeDtypes>(dtype, op, argument, [](auto) {});
  if (isIntegralType(dtype, false)) {
    // PyTorch's integral arange works on the bounds and step truncated to int64.
    const int64_t first = start.toLong(), last = end.toLong(), stride = step.toLong();
    SY_CHECK(stride != 0, op, ": step must be nonzero");
    SY_CHECK((stride > 0 && last >= first) || (stride < 0 && last <= first), op,
             ": upper bound and larger bound inconsistent with step sign (start ", start, ", end ", end, ", step ",
             step, ")");
    if (dtype != ScalarType::Long && !integralBounds(start, end, step)) {
      // ... but measures an Int range on the bounds as given.
      const double length = std::ceil((end.toDouble() - start.toDouble()) / step.toDouble());
      SY_CHECK(length < 9.2e18, op, ": invalid size, possible overflow?");
      return length > 0 ? static_cast<int64_t>(length) : 0;
    }
    int64_t distance;
    // INT64_MIN as a distance would overflow its division by -1.
    SY_CHECK(!__builtin_sub_overflow(last, first, &distance) && distance != std::numeric_limits<int64_t>::min(), op,
             ": invalid size, possible overflow? (start ", start, ", end ", end, ")");
    // Both have the same sign here, so this is the exact ceiling of distance / stride.
    return distance / stride + (distance % stride != 0 ? 1 : 0);
  }
  const double first = start.toDouble(), last = end.toDouble(), stride = step.toDouble();
  SY_CHECK(stride != 0, op, ": step must be nonzero");
  SY_CHECK(std::isfinite(first) && std::isfinite(last), op, ": unsupported range: ", start, " -> ", end);
  SY_CHECK((stride > 0 && last >= first) || (stride < 0 && last <= first), op,
           ": upper bound and larger bound inconsistent with step sign (start ", start, ", end ", end, ", step ", step,
           ")");
  const double length = std::ceil((last - first) / stride);
  SY_CHECK(length >= 0 && length < 9.2e18, op, ": invalid size, possible overflow?");
  return static_cast<int64_t>(length);
}

// arangeLength, plus a bound on the bytes it needs, so an absurd range is an error, not an
// allocation whose size wrapped around.
int64_t checkedArangeLength(const char* op, const Scalar& start, const Scalar& end, const Scalar& step,
                            ScalarType dtype, const char* argument) {
  const int64_t length = arangeLength(op, start, end, step, dtype, argument);
  int64_t bytes;
  SY_CHECK(!__builtin_mul_overflow(length, static_cast<int64_t>(elementSize(dtype)), &bytes), op,
           ": invalid size, possible overflow? (", length, " elements)");
  return length;
}

// Writes arange's values into a contiguous 1-D run of `length` elements of type T.
template <class T>
void writeArange(const char* op, T* out, int64_t length, const Scalar& start, const Scalar& step, ScalarType dtype) {
  if (length == 0) return;
  if constexpr (std::is_integral_v<T>) {
    // The truncated start and step (see arangeLength).
    const int64_t first = start.toLong(), stride = step.toLong();
    int64_t final_value;
    SY_CHECK(!__builtin_mul_overflow(length - 1, stride, &final_value) &&
                 !__builtin_add_overflow(first, final_value, &final_value),
             op, ": invalid size, possible overflow?");
    checkedFillValue<T>(op, first, dtype);
    checkedFillValue<T>(op, final_value, dtype);
    for (int64_t i = 0; i < length; ++i) out[i] = static_cast<T>(first + i * stride);
    return;
  }
  const double first = start.toDouble(), stride = step.toDouble();
  checkedFillValue<T>(op, first, dtype);
  checkedFillValue<T>(op, first + static_cast<double>(length - 1) * stride, dtype);
  // PyTorch's CPU accumulation type: double for Float and Double, float for Half and BFloat16.
  using Acc = std::conditional_t<is_reduced_floating_v<T>, float, double>;
  const Acc acc_first = static_cast<Acc>(first), acc_stride = static_cast<Acc>(stride);
  for (int64_t i = 0; i < length; ++i) out[i] = static_cast<T>(acc_first + static_cast<Acc>(i) * acc_stride);
}

// Fills `out` (numel == length, any strides) with arange's values in row-major order.
void fillArange(const char* op, const Tensor& out, int64_t length, const Scalar& start, const Scalar& step) {
  const Tensor dense = out.is_contiguous() ? out : sy::empty(out.sizes(), out.scalar_type());
  dispatchDtype<kArangeDtypes>(out.scalar_type(), op, "out", [&](auto tag) {
    using T = typename decltype(tag)::type;
    writeArange<T>(op, static_cast<T*>(dense.data_ptr()), length, start, step, out.scalar_type());
  });
  if (!dense.is_same(out)) copyIntoCPU(op, out, dense, "out", "result");
}

Tensor arangeFactory(const char* op, const Scalar& start, const Scalar& end, const Scalar& step,
                     std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device) {
  checkStridedLayout(op, layout);
  const ScalarType result_dtype =
      dtype.value_or(integralBounds(start, end, step) ? ScalarType::Long : ScalarType::Float);
  const int64_t length = checkedArangeLength(op, start, end, step, result_dtype, "dtype");
  Tensor out = ops::empty({length}, TensorOptions(result_dtype).device(kCPU));
  fillArange(op, out, length, start, step);
  return onDevice(std::move(out), device.value_or(kCPU));
}

Tensor& arangeOut(const char* op, const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  checkOnCPU(op, "out", out);
  const int64_t length = checkedArangeLength(op, start, end, step, out.scalar_type(), "out");
  if (out.numel() != length) out.resize_({length});
  fillArange(op, out, length, start, step);
  return out;
}

// ---- *_like --------------------------------------------------------------------------------------

// The shared body of zeros_like, ones_like and full_like.
Tensor filledLike(const char* op, const Tensor& self, const Scalar& value, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  checkOnCPU(op, "self", self);
  checkStridedLayout(op, layout);
  const ScalarType result_dtype = dtype.value_or(self.scalar_type());
  const Device target = device.value_or(self.device());
  Tensor out = allocateLike(op, self, result_dtype, target, memory_format);
  if (target.is_cpu()) {
    fillChecked(op, out, value, "dtype");
    return out;
  }
  Tensor staged = sy::empty(self.sizes(), result_dtype);
  fillChecked(op, staged, value, "dtype");
  ops::copy_(out, staged);
  return out;
}

Tensor& filledLikeOut(const char* op, const Tensor& self, const Scalar& value,
                      std::optional<MemoryFormat> memory_format, Tensor& out) {
  checkOnCPU(op, "self", self);
  checkMemoryFormatFor(op, self, memory_format);
  return filledOut(op, self.sizes(), value, out);
}

bool isNonOverlappingAndDense(const Tensor& t) {
  if (t.numel() == 0) return false;
  // Dimensions of size > 1, innermost (smallest stride) first; each must step over exactly the
  // elements of the ones inside it.
  SizesVector dims;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1) dims.push_back(d);
  }
  for (size_t i = 1; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    size_t j = i;
    for (; j > 0 && t.stride(dims[j - 1]) > t.stride(d); --j) dims[j] = dims[j - 1];
    dims[j] = d;
  }
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

SizesVector channelsLastStrides(const char* op, IntArrayRef size) {
  const auto strides = checkedStridesInDimOrder(op, size, {0, 2, 3, 1});
  return SizesVector(strides.begin(), strides.end());
}

}  // namespace

void fillTensorWith(const char* op, const Tensor& t, const Scalar& value, const char* argument) {
  fillChecked(op, t, value, argument);
}

void checkMemoryFormatFor(const char* op, const Tensor& self, std::optional<MemoryFormat> memory_format) {
  SY_CHECK(memory_format != MemoryFormat::ChannelsLast || self.dim() == 4, op,
           ": memory_format ChannelsLast needs a 4-D tensor (N, C, H, W), but 'self' is ", self.dim(), "-D");
}

Tensor allocateLike(const char* op, const Tensor& self, ScalarType dtype, Device device,
                    std::optional<MemoryFormat> memory_format) {
  checkMemoryFormatFor(op, self, memory_format);
  Tensor out = ops::empty(self.sizes(), TensorOptions(dtype).device(device));
  // The allocation holds numel elements, which is exactly what either restriding addresses.
  switch (memory_format.value_or(MemoryFormat::Preserve)) {
    case MemoryFormat::Preserve:
      if (!self.is_contiguous() && isNonOverlappingAndDense(self)) {
        out.unsafeGetTensorImpl()->set_sizes_and_strides(self.sizes(), self.strides(), out.storage_offset());
      }
      break;
    case MemoryFormat::ChannelsLast:
      out.unsafeGetTensorImpl()->set_sizes_and_strides(self.sizes(), channelsLastStrides(op, self.sizes()),
                                                       out.storage_offset());
      break;
    case MemoryFormat::Contiguous:
      break;
  }
  return out;
}

// The kernels backends/devices/cpu/creation_ops.yaml binds.
namespace native {

Tensor zeros_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return filledFactory(ctx.op, size, 0, dtype.value_or(ScalarType::Float), layout, device);
}
Tensor& zeros_out_cpu(IntArrayRef size, Tensor& out, const KernelContext& ctx) {
  return filledOut(ctx.op, size, 0, out);
}

Tensor ones_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return filledFactory(ctx.op, size, 1, dtype.value_or(ScalarType::Float), layout, device);
}
Tensor& ones_out_cpu(IntArrayRef size, Tensor& out, const KernelContext& ctx) {
  return filledOut(ctx.op, size, 1, out);
}

Tensor full_cpu(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                const KernelContext& ctx) {
  return filledFactory(ctx.op, size, fill_value, dtype.value_or(dtypeOfFillValue(fill_value)), layout, device);
}
Tensor& full_out_cpu(IntArrayRef size, const Scalar& fill_value, Tensor& out, const KernelContext& ctx) {
  return filledOut(ctx.op, size, fill_value, out);
}
// scalar_tensor is full with no dimensions, except that its dtype defaults to Float.
Tensor scalar_tensor_cpu(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return filledFactory(ctx.op, {}, s, dtype.value_or(ScalarType::Float), layout, device);
}
Tensor& scalar_tensor_out_cpu(const Scalar& s, Tensor& out, const KernelContext& ctx) {
  return filledOut(ctx.op, {}, s, out);
}

Tensor arange_cpu(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return arangeFactory(ctx.op, 0, end, 1, dtype, layout, device);
}
Tensor arange_start_cpu(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                        const KernelContext& ctx) {
  return arangeFactory(ctx.op, start, end, 1, dtype, layout, device);
}
Tensor arange_start_step_cpu(const Scalar& start, const Scalar& end, const Scalar& step,
                             std::optional<ScalarType> dtype, std::optional<Layout> layout,
                             std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return arangeFactory(ctx.op, start, end, step, dtype, layout, device);
}
Tensor& arange_out_cpu(const Scalar& end, Tensor& out, const KernelContext& ctx) {
  return arangeOut(ctx.op, 0, end, 1, out);
}
Tensor& arange_start_out_cpu(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out,
                             const KernelContext& ctx) {
  return arangeOut(ctx.op, start, end, step, out);
}

Tensor empty_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory,
                      std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkStridedLayout(op, layout);
  return allocateLike(op, self, dtype.value_or(self.scalar_type()), device.value_or(self.device()), memory_format);
}
Tensor& empty_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out,
                           const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  checkMemoryFormatFor(op, self, memory_format);
  resizeOutput(out, self.sizes());
  return out;
}

Tensor zeros_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory,
                      std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  return filledLike(ctx.op, self, 0, dtype, layout, device, memory_format);
}
Tensor& zeros_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out,
                           const KernelContext& ctx) {
  return filledLikeOut(ctx.op, self, 0, memory_format, out);
}

Tensor ones_like_cpu(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory,
                     std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  return filledLike(ctx.op, self, 1, dtype, layout, device, memory_format);
}
Tensor& ones_like_out_cpu(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out,
                          const KernelContext& ctx) {
  return filledLikeOut(ctx.op, self, 1, memory_format, out);
}

Tensor full_like_cpu(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                     std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  return filledLike(ctx.op, self, fill_value, dtype, layout, device, memory_format);
}
Tensor& full_like_out_cpu(const Tensor& self, const Scalar& fill_value, std::optional<MemoryFormat> memory_format,
                          Tensor& out, const KernelContext& ctx) {
  return filledLikeOut(ctx.op, self, fill_value, memory_format, out);
}

}  // namespace native
}  // namespace sy::cpu
