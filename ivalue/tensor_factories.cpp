#include "switchyard/ivalue/tensor_factories.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/load_element.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/ivalue/storage.h"

namespace sy {
namespace {

// Calls fn(TypeTag<T>{}) for the C++ type of `dtype`.
template <class Fn>
void visitDtype(ScalarType dtype, std::string_view op, Fn&& fn) {
  SY_CHECK(visitScalarType(dtype, fn), op, ": unsupported dtype ", dtype);
}

// Visits every element of a `sizes`-shaped index space in row-major order and passes fn the element
// offset of that index in each of N strided layouts. Offsets are updated incrementally (odometer
// style), so any strides work, including 0 (broadcast) and negative ones.
template <size_t N, class Fn>
void forEachElement(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, Fn&& fn) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) return;
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  SizesVector index(ndim, 0);
  std::array<int64_t, N> offsets{};
  for (int64_t n = 0; n < numel; ++n) {
    fn(offsets);
    advanceOdometer(index.data(), sizes.data(), ndim - 1, offsets, [&](int64_t d, size_t k) { return strides[k][d]; });
  }
}

Tensor allocate(IntArrayRef sizes, IntArrayRef strides, size_t nbytes, const TensorOptions& options) {
  Storage storage = make_intrusive<StorageImpl>(nbytes, getAllocator(options.device_.type()), options.device_);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), options.dtype_, options.device_);
  impl->set_sizes_and_strides(sizes, strides, /*storage_offset=*/0);
  return Tensor(std::move(impl));
}

void checkAllocatableDtype(ScalarType dtype, std::string_view op) {
  SY_CHECK(elementSize(dtype) > 0, op, ": cannot allocate a tensor of dtype ", dtype);
}

// Factories fill on the CPU; a tensor for another device is built there and then moved.
TensorOptions onCPU(const TensorOptions& options) {
  return options.device_.is_cpu() ? options : options.device(kCPU);
}
Tensor toDevice(Tensor cpu_tensor, Device device) {
  return device.is_cpu() ? cpu_tensor : cpu_tensor.to(device);
}

double readAsDouble(const char* element, ScalarType dtype) {
  double value = 0;
  const bool known = visitScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Copied first (any address), then read as its dtype's element: a Bool byte as nonzero-is-true.
    alignas(T) unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, element, sizeof(T));
    value = static_cast<double>(loadElement(reinterpret_cast<const T*>(bytes)));
  });
  SY_CHECK(known, "allclose: unsupported dtype ", dtype);
  return value;
}

bool isClose(double a, double b, double rtol, double atol, bool equal_nan) {
  if (std::isnan(a) || std::isnan(b)) return equal_nan && std::isnan(a) && std::isnan(b);
  // inf - inf is nan, so infinities are compared exactly: equal only with the same sign.
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= atol + rtol * std::abs(b);
}

}  // namespace

Tensor empty(IntArrayRef sizes, TensorOptions options) {
  checkAllocatableDtype(options.dtype_, "empty");
  const int64_t numel = checkedNumel("empty", sizes);
  const size_t nbytes = checkedStorageBytes("empty", 0, numel, options.dtype_, sizes);
  return allocate(sizes, checkedContiguousStrides("empty", sizes), nbytes, options);
}

Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  checkAllocatableDtype(options.dtype_, "empty_strided");
  const int64_t extent = checkedStridedExtent("empty_strided", sizes, strides);
  const size_t nbytes = checkedStorageBytes("empty_strided", 0, extent, options.dtype_, sizes);
  return allocate(sizes, strides, nbytes, options);
}

// The owner of a from_blob tensor's memory, when it has a deleter.
struct BlobOwner {
  void* data;
  std::function<void(void*)> deleter;
};
void releaseBlob(void* context) {
  auto* owner = static_cast<BlobOwner*>(context);
  owner->deleter(owner->data);
  delete owner;
}

// The bytes a from_blob tensor spans; raises before anything is made.
size_t blobBytes(IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options) {
  constexpr const char* op = "from_blob";
  checkAllocatableDtype(options.dtype_, op);
  SY_CHECK(sizes.size() == strides.size(), op, ": size ", formatSizes(sizes), " has ", sizes.size(),
           " dimensions but stride ", formatSizes(strides), " has ", strides.size());
  const int64_t extent = checkedStridedExtent(op, sizes, strides);
  return checkedStorageBytes(op, 0, extent, options.dtype_, sizes);
}

Tensor tensorOverBlob(DataPtr data, size_t nbytes, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options) {
  auto impl = make_intrusive<TensorImpl>(make_intrusive<StorageImpl>(std::move(data), nbytes), options.dtype_, options.device_);
  impl->set_sizes_and_strides(sizes, strides, /*storage_offset=*/0);
  return Tensor(std::move(impl));
}

// The tensor on `storage`, on the device its allocation names, with the keys `ks`.
Tensor tensorOnAllocation(Storage storage, IntArrayRef sizes, IntArrayRef strides, DispatchKeySet ks, ScalarType dtype) {
  const Device device = storage->device();
  auto impl = make_intrusive<TensorImpl>(std::move(storage), dtype, device);
  impl->set_key_set(ks);
  impl->set_sizes_and_strides(sizes, strides, /*storage_offset=*/0);
  return Tensor(std::move(impl));
}

