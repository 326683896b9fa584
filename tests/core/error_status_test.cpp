// The one mapping between sy::Error's kinds and absl::Status codes (See Note [An error keeps its
// kind across every boundary], core/error_status.h): the table entry by entry, and round trips.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <utility>

#include "switchyard/core/error_status.h"

namespace sy {
namespace {

TEST(ErrorStatus, EachKindBecomesTheCodeOfTheTable) {
  EXPECT_EQ(statusCodeOf(ErrorKind::Generic), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(statusCodeOf(ErrorKind::Value), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(statusCodeOf(ErrorKind::Type), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(statusCodeOf(ErrorKind::Index), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(statusCodeOf(ErrorKind::NotImplemented), absl::StatusCode::kUnimplemented);
}

TEST(ErrorStatus, EveryKindComesBackAsItselfThroughAStatusAndBack) {
  for (ErrorKind kind : {ErrorKind::Generic, ErrorKind::Index, ErrorKind::Value, ErrorKind::Type, ErrorKind::NotImplemented}) {
    absl::Status status;
    try {
      detail::throwError(kind, "the message");
    } catch (const std::exception& e) {
      status = statusOf(e, "where: ");
    }
    EXPECT_EQ(status.code(), statusCodeOf(kind)) << kind;
    EXPECT_EQ(status.message(), "where: the message");
    EXPECT_EQ(errorKindOf(status), kind);
    try {
      throwStatus(status, "outer: ");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind);
      EXPECT_EQ(std::string(e.what()), "outer: where: the message");
      EXPECT_EQ(statusOf(e).code(), statusCodeOf(kind));
    }
  }
}

TEST(ErrorStatus, AnErrorRaisedFromAStatusKeepsItsCodeAndTakesTheKindTheCodeMeans) {
  try {
    throwStatus(absl::DataLossError("blob truncated"), "delegate 0: ");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Generic);
    const absl::Status back = statusOf(e);
    EXPECT_EQ(back.code(), absl::StatusCode::kDataLoss);
    EXPECT_EQ(back.message(), "delegate 0: blob truncated");
  }
  // kInvalidArgument without a payload means a value out of its domain.
  for (auto [status, kind] : {std::pair{absl::InvalidArgumentError("bad"), ErrorKind::Value},
                              std::pair{absl::OutOfRangeError("bad"), ErrorKind::Index},
                              std::pair{absl::UnimplementedError("bad"), ErrorKind::NotImplemented}}) {
    try {
      throwStatus(status);
    } catch (const StatusError& e) {
      EXPECT_EQ(e.kind(), kind);
      EXPECT_EQ(e.code(), status.code());
    }
  }
}

TEST(ErrorStatus, AnExceptionThatIsNotAnSyErrorIsABugAndOutOfMemoryIsResourceExhausted) {
  const absl::Status bug = statusOf(std::logic_error("vector index"), "method 'f': ");
  EXPECT_EQ(bug.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(bug.message(), "method 'f': internal error, please report it: vector index");
  EXPECT_EQ(errorKindOf(bug), ErrorKind::Generic);
  const absl::Status memory = statusOf(std::bad_alloc(), "method 'f': ");
  EXPECT_EQ(memory.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(memory.message(), "method 'f': out of memory (std::bad_alloc)");
}

}  // namespace
}  // namespace sy
