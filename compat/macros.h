// c10's checking, warning and string macros in PyTorch's spellings, with PyTorch's messages:
//
//   TORCH_CHECK(x.dim() == 2, "expected a matrix, got ", x.dim(), " dimensions");  // c10::Error
//   TORCH_CHECK(ok);              // "Expected ok to be true, but got false.  (Could this error ..."
//   TORCH_INTERNAL_ASSERT(p != nullptr);   // "p != nullptr INTERNAL ASSERT FAILED at \"file\":12, ..."
//   TORCH_WARN("falling back to the CPU for ", op);   // to this thread's c10::WarningHandler
//   std::string s = c10::str("npu:", 0);
//   const char* name = c10::toString(at::kFloat);    // "Float"
//
// Included by <switchyard/compat/torch.h>. The errors are sy::Error (c10::Error), whose what() is
// the message alone: Switchyard appends no backtrace, so what() and what_without_backtrace() agree.
#pragma once

#include <string>
#include <string_view>

#include "switchyard/switchyard.h"

namespace c10 {
using sy::str;
using sy::Warning;
using sy::WarningHandler;
namespace WarningUtils {
using WarningHandlerGuard = sy::WarningHandlerGuard;
inline void set_warning_handler(WarningHandler* handler) { sy::setWarningHandler(handler); }
inline WarningHandler* get_warning_handler() { return sy::warningHandler(); }
}  // namespace WarningUtils

// PyTorch's names return const char*: a name with static storage (Switchyard's are literals).
inline const char* toString(sy::ScalarType t) { return sy::toString(t).data(); }
inline const char* toString(sy::DispatchKey k) { return sy::toString(k).data(); }
inline std::string_view toString(sy::DeviceType t) { return sy::toString(t); }

namespace detail {
// TORCH_CHECK's message: the caller's, or PyTorch's default naming the condition.
inline std::string torchCheckMessage(const char* condition, std::string message) {
  if (!message.empty()) return message;
  return sy::str("Expected ", condition,
                 " to be true, but got false.  (Could this error message be improved?  If so, please report an "
                 "enhancement request to PyTorch.)");
}
[[noreturn]] inline void torchCheckFail(sy::ErrorKind kind, const char* condition, std::string message) {
  throw sy::Error(torchCheckMessage(condition, std::move(message)), kind);
}
[[noreturn]] inline void torchInternalAssertFail(const char* condition, const char* file, int line,
                                                 const std::string& message) {
  throw sy::Error(sy::str(condition, " INTERNAL ASSERT FAILED at \"", file, "\":", line,
                          ", please report a bug to PyTorch. ", message));
}
}  // namespace detail
}  // namespace c10

#define SY_COMPAT_TORCH_CHECK_KIND(kind, cond, ...)                                                    \
  do {                                                                                                 \
    if (SY_UNLIKELY(!(cond))) {                                                                        \
      ::c10::detail::torchCheckFail(::sy::ErrorKind::kind, #cond, ::sy::str(__VA_ARGS__));             \
    }                                                                                                  \
  } while (false)
#define TORCH_CHECK(cond, ...) SY_COMPAT_TORCH_CHECK_KIND(Generic, cond, __VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) SY_COMPAT_TORCH_CHECK_KIND(Value, cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) SY_COMPAT_TORCH_CHECK_KIND(Index, cond, __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) SY_COMPAT_TORCH_CHECK_KIND(Type, cond, __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) SY_COMPAT_TORCH_CHECK_KIND(NotImplemented, cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                               \
  do {                                                                                                 \
    if (SY_UNLIKELY(!(cond))) {                                                                        \
      ::c10::detail::torchInternalAssertFail(#cond, __FILE__, __LINE__, ::sy::str(__VA_ARGS__));       \
    }                                                                                                  \
  } while (false)
// Checked in every build, as Switchyard has no debug-only asserts.
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) TORCH_INTERNAL_ASSERT(cond, __VA_ARGS__)
#define TORCH_WARN(...) SY_WARN(__VA_ARGS__)
#define TORCH_WARN_ONCE(...) SY_WARN_ONCE(__VA_ARGS__)
