#include "switchyard/fallback/profiler.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_format.h"
#include "switchyard/dispatcher/library.h"
#include "tsl/robin_map.h"

namespace sy {

struct Profile::State {
  struct Frame {
    int64_t start_ns;
    int64_t children_ns;
  };
  tsl::robin_map<std::string, OperatorProfile> by_name;
  std::vector<Frame> open_frames;  // the operators currently running, innermost last
  State* previous = nullptr;       // a Profile started inside another on the same thread
};

namespace {

thread_local Profile::State* active_profile = nullptr;

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Pops the frame even when the operator throws, so a failed call still counts and nesting stays right.
class FrameScope {
 public:
  FrameScope(Profile::State& state, const OperatorName& name) : state_(state), name_(name) {
    state_.open_frames.push_back({nowNs(), 0});
  }
  ~FrameScope() {
    const Profile::State::Frame frame = state_.open_frames.back();
    state_.open_frames.pop_back();
    const int64_t total = nowNs() - frame.start_ns;
    if (!state_.open_frames.empty()) state_.open_frames.back().children_ns += total;
    OperatorProfile& entry = state_.by_name[name_.toString()];
    if (entry.name.empty()) entry.name = name_.toString();
    entry.count += 1;
    entry.total_ns += total;
    entry.self_ns += total - frame.children_ns;
  }

 private:
  Profile::State& state_;
  const OperatorName& name_;
};

void profilerFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  Profile::State* state = active_profile;
  if (state == nullptr) {
    // The key was included by someone else's guard; behave like a fallthrough.
    op.redispatchBoxed(ks.remove(DispatchKey::Profiler), stack);
    return;
  }
  FrameScope frame(*state, op.operator_name());
  op.redispatchBoxed(ks.remove(DispatchKey::Profiler), stack);
}

}  // namespace

SY_LIBRARY_IMPL(_, Profiler, m) { m.fallback(CppFunction::makeFromBoxedFunction<&profilerFallback>()); }

Profile::Profile() : state_(std::make_unique<State>()) {
  state_->previous = active_profile;
  active_profile = state_.get();
  guard_ = std::make_unique<IncludeDispatchKeyGuard>(DispatchKey::Profiler);
}

Profile::~Profile() { stop(); }

ProfileReport Profile::stop() {
  if (guard_) {
    guard_.reset();
    active_profile = state_->previous;
  }
  std::vector<OperatorProfile> operators;
  for (const auto& [name, profile] : state_->by_name) operators.push_back(profile);
  std::sort(operators.begin(), operators.end(), [](const OperatorProfile& a, const OperatorProfile& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return ProfileReport(std::move(operators));
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
