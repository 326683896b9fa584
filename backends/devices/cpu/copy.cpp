// aten::copy_ on the CPU, and copyIntoCPU, the broadcasting, converting copy every CPU kernel uses
// to stage results (elementwise.h).
//
// Semantics: src is broadcast to self's shape (an error when it cannot be), converted to self's
// dtype with C++ conversions (float -> integral truncates toward zero, nonzero -> true; Half,
// BFloat16 and the Float8 types convert through float, rounding to nearest even, as PyTorch's do),
// and
// written through self's strides, so self may be any view (transposed, sliced). When src shares
// memory with self in a different layout it is first staged, so no element is read after being
// overwritten. Both tensors must be on the CPU: a backend with memory of its own registers its
// own copy_ for transfers (Accel), or its _copy_from (See Note [copy_ across devices goes to _copy_from]).
//
// Note [copy_ across devices goes to _copy_from]
// As in PyTorch, a device backend does not implement copy_ itself: it registers aten::_copy_from(self,
// dst), which copies `self` into `dst` whichever of the two is its tensor (device to CPU, CPU to
// device, within the device, converting dtypes as copy_ does). copy_'s CompositeExplicit kernel
// below serves every backend key without a copy_ kernel of its own (PrivateUse1..3): a copy between
// two CPU tensors (the backend's key came from the thread's included set) is the CPU's, any other
// is aten::_copy_from(src, self), which the dispatcher sends to the pair's highest backend, the
// device's. Tensor::to, the CPU fallback and the CPU's _to_copy kernel (registered below it as
// CompositeExplicit too: it allocates with aten::empty and copies with aten::copy_, so it works on
// any device) all move bytes this way.
#include <cstring>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/creation/NativeFunctions.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

void checkBroadcastableTo(const char* op, IntArrayRef src, IntArrayRef dst, const char* dst_name,
                          const char* src_name) {
  bool ok = src.size() <= dst.size();
  for (size_t i = 0; ok && i < src.size(); ++i) {
    const int64_t s = src[src.size() - 1 - i];
    ok = s == 1 || s == dst[dst.size() - 1 - i];
  }
  SY_CHECK(ok, op, ": ", src_name, " of size ", formatSizes(src), " cannot be broadcast to ", dst_name, " of size ",
           formatSizes(dst));
}

// Same bytes, same type: copy elements as unsigned integers of the element's width, so one loop
// serves every dtype of that width (and a single dense row is a memcpy).
template <class Bits>
void copyBits(const LoopGeometry& geometry) {
  const bool one_row = geometry.sizes.empty();
  const int64_t out_stride = one_row ? geometry.row_strides[0] : geometry.strides[0][0];
  const int64_t in_stride = one_row ? geometry.row_strides[1] : geometry.strides[0][1];
  if ((one_row || geometry.sizes.size() == 1) && out_stride == static_cast<int64_t>(sizeof(Bits)) &&
      in_stride == static_cast<int64_t>(sizeof(Bits))) {
    std::memmove(geometry.data[0], geometry.data[1], static_cast<size_t>(geometry.numel) * sizeof(Bits));
    return;
  }
  runElementwise<Bits, Bits>(geometry, [](Bits x) { return x; });
}

// Note [Conversions between the other real dtypes go through one wide value]
// Bool, Int, Long, Float and Double convert directly, one loop per pair (the kernels' staging copies
// take this path). The other real dtypes (Byte, Char, Short, Half, BFloat16, the Float8 and wide
// unsigned types) convert through a WideValue, so each type needs one reader and one writer instead
// of a loop per pair: an integer is held as int64_t (uint64_t for the unsigned types) and a floating
// value as a double, each exactly, and the writer converts from it as a direct C++ conversion from
// the source type would (an integer to Half goes through float, as PyTorch's does).
struct WideValue {
  enum Kind : uint8_t { kSigned, kUnsigned, kFloating } kind;
  int64_t i;
  uint64_t u;
  double d;
};

template <class From>
WideValue readWide(const char* element) {
  alignas(From) unsigned char bytes[sizeof(From)];
  std::memcpy(bytes, element, sizeof(From));
  const From x = loadElement(reinterpret_cast<const From*>(bytes));
  if constexpr (std::is_same_v<From, bool>) {
    return {WideValue::kSigned, x ? 1 : 0, 0, 0.0};
  } else if constexpr (std::is_integral_v<From> && std::is_unsigned_v<From>) {
    return {WideValue::kUnsigned, 0, static_cast<uint64_t>(x), 0.0};
  } else if constexpr (std::is_integral_v<From>) {
    return {WideValue::kSigned, static_cast<int64_t>(x), 0, 0.0};
  } else if constexpr (std::is_same_v<From, double>) {
    return {WideValue::kFloating, 0, 0, x};
  } else {
    return {WideValue::kFloating, 0, 0, static_cast<double>(static_cast<float>(x))};
  }
}

