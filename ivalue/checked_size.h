// Checked arithmetic on sizes, strides, element counts and byte counts that come from outside (a
// caller's sizes, an operator's arguments). Every product or sum of such values goes through
// these helpers, so a size whose element count, strides or bytes do not fit raises a clear
// sy::Error naming the operation instead of wrapping around to a small allocation that the kernel
// then writes past.
//
//   const int64_t n = sy::checkedNumel("aten::empty", sizes);
//   //   -> "aten::empty: size (4294967296, 4294967296) has too many elements"
//   const size_t bytes = sy::checkedStorageBytes("resize_", offset, n, dtype, sizes);
//   //   -> "resize_: size (4611686018427387905,) of Float needs more bytes than can be addressed"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/types/span.h"
#include "absl/container/inlined_vector.h"
#include "switchyard/core/scalar_type.h"

namespace sy {

// a * b and a + b into *result; false (and *result unspecified) when the exact value does not fit.
inline bool checkedMul(int64_t a, int64_t b, int64_t* result) { return !__builtin_mul_overflow(a, b, result); }
inline bool checkedAdd(int64_t a, int64_t b, int64_t* result) { return !__builtin_add_overflow(a, b, result); }

// The number of elements of `sizes`. Raises for a negative dimension and for a product that does
// not fit in int64_t (a size with a 0 has no elements, whatever the others are).
int64_t checkedNumel(std::string_view op, absl::Span<const int64_t> sizes);

// The same for a name given as a C string (a kernel's `ctx.op`), whose length is taken only to raise.
int64_t checkedNumel(const char* op, absl::Span<const int64_t> sizes);

// Row-major strides of `sizes` (a dimension of size 0 steps as if it were 1); raises when a stride
// does not fit in int64_t.
absl::InlinedVector<int64_t, 5> checkedContiguousStrides(std::string_view op, absl::Span<const int64_t> sizes);

// Dense strides that lay `sizes` out in `dim_order` (outermost dimension first; a permutation of
// the dimensions, which the caller has checked): {0, 1, 2, 3} is contiguous, {0, 2, 3, 1}
// channels-last. A dimension of size 0 steps as if it were 1, as in checkedContiguousStrides.
// Raises when a stride does not fit in int64_t.
absl::InlinedVector<int64_t, 5> checkedStridesInDimOrder(std::string_view op, absl::Span<const int64_t> sizes,
                                                         absl::Span<const int64_t> dim_order);
absl::InlinedVector<int64_t, 5> checkedStridesInDimOrder(const char* op, absl::Span<const int64_t> sizes,
                                                         absl::Span<const int64_t> dim_order);

// Elements a storage must hold to reach every element of a tensor of `sizes` and non-negative
// `strides`: 1 + sum((size - 1) * stride), or 0 when the tensor has no elements.
int64_t checkedStridedExtent(std::string_view op, absl::Span<const int64_t> sizes, absl::Span<const int64_t> strides);

// Bytes of storage for elements [0, storage_offset + elements) of `dtype`; refuses more than
// PTRDIFF_MAX bytes. `sizes` only names the size in the message.
size_t checkedStorageBytes(std::string_view op, int64_t storage_offset, int64_t elements, ScalarType dtype,
                           absl::Span<const int64_t> sizes);

}  // namespace sy
