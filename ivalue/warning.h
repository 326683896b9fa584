// Warnings: something a caller should know about that is not an error (a view operator run through
// a CPU fallback, a deprecated spelling). They go to the thread's WarningHandler, which prints them
// to stderr unless a handler of one's own is installed, as c10::Warning does for TORCH_WARN.
//
//   SY_WARN("aten::view ran on copies of its arguments; the result is not a view");
//   SY_WARN_ONCE("printed once per process, at the first time this line runs");
//
//   struct Collect : sy::WarningHandler {
//     std::vector<std::string> seen;
//     void process(const sy::Warning& w) override { seen.push_back(w.msg()); }
//   } collect;
//   sy::WarningHandlerGuard guard(&collect);   // this thread's warnings go to `collect` meanwhile
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "switchyard/core/error.h"

namespace sy {

// Where a warning was raised (c10::SourceLocation).
struct WarningSource {
  const char* function;
  const char* file;
  uint32_t line;
};

class Warning {
 public:
  Warning(WarningSource source, std::string message) : source_(source), message_(std::move(message)) {}
  const std::string& msg() const { return message_; }
  const WarningSource& source_location() const { return source_; }

 private:
  WarningSource source_;
  std::string message_;
};

class WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  // The default prints "[W file:line] Warning: message (function name)" to stderr.
  virtual void process(const Warning& warning);
};

// This thread's handler (never null: the default when none is installed).
WarningHandler* warningHandler();
// Installs `handler` for this thread (null: the default again).
void setWarningHandler(WarningHandler* handler);

// Installs a handler for this thread for the guard's lifetime.
class WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler* handler) : previous_(warningHandler()) { setWarningHandler(handler); }
  WarningHandlerGuard(const WarningHandlerGuard&) = delete;
  WarningHandlerGuard& operator=(const WarningHandlerGuard&) = delete;
  ~WarningHandlerGuard() { setWarningHandler(previous_); }

 private:
  WarningHandler* previous_;
};

// Hands a warning to this thread's handler.
void warn(WarningSource source, std::string message);

}  // namespace sy

#define SY_WARN(...) ::sy::warn(::sy::WarningSource{__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, ::sy::str(__VA_ARGS__))
// Warns the first time this line runs in the process, then never again.
#define SY_WARN_ONCE(...)                                                                 \
  do {                                                                                    \
    static const bool sy_warned_once = [&] {                                              \
      SY_WARN(__VA_ARGS__);                                                               \
      return true;                                                                        \
    }();                                                                                  \
    (void)sy_warned_once;                                                                 \
  } while (false)
