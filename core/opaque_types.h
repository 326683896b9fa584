// The element types that hold a plain integer a kernel must not compute with directly: PyTorch's
// quantized integers (qint8, quint8, qint32, and the sub-byte quint4x2 and quint2x4, two or four
// values packed in one byte) and bit containers (bits1x8 ... bits16). Each wraps its integer as
// c10's do (`val_`), so a tensor of one can be loaded, copied, compared bit for bit and printed,
// and converted where PyTorch converts (its integer is the stored value; quantization parameters
// live elsewhere, in the operators that take them).
//
//   sy::qint8 q{-5};
//   q.val_;                              // -5
#pragma once

#include <cstdint>

namespace sy {

template <class Underlying, class Tag>
struct alignas(sizeof(Underlying)) OpaqueInteger {
  using underlying = Underlying;
  Underlying val_{};

  OpaqueInteger() = default;
  constexpr explicit OpaqueInteger(Underlying v) : val_(v) {}
  friend constexpr bool operator==(OpaqueInteger a, OpaqueInteger b) { return a.val_ == b.val_; }
  friend constexpr bool operator!=(OpaqueInteger a, OpaqueInteger b) { return a.val_ != b.val_; }
};

namespace detail {
struct QInt8Tag {};
struct QUInt8Tag {};
struct QInt32Tag {};
struct QUInt4x2Tag {};
struct QUInt2x4Tag {};
struct Bits1x8Tag {};
struct Bits2x4Tag {};
struct Bits4x2Tag {};
struct Bits8Tag {};
struct Bits16Tag {};
}  // namespace detail

using qint8 = OpaqueInteger<int8_t, detail::QInt8Tag>;
using quint8 = OpaqueInteger<uint8_t, detail::QUInt8Tag>;
using qint32 = OpaqueInteger<int32_t, detail::QInt32Tag>;
using quint4x2 = OpaqueInteger<uint8_t, detail::QUInt4x2Tag>;
using quint2x4 = OpaqueInteger<uint8_t, detail::QUInt2x4Tag>;
using bits1x8 = OpaqueInteger<uint8_t, detail::Bits1x8Tag>;
using bits2x4 = OpaqueInteger<uint8_t, detail::Bits2x4Tag>;
using bits4x2 = OpaqueInteger<uint8_t, detail::Bits4x2Tag>;
using bits8 = OpaqueInteger<uint8_t, detail::Bits8Tag>;
using bits16 = OpaqueInteger<uint16_t, detail::Bits16Tag>;

}  // namespace sy
