// wrapDim: a dimension index as a caller writes it (negative counts from the end) turned into one
// in [0, ndim), or an sy::IndexError naming the operator, the argument and the valid range.
//
//   const int64_t d = sy::wrapDim(dim, self.dim(), "aten::sum.dim_IntList");       // -1 -> ndim - 1
//   const int64_t d0 = sy::wrapDim(dim0, self.dim(), op, "dim0");                   // names the argument
//   const int64_t d = sy::wrapDim(dim, ndim + 1, op, "dim", /*wrap_scalar=*/false); // no 0-dim slot
//
// As PyTorch's maybe_wrap_dim, a 0-dim tensor has one virtual dimension (dim 0 or -1) unless
// `wrap_scalar` is false, in which case naming any dimension of it is an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "switchyard/core/error.h"
#include "switchyard/core/macros.h"

namespace sy {

namespace detail {
[[noreturn]] inline void throwDimOutOfRange(int64_t dim, int64_t ndim, std::string_view op,
                                            std::string_view argument) {
  std::string where = op.empty() ? std::string() : str(op, ": ");
  std::string which = argument.empty() ? std::string() : str(" for argument '", argument, "'");
  if (ndim <= 0) {
    throw IndexError(str(where, "dimension specified as ", dim, which, " but the tensor has no dimensions"));
  }
  throw IndexError(str(where, "dimension out of range", which, " (expected to be in range of [", -ndim, ", ",
                       ndim - 1, "], but got ", dim, ")"));
}
}  // namespace detail

inline int64_t wrapDim(int64_t dim, int64_t ndim, std::string_view op = {}, std::string_view argument = {},
                       bool wrap_scalar = true) {
  if (ndim <= 0 && wrap_scalar) ndim = 1;
  if (SY_UNLIKELY(dim < -ndim || dim >= ndim)) detail::throwDimOutOfRange(dim, ndim, op, argument);
  return dim < 0 ? dim + ndim : dim;
}

// The same for names given as C strings (a kernel's `ctx.op`, which is not a constant its length
// could be folded from): their lengths are taken only to raise.
inline int64_t wrapDim(int64_t dim, int64_t ndim, const char* op, const char* argument = nullptr,
                       bool wrap_scalar = true) {
  if (ndim <= 0 && wrap_scalar) ndim = 1;
  if (SY_UNLIKELY(dim < -ndim || dim >= ndim)) {
    detail::throwDimOutOfRange(dim, ndim, op ? op : "", argument ? argument : "");
  }
  return dim < 0 ? dim + ndim : dim;
}

}  // namespace sy
