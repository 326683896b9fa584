// Profiler: times every operator call generically, through one boxed fallback on the Profiler key.
//
//   sy::Profile profile;                       // starts profiling this thread
//   sy::Tensor y = model(x);
//   std::cout << profile.stop().table();       // count, total and self time per operator
//   absl::Status saved = profile.export_chrome_trace("trace.json");  // a timeline for Perfetto
//
// Nested calls are attributed to their caller: a functional `aten::acos` that allocates through
// `aten::empty` shows both, and acos's self time excludes the time spent in empty.
//
// Note [Profiles on a thread are independent]
// A Profile records the operators its thread calls while it runs. Several may run on one thread
// at once: each records every call made while it runs (an outer one also sees the calls made
// while an inner one runs), and they may stop in any order. A Profile may also be stopped (or
// destroyed) on another thread: it stops recording at once, and the thread that started it drops
// the Profiler key at its next call, when it finds no running Profile left. A Profile's data is
// guarded by its own mutex, which only the thread it profiles and a stopping thread ever take.
//
// Note [Delegate calls are profiled by backend and index]
// Every delegate runs through one operator, higher_order::executorch_call_delegate (See Note
// [Delegate calls go through the dispatcher]), so a profile keyed by operator would lump every
// delegate of every backend into one row. The profiler names a call of that operator from its
// arguments instead, "<backend>#<delegate index>" ("XnnpackBackend#0"), so each delegate of a
// method has its own row and trace events; and its trace events carry, as arguments, the debug
// handles of the original operators the delegate runs (from the program's debug-handle frames; See
// Note [A program file keeps a delegate's debug-handle map in its stack traces]), which Perfetto
// shows beside the event. Calls of every other operator keep the operator's name.
//
// Note [The profiler costs nothing when off]
// A Profile adds the Profiler key to its thread's included set and removes it when it stops. No
// tensor carries that key, so when no Profile is active, no call's key set contains it and the
// dispatch path is the same instructions as in a build without the profiler (bench/README.md
// measures it). The fallback itself is registered once, at load time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"

namespace sy {

struct OperatorProfile {
  std::string name;      // "aten::acos", or "XnnpackBackend#0" for a delegate call
  int64_t count = 0;     // calls
  int64_t total_ns = 0;  // wall time inside the operator, nested calls included
  int64_t self_ns = 0;   // total minus the time of the operators it called
};

// One operator call on the timeline: when it started (from the Profile's start), how long it ran,
// and how deeply it was nested in other operators' calls (0: called from outside every operator).
struct TraceEvent {
  std::string name;
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  int32_t depth = 0;
  // A delegate call's (See Note [Delegate calls are profiled by backend and index]).
  bool delegate = false;
  std::vector<int64_t> debug_handles;
};

class ProfileReport {
 public:
  explicit ProfileReport(std::vector<OperatorProfile> operators, std::vector<TraceEvent> events = {},
                         int64_t dropped_events = 0, uint64_t thread_id = 0)
      : operators_(std::move(operators)),
        events_(std::move(events)),
        dropped_events_(dropped_events),
        thread_id_(thread_id) {}
  // Sorted by total time, longest first.
  const std::vector<OperatorProfile>& operators() const { return operators_; }
  // The entry for `name`, or nullptr.
  const OperatorProfile* find(const std::string& name) const;
  // A fixed-width table: operator, calls, total, self, average.
  std::string table() const;

  // Every call, ordered by start time (the first Profile::kMaxTraceEvents calls to end; the rest
  // are counted in dropped_events).
  const std::vector<TraceEvent>& events() const { return events_; }
  int64_t dropped_events() const { return dropped_events_; }
  // The events in Chrome's trace event format (JSON: one complete "X" event per call, in
  // microseconds, nesting shown by time; a delegate call's carries its debug handles in "args"),
  // which Perfetto and chrome://tracing open.
  std::string chromeTrace() const;
  // Writes chromeTrace() to `path`; an error names the path.
  absl::Status export_chrome_trace(const std::string& path) const;

 private:
  std::vector<OperatorProfile> operators_;
  std::vector<TraceEvent> events_;
  int64_t dropped_events_ = 0;
  uint64_t thread_id_ = 0;
};

class Profile {
 public:
  Profile();
  ~Profile();
  Profile(const Profile&) = delete;
  Profile& operator=(const Profile&) = delete;

  // Stops profiling (if still running) and returns what was collected.
  ProfileReport stop();
  // Stops profiling (if still running) and writes its calls as a Chrome trace (see ProfileReport).
  absl::Status export_chrome_trace(const std::string& path) { return stop().export_chrome_trace(path); }

  // A Profile keeps at most this many calls for its timeline (the table counts them all).
  static constexpr size_t kMaxTraceEvents = size_t{1} << 20;

  struct State;  // what a Profile has collected (defined in profiler.cpp)

 private:
  // Shared with the profiled thread's list of running Profiles (see Note [Profiles on a thread are independent]).
  std::shared_ptr<State> state_;
};

}  // namespace sy
