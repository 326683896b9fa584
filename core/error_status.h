// Errors between the layers that raise (kernels, the dispatcher: sy::Error) and the layers that
// return (program loading, Method::execute, delegates, the command line: absl::Status), converted
// one way everywhere, so an error keeps its kind whichever way it crosses.
//
//   absl::Status execute() {
//     try { runInstructions(); }
//     catch (const std::exception& e) { return sy::statusOf(e, "method 'forward': instruction 3 failed: "); }
//     return absl::OkStatus();
//   }
//   // A delegate's status, raised inside an operator call, keeps its code for execute() to return:
//   if (!status.ok()) sy::throwStatus(status, "delegate 0 failed: ");
//   // And a caller tells invalid input from a missing operator from a bug:
//   switch (sy::errorKindOf(status)) { ... }   // or status.code()
//
// Note [An error keeps its kind across every boundary]
// A caller decides what to do from the kind of an error, not its text: fix the input, register the
// missing operator, or report a bug. So every boundary converts with the functions below, and no
// boundary flattens an error to text or to InternalError. The one table:
//
//   sy::ErrorKind (what raised it)     absl::StatusCode       CLI exit status
//   Generic   (SY_CHECK)               kInvalidArgument       1  the input is at fault
//   Value     (SY_CHECK_VALUE)         kInvalidArgument       1
//   Type      (SY_CHECK_TYPE)          kInvalidArgument       1
//   Index     (SY_CHECK_INDEX)         kOutOfRange            1
//   NotImplemented                     kUnimplemented         3  Switchyard lacks what is needed
//   (std::bad_alloc)                   kResourceExhausted     1
//   (any other exception: a bug)       kInternal              4  a bug: please report it
//
// A status made from an sy::Error carries the exact kind as a payload (kErrorKindPayload), so
// Value, Type and Generic, which share a code, come back as themselves. An error raised from a
// status (throwStatus, a StatusError: a delegate's execute, a callback) keeps that status's code, so a
// delegate's kDataLoss is still kDataLoss when Method::execute returns it; its kind is the one
// the code means in the table (any code not in it means Generic). Load-time errors are statuses from the start and keep their codes:
// a corrupt file kInvalidArgument or kDataLoss, a missing file kNotFound, a method's missing
// operators or backends kUnimplemented.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "switchyard/core/error.h"

namespace sy {

// The payload type URL under which a status made from an sy::Error records its kind
// ("IndexError", as toString(ErrorKind) spells it).
inline constexpr std::string_view kErrorKindPayload = "type.switchyard.dev/sy.ErrorKind";

// The code a status gets for an error of `kind` (the table above).
absl::StatusCode statusCodeOf(ErrorKind kind);
// The kind an error raised from a status of `code` gets (kInvalidArgument -> Value, kOutOfRange ->
// Index, kUnimplemented -> NotImplemented, any other -> Generic).
ErrorKind errorKindOf(absl::StatusCode code);
// The kind of a failed status: its payload's, when an sy::Error made it, else the code's.
ErrorKind errorKindOf(const absl::Status& status);

// The status for an exception caught at a boundary, its message `context` + what(): the table
// above, an sy::Error's own status code when it has one, and the kind as a payload.
absl::Status statusOf(const std::exception& e, std::string_view context = {});

// An sy::Error raised from a status (by throwStatus): its kind is errorKindOf(status), and it keeps
// the status's code, which statusOf gives back.
class StatusError final : public Error {
 public:
  StatusError(std::string message, absl::StatusCode code, ErrorKind kind) : Error(std::move(message), kind), code_(code) {}
  absl::StatusCode code() const noexcept { return code_; }

 private:
  absl::StatusCode code_;
};

// Raises a StatusError whose message is `context` + status.message(). `status` must not be OK.
[[noreturn]] void throwStatus(const absl::Status& status, std::string_view context = {});

}  // namespace sy