template <class To>
void writeWide(char* element, const WideValue& v) {
  const To out = v.kind == WideValue::kFloating ? static_cast<To>(v.d)
                 : v.kind == WideValue::kUnsigned ? static_cast<To>(v.u)
                                                  : static_cast<To>(v.i);
  std::memcpy(element, &out, sizeof(To));
}


// Note [Complex values convert as PyTorch's do]
// A complex element converts to another complex dtype part by part, to a real dtype as its real
// part (PyTorch discards the imaginary part, with a warning), and a real element to a complex dtype
// as the real part of a zero imaginary part. Each part goes through a double, as a real value goes
// through a WideValue. Quantized and bits dtypes still copy only to their own dtype.
struct ComplexValue {
  double re, im;
};

template <class T>
struct ComplexPart {
  using type = void;
};
template <class P>
struct ComplexPart<Complex<P>> {
  using type = P;
};

template <class From>
ComplexValue readComplex(const char* element) {
  using Part = typename ComplexPart<From>::type;
  if constexpr (!std::is_void_v<Part>) {
    From z;
    std::memcpy(&z, element, sizeof(From));
    return {static_cast<double>(static_cast<std::conditional_t<std::is_same_v<Part, double>, double, float>>(z.real())),
            static_cast<double>(static_cast<std::conditional_t<std::is_same_v<Part, double>, double, float>>(z.imag()))};
  } else {
    const WideValue w = readWide<From>(element);
    const double re = w.kind == WideValue::kFloating ? w.d
                      : w.kind == WideValue::kUnsigned ? static_cast<double>(w.u)
                                                        : static_cast<double>(w.i);
    return {re, 0.0};
  }
}

template <class To>
void writeComplex(char* element, const ComplexValue& v) {
  using Part = typename ComplexPart<To>::type;
  if constexpr (!std::is_void_v<Part>) {
    const To z(static_cast<Part>(v.re), static_cast<Part>(v.im));
    std::memcpy(element, &z, sizeof(To));
  } else {
    writeWide<To>(element, WideValue{WideValue::kFloating, 0, 0, v.re});
  }
}

// Calls fn(TypeTag<T>{}) for a complex or real `dtype`; does nothing for the quantized and bits
// dtypes, which convert to nothing else.
template <class Fn>
void visitConvertibleType(ScalarType dtype, Fn&& fn) {
  switch (dtype) {
    case ScalarType::ComplexHalf: return fn(TypeTag<Complex<Half>>{});
    case ScalarType::ComplexFloat: return fn(TypeTag<Complex<float>>{});
    case ScalarType::ComplexDouble: return fn(TypeTag<Complex<double>>{});
    default: visitScalarType(dtype, fn);
  }
}

// The two ways an element converts through one intermediate value: a WideValue between real dtypes,
// a ComplexValue where a complex dtype is involved.
struct ThroughWideValues {
  using Value = WideValue;
  template <class T>
  static Value read(const char* element) { return readWide<T>(element); }
  template <class T>
  static void write(char* element, const Value& v) { writeWide<T>(element, v); }
  template <class Fn>
  static void visit(ScalarType dtype, Fn&& fn) { visitScalarType(dtype, fn); }
};
struct ThroughComplexValues {
  using Value = ComplexValue;
  template <class T>
  static Value read(const char* element) { return readComplex<T>(element); }
  template <class T>
  static void write(char* element, const Value& v) { writeComplex<T>(element, v); }
  template <class Fn>
  static void visit(ScalarType dtype, Fn&& fn) { visitConvertibleType(dtype, fn); }
};

// Converts src's elements into dst's one at a time through Through::Value, with one reader and one
// writer per dtype rather than a loop per pair; a dtype Through cannot visit (quantized, bits) is
// refused naming both tensors.
template <class Through>
void convertThrough(const char* op, const LoopGeometry& geometry, const Tensor& dst, const Tensor& src,
                    const char* dst_name, const char* src_name) {
  using Value = typename Through::Value;
  Value (*read)(const char*) = nullptr;
  void (*write)(char*, const Value&) = nullptr;
  Through::visit(src.scalar_type(), [&](auto tag) { read = &Through::template read<typename decltype(tag)::type>; });
  Through::visit(dst.scalar_type(), [&](auto tag) { write = &Through::template write<typename decltype(tag)::type>; });
  SY_CHECK_NOT_IMPLEMENTED(read != nullptr && write != nullptr, op, ": cannot convert ", src_name, " of dtype ",
                           src.scalar_type(), " to ", dst_name, " of dtype ", dst.scalar_type(),
                           " (quantized and bits dtypes copy only to their own dtype)");
  forEachRow<2>(geometry, [&](const std::array<char*, 2>& data, const std::array<int64_t, 2>& strides, int64_t n) {
    for (int64_t k = 0; k < n; ++k) write(data[0] + k * strides[0], read(data[1] + k * strides[1]));
  });
}

