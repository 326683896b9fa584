#include "switchyard/core/error_status.h"

#include <new>
#include <string>

#include "absl/strings/cord.h"

namespace sy {

// See Note [An error keeps its kind across every boundary] for the table these implement.
absl::StatusCode statusCodeOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Index: return absl::StatusCode::kOutOfRange;
    case ErrorKind::NotImplemented: return absl::StatusCode::kUnimplemented;
    case ErrorKind::Generic:
    case ErrorKind::Value:
    case ErrorKind::Type: break;
  }
  return absl::StatusCode::kInvalidArgument;
}

ErrorKind errorKindOf(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument: return ErrorKind::Value;
    case absl::StatusCode::kOutOfRange: return ErrorKind::Index;
    case absl::StatusCode::kUnimplemented: return ErrorKind::NotImplemented;
    default: return ErrorKind::Generic;
  }
}

namespace {

constexpr ErrorKind kAllKinds[] = {ErrorKind::Generic, ErrorKind::Index, ErrorKind::Value, ErrorKind::Type,
                                   ErrorKind::NotImplemented};

absl::string_view payloadUrl() { return absl::string_view(kErrorKindPayload.data(), kErrorKindPayload.size()); }

}  // namespace

ErrorKind errorKindOf(const absl::Status& status) {
  if (const auto payload = status.GetPayload(payloadUrl())) {
    for (ErrorKind kind : kAllKinds) {
      if (*payload == absl::string_view(toString(kind).data(), toString(kind).size())) return kind;
    }
  }
  return errorKindOf(status.code());
}

absl::Status statusOf(const std::exception& e, std::string_view context) {
  const std::string message = str(context, e.what());
  if (const auto* error = dynamic_cast<const Error*>(&e)) {
    const auto* raised_from_status = dynamic_cast<const StatusError*>(error);
    const absl::StatusCode code = raised_from_status != nullptr ? raised_from_status->code() : statusCodeOf(error->kind());
    absl::Status status(code, message);
    const std::string_view kind = toString(error->kind());
    status.SetPayload(payloadUrl(), absl::Cord(absl::string_view(kind.data(), kind.size())));
    return status;
  }
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    return absl::ResourceExhaustedError(str(context, "out of memory (", e.what(), ")"));
  }
  return absl::InternalError(str(context, "internal error, please report it: ", e.what()));
}

void throwStatus(const absl::Status& status, std::string_view context) {
  throw StatusError(str(context, status.message()), status.code(), errorKindOf(status));
}

}  // namespace sy
