// The profiler's timeline: every call as an event with its start, duration and nesting, exported
// in Chrome's trace event format and read back here as Perfetto would read it.
#include <fstream>
#include <iterator>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "switchyard/fallback/profiler.h"
#include "switchyard/switchyard.h"

namespace {

using ::testing::HasSubstr;

TEST(ProfilerTrace, RecordsEveryCallWithItsNestingInStartOrder) {
  sy::Profile profile;
  sy::ops::acos(sy::full({4}, 0.5));
  sy::ops::acos(sy::full({4}, 0.5));
  sy::ProfileReport report = profile.stop();
  std::vector<std::pair<std::string, int>> calls;
  for (const sy::TraceEvent& e : report.events()) {
    if (e.name == "aten::acos" || e.name == "aten::empty.memory_format") calls.emplace_back(e.name, e.depth);
  }
  // Each functional acos allocates its result through a nested empty.
  const std::vector<std::pair<std::string, int>> expected = {
      {"aten::acos", 0}, {"aten::empty.memory_format", 1}, {"aten::acos", 0}, {"aten::empty.memory_format", 1}};
  EXPECT_EQ(calls, expected);
  for (size_t i = 1; i < report.events().size(); ++i) {
    EXPECT_LE(report.events()[i - 1].start_ns, report.events()[i].start_ns);
  }
  EXPECT_EQ(report.dropped_events(), 0);
}

// Complete events of one thread nest by time: a deeper event lies inside the one before it.
TEST(ProfilerTrace, TheChromeTraceIsJsonWhoseEventsNestByTime) {
  sy::Profile profile;
  sy::ops::acos(sy::full({4}, 0.5));
  const nlohmann::json trace = nlohmann::json::parse(profile.stop().chromeTrace());
  ASSERT_TRUE(trace["traceEvents"].is_array());
  const nlohmann::json* outer = nullptr;
  bool saw_nested = false;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    EXPECT_EQ(e["ph"], "X");
    EXPECT_EQ(e["cat"], "operator");
    EXPECT_GE(e["ts"].get<double>(), 0);
    EXPECT_GE(e["dur"].get<double>(), 0);
    EXPECT_TRUE(e["pid"].is_number() && e["tid"].is_number());
    if (e["name"] == "aten::acos") outer = &e;
    if (e["name"] == "aten::empty.memory_format" && outer != nullptr) {
      saw_nested = true;
      EXPECT_EQ(e["args"]["depth"], 1);
      EXPECT_GE(e["ts"].get<double>(), (*outer)["ts"].get<double>());
      EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(),
                (*outer)["ts"].get<double>() + (*outer)["dur"].get<double>() + 1e-3);
    }
  }
  EXPECT_TRUE(saw_nested) << trace.dump(1);
  EXPECT_EQ(trace["otherData"]["dropped_events"], 0);
}

TEST(ProfilerTrace, ExportWritesTheTraceToAFileAndNamesAPathItCannotWrite) {
  const std::string path = ::testing::TempDir() + "/switchyard_profiler_trace_" + std::to_string(getpid()) + ".json";
  sy::Profile profile;
  sy::ops::add(sy::ones({2}), sy::ones({2}));
  ASSERT_TRUE(profile.export_chrome_trace(path).ok());
  std::ifstream file(path);
  const nlohmann::json trace = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(file), {}));
  bool saw_add = false;
  for (const nlohmann::json& e : trace["traceEvents"]) saw_add |= e["name"] == "aten::add.Tensor";
  EXPECT_TRUE(saw_add);
  // The profile stopped: later calls are not in it.
  sy::ops::add(sy::ones({2}), sy::ones({2}));
  EXPECT_EQ(profile.stop().events().size(), trace["traceEvents"].size());

  const absl::Status bad = profile.export_chrome_trace("/nonexistent/dir/trace.json");
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.message()), HasSubstr("cannot open '/nonexistent/dir/trace.json' for writing"));
}

}  // namespace