void copyElements(const char* op, const Tensor& dst, const Tensor& src, const char* dst_name, const char* src_name) {
  const LoopGeometry geometry = makeLoopGeometry({&dst, &src});
  if (dst.scalar_type() == src.scalar_type()) {
    return visitElementWidth(dst.element_size(), [&](auto width) { copyBits<decltype(width)>(geometry); });
  }
  if (isComplexType(dst.scalar_type()) || isComplexType(src.scalar_type())) {
    // See Note [Complex values convert as PyTorch's do].
    return convertThrough<ThroughComplexValues>(op, geometry, dst, src, dst_name, src_name);
  }
  constexpr unsigned kDirect = kAllDtypes;
  const auto direct = [](ScalarType t) {
    const int bit = static_cast<int>(t);
    return bit >= 0 && bit < kNumScalarTypes && ((kDirect >> bit) & 1u) != 0;
  };
  if (!direct(dst.scalar_type()) || !direct(src.scalar_type())) {
    // See Note [Conversions between the other real dtypes go through one wide value].
    return convertThrough<ThroughWideValues>(op, geometry, dst, src, dst_name, src_name);
  }
  // dtype set: the conversions every copy kernel shares, between any two of these.
  SY_DISPATCH_ALL_TYPES(dst.scalar_type(), op, dst_name, [&](auto dst_tag) {
    using To = typename decltype(dst_tag)::type;
    // dtype set: the conversions' source, any of these.
    SY_DISPATCH_ALL_TYPES(src.scalar_type(), op, src_name, [&](auto src_tag) {
      using From = typename decltype(src_tag)::type;
      runElementwise<To, From>(geometry, [](From x) { return static_cast<To>(x); });
    });
  });
}

}  // namespace

void copyIntoCPU(const char* op, const Tensor& dst, const Tensor& src, const char* dst_name, const char* src_name) {
  checkBroadcastableTo(op, src.sizes(), dst.sizes(), dst_name, src_name);
  if (dst.numel() == 0) return;
  if (partiallyOverlaps(dst, src)) {
    Tensor staged = sy::empty(src.sizes(), src.scalar_type());
    copyElements(op, staged, src, "staged", src_name);
    copyElements(op, dst, staged, dst_name, src_name);
    return;
  }
  // An identical source (x.copy_(x)) is already in place.
  if (sameMemory(dst, src)) return;
  copyElements(op, dst, src, dst_name, src_name);
}

// The kernel backends/devices/cpu/shape_ops.yaml binds to aten::copy_.
namespace native {

Tensor& copy_cpu(Tensor& self, const Tensor& src, bool non_blocking, const KernelContext& ctx) {
  const char* op = ctx.op;
  SY_CHECK(self.defined() && src.defined(), op, ": ", self.defined() ? "src" : "self", " is an undefined tensor");
  SY_CHECK(self.is_cpu() && src.is_cpu(), op, ": the CPU kernel copies between CPU tensors, but self is on ",
           self.device(), " and src is on ", src.device(),
           "; the backend that owns the non-CPU memory must register its own ", op);
  checkNoInternalOverlap(op, self);
  copyIntoCPU(op, self, src);
  return self;
}

}  // namespace native

namespace {

// See Note [copy_ across devices goes to _copy_from].
Tensor& copy_across_devices(Tensor& self, const Tensor& src, bool non_blocking, const KernelContext& ctx) {
  SY_CHECK(self.defined() && src.defined(), ctx.op, ": ", self.defined() ? "src" : "self", " is an undefined tensor");
  if (self.is_cpu() && src.is_cpu()) return native::copy_cpu(self, src, non_blocking, ctx);
  ops::_copy_from(src, self, non_blocking);
  return self;
}

}  // namespace
}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeExplicit, m) {
  static constexpr sy::KernelContext kCopy{"aten::copy_", sy::OutputForm::InPlace};
  m.impl("copy_", sy::withContext<&sy::cpu::copy_across_devices, &kCopy>());
  static constexpr sy::KernelContext kToCopy{"aten::_to_copy", sy::OutputForm::Functional};
  m.impl("_to_copy", sy::withContext<&sy::cpu::native::to_copy_cpu, &kToCopy>());
}
