// ProfileReport's timeline in Chrome's trace event format (the "JSON Object Format" with complete
// "X" events), which Perfetto (ui.perfetto.dev) and chrome://tracing open.
#include <unistd.h>

#include <fstream>

#include "nlohmann/json.hpp"
#include "switchyard/fallback/profiler.h"
#include "switchyard/core/error.h"

namespace sy {

std::string ProfileReport::chromeTrace() const {
  nlohmann::json events = nlohmann::json::array();
  const int pid = static_cast<int>(getpid());
  for (const TraceEvent& e : events_) {
    // Microseconds, as the format asks; nesting follows from the times on one thread. A delegate
    // call names its original operators by debug handle (See Note [Delegate calls are profiled by
    // backend and index]).
    nlohmann::json args = {{"depth", e.depth}};
    if (e.delegate) args["debug_handles"] = e.debug_handles;
    events.push_back({{"name", e.name},
                      {"cat", e.delegate ? "delegate" : "operator"},
                      {"ph", "X"},
                      {"ts", static_cast<double>(e.start_ns) / 1e3},
                      {"dur", static_cast<double>(e.duration_ns) / 1e3},
                      {"pid", pid},
                      {"tid", thread_id_},
                      {"args", std::move(args)}});
  }
  nlohmann::json trace = {{"traceEvents", std::move(events)},
                          {"displayTimeUnit", "ms"},
                          {"otherData", {{"producer", "switchyard profiler"}, {"dropped_events", dropped_events_}}}};
  return trace.dump(1);
}

absl::Status ProfileReport::export_chrome_trace(const std::string& path) const {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return absl::UnavailableError(sy::str("export_chrome_trace: cannot open '", path, "' for writing"));
  file << chromeTrace();
  file.close();
  if (!file) return absl::DataLossError(sy::str("export_chrome_trace: writing '", path, "' failed"));
  return absl::OkStatus();
}

}  // namespace sy