Tensor fromBlob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  const size_t nbytes = blobBytes(sizes, strides, options);
  return tensorOverBlob(DataPtr(data, options.device_), nbytes, sizes, strides, options);
}

Tensor fromBlob(void* data, IntArrayRef sizes, TensorOptions options) {
  return fromBlob(data, sizes, checkedContiguousStrides("from_blob", sizes), options);
}

Tensor fromBlob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter, TensorOptions options) {
  SY_CHECK(deleter != nullptr, "from_blob: the deleter is empty");
  const SizesVector strides = checkedContiguousStrides("from_blob", sizes);
  const size_t nbytes = blobBytes(sizes, strides, options);  // before the deleter is taken over
  DataPtr owned(data, new BlobOwner{data, std::move(deleter)}, &releaseBlob, options.device_);
  return tensorOverBlob(std::move(owned), nbytes, sizes, strides, options);
}

Tensor emptyGeneric(IntArrayRef sizes, Allocator* allocator, DispatchKeySet ks, ScalarType dtype,
                    std::optional<MemoryFormat> memory_format) {
  constexpr const char* op = "empty_generic";
  SY_CHECK(allocator != nullptr, op, ": the allocator is null");
  checkAllocatableDtype(dtype, op);
  const int64_t numel = checkedNumel(op, sizes);
  const size_t nbytes = checkedStorageBytes(op, 0, numel, dtype, sizes);
  SizesVector strides = checkedContiguousStrides(op, sizes);
  switch (memory_format.value_or(MemoryFormat::Contiguous)) {
    case MemoryFormat::Contiguous:
      break;
    case MemoryFormat::ChannelsLast: {
      SY_CHECK(sizes.size() == 4, op, ": memory_format ChannelsLast needs a 4-D size (N, C, H, W), but got ",
               formatSizes(sizes));
      // Dimensions of size 0 step as 1, as contiguous strides do.
      const int64_t c = std::max<int64_t>(sizes[1], 1);
      const int64_t h = std::max<int64_t>(sizes[2], 1);
      const int64_t w = std::max<int64_t>(sizes[3], 1);
      strides = SizesVector{h * w * c, 1, w * c, c};
      break;
    }
    case MemoryFormat::Preserve:
      SY_ERROR(op, ": memory_format Preserve is not supported (there is no input whose format to preserve)");
  }
  return tensorOnAllocation(make_intrusive<StorageImpl>(nbytes, allocator), sizes,
                            strides, ks, dtype);
}

Tensor emptyStridedGeneric(IntArrayRef sizes, IntArrayRef strides, Allocator* allocator, DispatchKeySet ks,
                           ScalarType dtype) {
  constexpr const char* op = "empty_strided_generic";
  SY_CHECK(allocator != nullptr, op, ": the allocator is null");
  checkAllocatableDtype(dtype, op);
  const int64_t extent = checkedStridedExtent(op, sizes, strides);
  const size_t nbytes = checkedStorageBytes(op, 0, extent, dtype, sizes);
  return tensorOnAllocation(make_intrusive<StorageImpl>(nbytes, allocator), sizes,
                            strides, ks, dtype);
}

Tensor zeros(IntArrayRef sizes, TensorOptions options) { return full(sizes, 0, options); }

Tensor ones(IntArrayRef sizes, TensorOptions options) { return full(sizes, 1, options); }

Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options) {
  Tensor t = empty(sizes, onCPU(options));
  fillCPU(t, value);
  return toDevice(std::move(t), options.device_);
}

