#include "switchyard/fallback/profiler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_format.h"
#include "switchyard/dispatcher/call_label.h"
#include "switchyard/dispatcher/library.h"
#include "tsl/robin_map.h"

namespace sy {

struct Profile::State {
  struct Frame {
    int64_t start_ns;
    int64_t children_ns;
  };
  std::mutex mutex;                // taken by the profiled thread per call and by stop()
  bool running = true;             // under `mutex`
  tsl::robin_map<std::string, OperatorProfile> by_name;  // under `mutex`
  std::vector<Frame> open_frames;  // the operators currently running, innermost last (under `mutex`)
  std::vector<TraceEvent> events;  // under `mutex`
  int64_t dropped_events = 0;      // under `mutex`
  int64_t start_ns = 0;
  uint64_t thread_id = 0;          // the profiled thread's, for the timeline
};

namespace {

using StatePtr = std::shared_ptr<Profile::State>;

// A small number per thread, in the order threads first start a Profile: the timeline's "tid".
uint64_t profiledThreadId() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t id = next.fetch_add(1);
  return id;
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool isRunning(Profile::State& state) {
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.running;
}

// The Profiles running on this thread, oldest first, and the Profiler key while there are any
// (see Note [Profiles on a thread are independent]).
class ThreadProfiles {
 public:
  void start(StatePtr state) {
    running_.push_back(std::move(state));
    if (!key_) key_.emplace(DispatchKey::Profiler);
  }
  // Forgets `state` (when given) and every Profile stopped elsewhere; drops the key with the last.
  void prune(const Profile::State* state) {
    running_.erase(std::remove_if(running_.begin(), running_.end(),
                                  [&](const StatePtr& s) { return s.get() == state || !isRunning(*s); }),
                   running_.end());
    if (running_.empty()) key_.reset();
  }
  const std::vector<StatePtr>& running() const { return running_; }

 private:
  std::vector<StatePtr> running_;
  std::optional<IncludeDispatchKeyGuard> key_;
};

ThreadProfiles& threadProfiles() {
  thread_local ThreadProfiles profiles;
  return profiles;
}

// Opens a frame in every Profile running when the call starts, and closes it in each that still
// runs when the call ends, even when the operator throws, so a failed call still counts.
class FrameScope {
 public:
  FrameScope(const std::vector<StatePtr>& profiles, CallLabel label) : label_(std::move(label)) {
    for (const StatePtr& state : profiles) {
      std::lock_guard<std::mutex> lock(state->mutex);
      if (!state->running) continue;
      state->open_frames.push_back({nowNs(), 0});
      open_in_.push_back(state);
    }
  }
  ~FrameScope() {
    const int64_t end = nowNs();
    for (const StatePtr& state : open_in_) {
      std::lock_guard<std::mutex> lock(state->mutex);
      if (!state->running) continue;  // stopped during the call: its report is final
      const Profile::State::Frame frame = state->open_frames.back();
      state->open_frames.pop_back();
      const int64_t total = end - frame.start_ns;
      if (!state->open_frames.empty()) state->open_frames.back().children_ns += total;
      OperatorProfile& entry = state->by_name[label_.name];
      if (entry.name.empty()) entry.name = label_.name;
      if (state->events.size() < Profile::kMaxTraceEvents) {
        state->events.push_back({entry.name, frame.start_ns - state->start_ns, total,
                                 static_cast<int32_t>(state->open_frames.size()), label_.category == "delegate",
                                 label_.debug_handles});
      } else {
        state->dropped_events += 1;
      }
      entry.count += 1;
      entry.total_ns += total;
      entry.self_ns += total - frame.children_ns;
    }
  }

 private:
  const CallLabel label_;
  absl::InlinedVector<StatePtr, 2> open_in_;
};

void profilerFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  ThreadProfiles& profiles = threadProfiles();
  profiles.prune(nullptr);
  FrameScope frame(profiles.running(), labelOfCall(op, std::as_const(*stack)));
  op.redispatchBoxed(ks.remove(DispatchKey::Profiler), stack);
}

}  // namespace

SY_LIBRARY_IMPL(_, Profiler, m) { m.fallback(CppFunction::makeFromBoxedFunction<&profilerFallback>()); }

Profile::Profile() : state_(std::make_shared<State>()) {
  state_->start_ns = nowNs();
  state_->thread_id = profiledThreadId();
  threadProfiles().start(state_);
}

Profile::~Profile() { stop(); }

ProfileReport Profile::stop() {
  std::vector<OperatorProfile> operators;
  std::vector<TraceEvent> events;
  int64_t dropped_events = 0;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->running = false;
    for (const auto& [name, profile] : state_->by_name) operators.push_back(profile);
    events = state_->events;
    dropped_events = state_->dropped_events;
  }
  // Calls are recorded as they end; a timeline reads them as they start, outermost first.
  std::sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.depth < b.depth;
  });
  // On the profiled thread, forget it now; any other thread leaves that to the profiled one.
  threadProfiles().prune(state_.get());
  std::sort(operators.begin(), operators.end(), [](const OperatorProfile& a, const OperatorProfile& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return ProfileReport(std::move(operators), std::move(events), dropped_events, state_->thread_id);
}

const OperatorProfile* ProfileReport::find(const std::string& name) const {
  for (const auto& op : operators_) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::string ProfileReport::table() const {
  size_t width = 8;
  for (const auto& op : operators_) width = std::max(width, op.name.size());
  std::string out = absl::StrFormat("%-*s %8s %12s %12s %12s\n", static_cast<int>(width), "operator", "calls",
                                    "total us", "self us", "avg us");
  for (const auto& op : operators_) {
    absl::StrAppendFormat(&out, "%-*s %8d %12.3f %12.3f %12.3f\n", static_cast<int>(width), op.name, op.count,
                          op.total_ns / 1e3, op.self_ns / 1e3, op.total_ns / 1e3 / std::max<int64_t>(op.count, 1));
  }
  return out;
}

}  // namespace sy
