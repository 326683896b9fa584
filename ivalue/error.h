// sy::Error: the one exception type Switchyard raises at call time.
//
// Dispatch errors (missing kernels, bad boxed stacks, signature mismatches) and kernel errors
// (unsupported dtype, shape mismatch) are all `sy::Error`, so a caller catches one type and shows
// `what()`. Load-time errors of later layers are returned as `absl::Status` instead.
//
//   SY_CHECK(self.dim() == 2, "aten::mm: expected a 2-D tensor for 'self' but got ", self.dim(), "-D");
//
// The message parts are concatenated with `sy::str`: strings (std:: or absl:: views), numbers,
// and anything printable with operator<< (dtypes, devices, dispatch keys, key sets).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace sy {

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message) : std::runtime_error(std::move(message)) {}
  // PyTorch spelling, so code written against c10::Error reads the same.
  const char* what_without_backtrace() const noexcept { return what(); }
};

namespace detail {
[[noreturn]] void throwError(std::string message);

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
#define SY_CHECK(cond, ...)                                          \
  do {                                                               \
    if (__builtin_expect(!(cond), 0)) {                              \
      ::sy::detail::throwError(::sy::str(__VA_ARGS__));         \
    }                                                                \
  } while (false)

#define SY_ERROR(...) ::sy::detail::throwError(::sy::str(__VA_ARGS__))