Tensor arange(const Scalar& end) { return arange(0, end, 1); }

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step) {
  return arange(start, end, step, TensorOptions());
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const bool integral_bounds = start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true);
  if (!options.has_dtype_) options = options.dtype(integral_bounds ? ScalarType::Long : ScalarType::Float);
  SY_CHECK(options.dtype_ != ScalarType::Bool, "arange: not implemented for dtype Bool");
  const double start_d = start.toDouble();
  const double end_d = end.toDouble();
  const double step_d = step.toDouble();
  SY_CHECK(std::isfinite(start_d) && std::isfinite(end_d), "arange: unsupported range ", start, " -> ", end);
  SY_CHECK(step_d != 0, "arange: step must be nonzero");
  SY_CHECK((step_d > 0 && end_d >= start_d) || (step_d < 0 && end_d <= start_d), "arange: step ", step,
           " moves away from end ", end, " (start ", start, ")");

  int64_t size;
  if (integral_bounds) {
    // Exact ceil((end - start) / step); the distance has the sign of step (or is zero).
    int64_t distance = 0;
    SY_CHECK(!__builtin_sub_overflow(end.toLong(), start.toLong(), &distance), "arange: the range ", start, " -> ",
             end, " has too many elements");
    const int64_t stride = step.toLong();
    size = distance / stride + (distance % stride != 0 ? 1 : 0);
  } else {
    // Compared as a double first: converting a count beyond int64_t (or inf) is undefined.
    const double count = std::ceil((end_d - start_d) / step_d);
    SY_CHECK(count < 9.2e18, "arange: the range ", start, " -> ", end, " in steps of ", step,
             " has too many elements");
    size = static_cast<int64_t>(count);
  }

  Tensor t = empty({size}, onCPU(options));
  const bool integral_math = integral_bounds && isIntegralType(options.dtype_, false);
  visitDtype(options.dtype_, "arange", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (size > 0) {
      // The values run monotonically from the first to the last, so both ends fitting is enough.
      const Scalar first = integral_math ? Scalar(start.toLong()) : Scalar(start_d);
      const Scalar last = integral_math ? Scalar(start.toLong() + (size - 1) * step.toLong())
                                        : Scalar(start_d + static_cast<double>(size - 1) * step_d);
      if (!first.fits<T>()) first.throwDoesNotFit(options.dtype_);
      if (!last.fits<T>()) last.throwDoesNotFit(options.dtype_);
    }
    T* out = t.data_ptr<T>();
    for (int64_t i = 0; i < size; ++i) {
      out[i] = integral_math ? static_cast<T>(start.toLong() + i * step.toLong())
                             : static_cast<T>(start_d + static_cast<double>(i) * step_d);
    }
  });
  return toDevice(std::move(t), options.device_);
}

template <class T>
Tensor tensor(const std::vector<T>& values, IntArrayRef sizes) {
  SizesVector shape;
  if (sizes.empty()) {
    shape.push_back(static_cast<int64_t>(values.size()));
  } else {
    shape.assign(sizes.begin(), sizes.end());
  }
  int64_t numel = checkedNumel("tensor", shape);
  SY_CHECK(numel == static_cast<int64_t>(values.size()), "tensor: ", values.size(), " values do not fill size ",
           formatSizes(shape), " (", numel, " elements)");
  Tensor t = empty(shape, TensorOptions(CppTypeToScalarType<T>::value));
  T* out = t.data_ptr<T>();
  // Element by element: std::vector<bool> has no contiguous data to copy from.
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

template Tensor tensor<bool>(const std::vector<bool>&, IntArrayRef);
template Tensor tensor<int32_t>(const std::vector<int32_t>&, IntArrayRef);
template Tensor tensor<int64_t>(const std::vector<int64_t>&, IntArrayRef);
template Tensor tensor<float>(const std::vector<float>&, IntArrayRef);
template Tensor tensor<double>(const std::vector<double>&, IntArrayRef);

Tensor tensor(std::initializer_list<float> values) { return tensor<float>(std::vector<float>(values)); }

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  SY_CHECK(a.defined() && b.defined(), "allclose: expected two defined tensors");
  SY_CHECK(a.is_cpu() && b.is_cpu(), "allclose: expected CPU tensors but got tensors on ", a.device(), " and ",
           b.device());
  SY_CHECK(a.sizes() == b.sizes(), "allclose: tensors have different shapes ", formatSizes(a.sizes()), " and ",
           formatSizes(b.sizes()));
  const char* a_base = static_cast<const char*>(a.data_ptr());
  const char* b_base = static_cast<const char*>(b.data_ptr());
  const int64_t a_item = static_cast<int64_t>(a.element_size());
  const int64_t b_item = static_cast<int64_t>(b.element_size());
  bool close = true;
  forEachElement<2>(a.sizes(), {a.strides(), b.strides()}, [&](const std::array<int64_t, 2>& offsets) {
    if (!close) return;
    double x = readAsDouble(a_base + offsets[0] * a_item, a.scalar_type());
    double y = readAsDouble(b_base + offsets[1] * b_item, b.scalar_type());
    close = isClose(x, y, rtol, atol, equal_nan);
  });
  return close;
}

void fillCPU(const Tensor& t, const Scalar& value) {
  SY_CHECK(t.defined(), "fill: undefined tensor");
  SY_CHECK(t.is_cpu(), "fill: expected a CPU tensor but got one on ", t.device());
  if (t.numel() == 0) return;
  const auto fill = [&](auto v) {
    auto* base = static_cast<decltype(v)*>(t.data_ptr());
    if (t.is_contiguous()) {
      std::fill_n(base, t.numel(), v);
      return;
    }
    forEachElement<1>(t.sizes(), {t.strides()}, [&](const std::array<int64_t, 1>& offsets) { base[offsets[0]] = v; });
  };
  // A complex tensor takes the (real) value with a zero imaginary part, as PyTorch's zeros and full do.
  switch (t.scalar_type()) {
    case ScalarType::ComplexHalf: return fill(Complex<Half>(value.to<Half>()));
    case ScalarType::ComplexFloat: return fill(Complex<float>(value.to<float>()));
    case ScalarType::ComplexDouble: return fill(Complex<double>(value.to<double>()));
    default: break;
  }
  visitDtype(t.scalar_type(), "fill", [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill(value.to<T>());
  });
}

}  // namespace sy
