// sy::Error: the one exception type Switchyard raises at call time.
//
// Dispatch errors (missing kernels, bad boxed stacks, signature mismatches) and kernel errors
// (unsupported dtype, shape mismatch) are all `sy::Error`, so a caller catches one type and shows
// `what()`. Load-time errors of later layers are returned as `absl::Status` instead.
//
//   SY_CHECK(self.dim() == 2, "aten::mm: expected a 2-D tensor for 'self' but got ", self.dim(), "-D");
//   SY_CHECK_INDEX(dim < ndim, "aten::sum: dimension ", dim, " out of range");   // sy::IndexError
//
// Note [Error kinds]
// As c10's error classes do, an error says what kind of mistake it reports, so a caller (or a test)
// can tell an index out of range from a wrong dtype without matching the text: `e.kind()` is an
// ErrorKind, and each kind but the generic one is also a subclass (`catch (const sy::IndexError&)`).
// SY_CHECK raises the generic kind; SY_CHECK_INDEX / _VALUE / _TYPE / _NOT_IMPLEMENTED the others,
// spelled as PyTorch's TORCH_CHECK_INDEX and friends.
//
// The message parts are concatenated with `sy::str`: strings (std:: or absl:: views), numbers,
// and anything printable with operator<< (dtypes, devices, dispatch keys, key sets).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "switchyard/core/macros.h"

namespace sy {

// What an error reports. See Note [Error kinds].
enum class ErrorKind : uint8_t {
  Generic,         // anything else: a failed precondition, a registration mistake
  Index,           // an index or dimension out of range (c10::IndexError)
  Value,           // a value out of its domain: a size, a scalar that does not fit (c10::ValueError)
  Type,            // the wrong dtype, IValue tag or C++ type (c10::TypeError)
  NotImplemented,  // no kernel for this operator, key or dtype (c10::NotImplementedError)
};
std::string_view toString(ErrorKind kind);
std::ostream& operator<<(std::ostream& os, ErrorKind kind);

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, ErrorKind kind = ErrorKind::Generic)
      : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  // PyTorch spelling, so code written against c10::Error reads the same.
  const char* what_without_backtrace() const noexcept { return what(); }

 private:
  ErrorKind kind_;
};

// One subclass per kind, as c10 has them.
template <ErrorKind K>
class KindedError : public Error {
 public:
  explicit KindedError(std::string message) : Error(std::move(message), K) {}
};
using IndexError = KindedError<ErrorKind::Index>;
using ValueError = KindedError<ErrorKind::Value>;
using TypeError = KindedError<ErrorKind::Type>;
using NotImplementedError = KindedError<ErrorKind::NotImplemented>;

namespace detail {
[[noreturn]] void throwError(std::string message);
[[noreturn]] void throwError(ErrorKind kind, std::string message);

template <class T, class = void>
struct IsAlphaNum : std::false_type {};
template <class T>
struct IsAlphaNum<T, std::void_t<decltype(absl::AlphaNum(std::declval<const T&>()))>> : std::true_type {};

// Maps one message part to something absl::StrCat takes. Debian's abseil has its own
// string_view, so std::string_view is rewrapped; int8_t prints as a number, not a character;
// anything else goes through operator<<.
template <class T>
decltype(auto) toAlphaNum(const T& v) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return absl::string_view(v.data(), v.size());
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    return static_cast<int>(v);
  } else if constexpr (std::is_enum_v<T> || !IsAlphaNum<T>::value) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return (v);
  }
}
}  // namespace detail

// Concatenates message parts into a string (see the header comment for what a part may be).
template <class... Parts>
std::string str(const Parts&... parts) {
  return absl::StrCat(detail::toAlphaNum(parts)...);
}

}  // namespace sy

// Raises sy::Error with the concatenated message when `cond` is false. The message is only built
// on failure, so the check itself costs one branch.
#define SY_CHECK(cond, ...)                                \
  do {                                                     \
    if (SY_UNLIKELY(!(cond))) {                            \
      ::sy::detail::throwError(::sy::str(__VA_ARGS__));    \
    }                                                      \
  } while (false)

// The same check raising an error of a given kind (see Note [Error kinds]).
#define SY_CHECK_KIND(kind, cond, ...)                                              \
  do {                                                                              \
    if (SY_UNLIKELY(!(cond))) {                                                     \
      ::sy::detail::throwError(::sy::ErrorKind::kind, ::sy::str(__VA_ARGS__));      \
    }                                                                               \
  } while (false)
#define SY_CHECK_INDEX(cond, ...) SY_CHECK_KIND(Index, cond, __VA_ARGS__)
#define SY_CHECK_VALUE(cond, ...) SY_CHECK_KIND(Value, cond, __VA_ARGS__)
#define SY_CHECK_TYPE(cond, ...) SY_CHECK_KIND(Type, cond, __VA_ARGS__)
#define SY_CHECK_NOT_IMPLEMENTED(cond, ...) SY_CHECK_KIND(NotImplemented, cond, __VA_ARGS__)

#define SY_ERROR(...) ::sy::detail::throwError(::sy::str(__VA_ARGS__))
#define SY_ERROR_KIND(kind, ...) ::sy::detail::throwError(::sy::ErrorKind::kind, ::sy::str(__VA_ARGS__))
