#include "switchyard/ivalue/checked_size.h"

#include <algorithm>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

int64_t checkedNumel(std::string_view op, absl::Span<const int64_t> sizes) {
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    SY_CHECK_VALUE(sizes[i] >= 0, op, ": negative dimension ", sizes[i], " at index ", i, " of size ",
                   formatSizes(sizes));
    empty = empty || sizes[i] == 0;
  }
  if (empty) return 0;
  int64_t numel = 1;
  for (int64_t s : sizes) {
    SY_CHECK_VALUE(checkedMul(numel, s, &numel), op, ": size ", formatSizes(sizes), " has too many elements");
  }
  return numel;
}

int64_t checkedNumel(const char* op, absl::Span<const int64_t> sizes) {
  bool fits = true, empty = false;
  for (int64_t s : sizes) {
    fits = fits && s >= 0;
    empty = empty || s == 0;
  }
  int64_t numel = 1;
  if (fits && !empty) {
    for (int64_t s : sizes) fits = fits && checkedMul(numel, s, &numel);
  }
  if (SY_LIKELY(fits)) return empty ? 0 : numel;
  return checkedNumel(std::string_view(op), sizes);  // raises, naming op
}

absl::InlinedVector<int64_t, 5> checkedContiguousStrides(std::string_view op, absl::Span<const int64_t> sizes) {
  absl::InlinedVector<int64_t, 5> strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    // The outermost dimension's size is never part of a stride.
    if (i > 0) {
      SY_CHECK(checkedMul(running, std::max<int64_t>(sizes[i], 1), &running), op, ": the strides of size ",
               formatSizes(sizes), " do not fit in 64 bits (stride calculation overflowed)");
    }
  }
  return strides;
}

absl::InlinedVector<int64_t, 5> checkedStridesInDimOrder(std::string_view op, absl::Span<const int64_t> sizes,
                                                         absl::Span<const int64_t> dim_order) {
  SY_CHECK(dim_order.size() == sizes.size(), op, ": dim order ", formatSizes(dim_order), " for size ", formatSizes(sizes));
  absl::InlinedVector<int64_t, 5> strides(sizes.size());
  int64_t running = 1;
  for (size_t i = dim_order.size(); i-- > 0;) {
    const size_t d = static_cast<size_t>(dim_order[i]);
    SY_CHECK(d < sizes.size(), op, ": dim order ", formatSizes(dim_order), " for size ", formatSizes(sizes));
    strides[d] = running;
    if (i > 0) {
      SY_CHECK(checkedMul(running, std::max<int64_t>(sizes[d], 1), &running), op, ": the strides of size ",
               formatSizes(sizes), " in dim order ", formatSizes(dim_order),
               " do not fit in 64 bits (stride calculation overflowed)");
    }
  }
  return strides;
}

absl::InlinedVector<int64_t, 5> checkedStridesInDimOrder(const char* op, absl::Span<const int64_t> sizes,
                                                         absl::Span<const int64_t> dim_order) {
  bool fits = dim_order.size() == sizes.size();
  absl::InlinedVector<int64_t, 5> strides(sizes.size());
  int64_t running = 1;
  for (size_t i = dim_order.size(); fits && i-- > 0;) {
    const size_t d = static_cast<size_t>(dim_order[i]);
    fits = d < sizes.size();
    if (!fits) break;
    strides[d] = running;
    if (i > 0) fits = checkedMul(running, std::max<int64_t>(sizes[d], 1), &running);
  }
  if (SY_LIKELY(fits)) return strides;
  return checkedStridesInDimOrder(std::string_view(op), sizes, dim_order);  // raises, naming op
}

int64_t checkedStridedExtent(std::string_view op, absl::Span<const int64_t> sizes, absl::Span<const int64_t> strides) {
  SY_CHECK(sizes.size() == strides.size(), op, ": ", sizes.size(), " sizes but ", strides.size(), " strides");
  if (checkedNumel(op, sizes) == 0) return 0;
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    SY_CHECK_VALUE(strides[i] >= 0, op, ": negative stride ", strides[i], " at index ", i);
    int64_t reach = 0;
    SY_CHECK(checkedMul(sizes[i] - 1, strides[i], &reach) && checkedAdd(extent, reach, &extent), op, ": size ",
             formatSizes(sizes), " with strides ", formatSizes(strides),
             " reaches past the largest addressable element");
  }
  return extent;
}

size_t checkedStorageBytes(std::string_view op, int64_t storage_offset, int64_t elements, ScalarType dtype,
                           absl::Span<const int64_t> sizes) {
  int64_t total = 0;
  int64_t nbytes = 0;
  SY_CHECK(storage_offset >= 0 && elements >= 0 && checkedAdd(storage_offset, elements, &total) &&
               checkedMul(total, static_cast<int64_t>(elementSize(dtype)), &nbytes),
           op, ": size ", formatSizes(sizes), " of ", dtype,
           storage_offset > 0 ? str(" at storage offset ", storage_offset) : std::string(),
           " needs more bytes than can be addressed");
  return static_cast<size_t>(nbytes);
}

}  // namespace sy
