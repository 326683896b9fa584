// `switchyard run --profile` on a partitioned program (the one `switchyard demo --save` writes):
// each delegate call is its own row, named by backend and delegate index, and its Chrome trace
// events carry the debug handles of the original operators the delegate runs.
#include <fstream>
#include <iterator>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"
#include "nlohmann/json.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace sy::testing::cli;

TEST(CliProfile, EachDelegateCallIsARowNamedByBackendAndIndexWithItsDebugHandlesInTheTrace) {
  const std::string program = tempPath("profiled_demo.pte");
  Result demo = runCli("demo --calls 100 --save " + program);
  ASSERT_EQ(demo.status, 0) << demo.err;
  const std::string trace_path = tempPath("profiled_demo_trace.json");
  Result r = runCli("run " + program + " --random 0 --profile --trace " + trace_path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\nBackendWithCompilerDemo#0 "));
  EXPECT_THAT(r.out, HasSubstr("\nBackendWithCompilerDemo#1 "));
  EXPECT_THAT(r.out, Not(HasSubstr("executorch_call_delegate")));

  std::ifstream file(trace_path);
  const nlohmann::json trace = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(file), {}));
  int delegate_events = 0;
  for (const nlohmann::json& event : trace["traceEvents"]) {
    if (event["cat"] != "delegate") continue;
    ++delegate_events;
    EXPECT_THAT(event["name"].get<std::string>(), ::testing::MatchesRegex("[A-Za-z]+#[0-9]+"));
    // The demo backend's second delegate runs the logit cap's second mul and its add: one debug
    // handle each, as `switchyard inspect --graph` lists them.
    if (event["name"] == "BackendWithCompilerDemo#1") {
      EXPECT_EQ(event["args"]["debug_handles"], nlohmann::json::array({1, 2})) << event.dump();
    }
    EXPECT_FALSE(event["args"]["debug_handles"].empty()) << event.dump();
  }
  EXPECT_GE(delegate_events, 1);
  std::remove(program.c_str());
  std::remove(trace_path.c_str());
}

}  // namespace
