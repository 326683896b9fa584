#include "switchyard/backends/devices/accel/accel_stats.h"

#include <iostream>
#include <mutex>
#include <set>

#include "absl/strings/str_format.h"

namespace sy::accel {
namespace {

struct Stats {
  std::mutex mutex;
  std::map<std::string, int64_t, std::less<>> native;
  std::map<std::string, int64_t, std::less<>> fallback;
  std::set<std::string, std::less<>> warned;
  bool warn = false;
};

Stats& stats() {
  static Stats* s = new Stats();  // never destroyed: kernels may run during static teardown
  return *s;
}

void bump(std::map<std::string, int64_t, std::less<>>& table, std::string_view op) {
  auto it = table.find(op);
  if (it == table.end()) it = table.emplace(std::string(op), 0).first;
  it->second += 1;
}

std::map<std::string, int64_t> plain(const std::map<std::string, int64_t, std::less<>>& table) {
  return std::map<std::string, int64_t>(table.begin(), table.end());
}

}  // namespace

std::map<std::string, int64_t> fallback_counts() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  return plain(stats().fallback);
}

std::map<std::string, int64_t> native_counts() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  return plain(stats().native);
}

void reset_fallback_counts() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  stats().native.clear();
  stats().fallback.clear();
}

void set_warn_on_fallback(bool on) {
  std::lock_guard<std::mutex> lock(stats().mutex);
  stats().warn = on;
  if (on) stats().warned.clear();
}

std::string report() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  const Stats& s = stats();
  size_t width = 8;
  for (const auto& [name, n] : s.native) width = std::max(width, name.size());
  for (const auto& [name, n] : s.fallback) width = std::max(width, name.size());
  const int w = static_cast<int>(width);
  std::string out = "Accel operator report\n";
  absl::StrAppendFormat(&out, "native (Accel kernels): %d operators\n", s.native.size());
  for (const auto& [name, n] : s.native) absl::StrAppendFormat(&out, "  %-*s %8d\n", w, name, n);
  absl::StrAppendFormat(&out, "fallback (ran on the CPU): %d operators\n", s.fallback.size());
  for (const auto& [name, n] : s.fallback) absl::StrAppendFormat(&out, "  %-*s %8d\n", w, name, n);
  return out;
}

namespace detail {

void recordNativeCall(std::string_view op) {
  std::lock_guard<std::mutex> lock(stats().mutex);
  bump(stats().native, op);
}

void recordFallback(std::string_view op) {
  bool print = false;
  {
    std::lock_guard<std::mutex> lock(stats().mutex);
    bump(stats().fallback, op);
    print = stats().warn && stats().warned.emplace(std::string(op)).second;
  }
  if (print) {
    std::cerr << "[switchyard] Accel: " << op
              << " has no Accel kernel and falls back to the CPU (copies every tensor argument across)\n";
  }
}

}  // namespace detail
}  // namespace sy::accel
