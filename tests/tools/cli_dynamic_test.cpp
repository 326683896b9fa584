// The command line on a program with dynamic shapes (the published XNNPACK multiply over
// Float[<=8]): `inspect` shows bounds and dynamism, `run --method-meta` prints the method's
// interface, and `run` takes inputs below the bound and refuses one above it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "program/program_test_support.h"
#include "tools/cli_test_support.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace sy::testing::cli;

constexpr const char* kDynamicProgram = "wild/executorch-numpy-runtime__dynamic.pte";

TEST(CliDynamicShapes, InspectShowsTheBoundsAndCountsTheDynamicTensors) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, kDynamicProgram);
  const Result r = runCli("inspect " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0: Float[<=8] dynamic (bounded) (value 1, planned)"));
  EXPECT_THAT(r.out, HasSubstr("dynamic shapes: 2 of 3 tensors DYNAMIC_BOUND (sizes shown are upper bounds; inputs take "
                               "any sizes up to them)"));
}

TEST(CliDynamicShapes, RunMethodMetaPrintsTheInterfaceWithoutRunning) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, kDynamicProgram);
  const Result r = runCli("run " + path + " --method-meta");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("method 'forward' of program '" + path + "':\n"
                               "  input 0: Float[<=8] dynamic (bounded), 32 bytes at its bound (value 1, planned)\n"
                               "  output 0: Float[<=8] dynamic (bounded), 32 bytes at its bound (value 2, planned)\n"
                               "  planned memory: 128 bytes in 1 buffer(s)\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("output 0: tensor")));
  // abseil's spelling works too; with inputs, the run follows.
  const Result ran = runCli("run " + path + " --method_meta --random 0");
  ASSERT_EQ(ran.status, 0) << ran.err;
  EXPECT_THAT(ran.out, HasSubstr("planned memory: 128 bytes in 1 buffer(s)\n\noutput 0: tensor(["));
}

TEST(CliDynamicShapes, RunMethodMetaAsJson) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, kDynamicProgram);
  const std::string inputs = writeTemp("dyn_three.json", R"([{"dtype": "Float", "sizes": [3], "data": [1, 2, 3]}])");
  const Result r = runCli("run " + path + " --method-meta --format json --inputs " + inputs);
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& input = j["method_meta"]["inputs"][0];
  EXPECT_EQ(input["dynamism"], "DYNAMIC_BOUND");
  EXPECT_EQ(input["sizes"], nlohmann::json::array({8}));
  EXPECT_EQ(input["nbytes"], 32);
  EXPECT_EQ(j["method_meta"]["planned_buffers"], nlohmann::json::array({128}));
  EXPECT_EQ(j["outputs"][0]["sizes"], nlohmann::json::array({3}));
}

TEST(CliDynamicShapes, RunTakesInputsBelowTheBoundAndRefusesOnesAbove) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, kDynamicProgram);
  const std::string two = writeTemp("dyn_two.json", R"([{"dtype": "Float", "sizes": [2], "data": [1, -1]}])");
  const Result r = runCli("run " + path + " --inputs " + two);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("output 0: tensor([ "));
  const std::string nine =
      writeTemp("dyn_nine.json", R"([{"dtype": "Float", "sizes": [9], "data": [1, 2, 3, 4, 5, 6, 7, 8, 9]}])");
  expectOneLineError(runCli("run " + path + " --inputs " + nine),
                     "input 0: dimension 0 has size 9, above its bound of 8 (the tensor given has sizes (9,); the program "
                     "takes sizes up to (8,))");
}

TEST(CliDynamicShapes, HelpSpellsFlagsWithDashes) {
  const Result r = runCli("run --help");
  EXPECT_THAT(r.out, HasSubstr("  --method-meta (default: false)"));
  expectOneLineError(runCli("inspect --method-meta x.pte"), "inspect does not take --method-meta");
}

}  // namespace
