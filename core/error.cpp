#include "switchyard/core/error.h"

#include <ostream>

namespace sy {

std::string_view toString(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Generic: return "Error";
    case ErrorKind::Index: return "IndexError";
    case ErrorKind::Value: return "ValueError";
    case ErrorKind::Type: return "TypeError";
    case ErrorKind::NotImplemented: return "NotImplementedError";
  }
  return "Error";
}

std::ostream& operator<<(std::ostream& os, ErrorKind kind) { return os << toString(kind); }

namespace detail {

void throwError(std::string message) { throw Error(std::move(message)); }

void throwError(ErrorKind kind, std::string message) {
  switch (kind) {
    case ErrorKind::Index: throw IndexError(std::move(message));
    case ErrorKind::Value: throw ValueError(std::move(message));
    case ErrorKind::Type: throw TypeError(std::move(message));
    case ErrorKind::NotImplemented: throw NotImplementedError(std::move(message));
    case ErrorKind::Generic: break;
  }
  throw Error(std::move(message));
}

}  // namespace detail
}  // namespace sy
