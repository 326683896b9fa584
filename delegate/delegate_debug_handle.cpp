#include "switchyard/delegate/delegate_debug_handle.h"

#include <string>

#include "absl/strings/numbers.h"

namespace sy {
namespace {
constexpr char kPayloadUrl[] = "switchyard/delegate_debug_handle";
constexpr std::string_view kContextPrefix = "delegate debug handle ";
}  // namespace

absl::Status withDelegateDebugHandle(absl::Status status, int64_t debug_handle) {
  if (!status.ok()) status.SetPayload(kPayloadUrl, absl::Cord(std::to_string(debug_handle)));
  return status;
}

std::optional<int64_t> delegateDebugHandleOf(const absl::Status& status) {
  const auto payload = status.GetPayload(kPayloadUrl);
  int64_t handle = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &handle)) return std::nullopt;
  return handle;
}

std::string delegateFrameContext(int64_t debug_handle, std::string_view origin) {
  return std::string(kContextPrefix) + std::to_string(debug_handle) + ": " + std::string(origin);
}

std::optional<std::pair<int64_t, std::string>> parseDelegateFrameContext(std::string_view context) {
  if (context.substr(0, kContextPrefix.size()) != kContextPrefix) return std::nullopt;
  context.remove_prefix(kContextPrefix.size());
  const size_t colon = context.find(": ");
  int64_t handle = 0;
  if (colon == std::string_view::npos || !absl::SimpleAtoi(absl::string_view(context.data(), colon), &handle)) return std::nullopt;
  return std::make_pair(handle, std::string(context.substr(colon + 2)));
}

}  // namespace sy
