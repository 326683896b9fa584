// The `switchyard` command line, run as a user runs it: a separate process, its stdout, stderr and
// exit status. Programs come from ExecuTorch's reference programs (skipped when absent) and from
// programs the tests write themselves.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "tools/cli_test_support.h"
#include "program/program_test_support.h"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace sy::testing::cli;

TEST(Cli, HelpListsTheCommands) {
  Result r = runCli("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("run "));
  EXPECT_THAT(r.out, HasSubstr("inspect "));
}

TEST(Cli, EverySubcommandHasHelpNamingItsFlags) {
  Result run = runCli("run --help");
  EXPECT_EQ(run.status, 0);
  EXPECT_THAT(run.out, HasSubstr("usage: switchyard run PROGRAM.pte"));
  for (const char* flag : {"--data", "--method", "--inputs", "--random", "--format", "--profile"}) {
    EXPECT_THAT(run.out, HasSubstr(flag));
  }
  Result inspect = runCli("inspect --help");
  EXPECT_EQ(inspect.status, 0);
  EXPECT_THAT(inspect.out, HasSubstr("usage: switchyard inspect PROGRAM.pte"));
}

TEST(Cli, UnknownCommandIsOneLineListingTheCommands) {
  expectOneLineError(runCli("frobnicate"), "unknown command 'frobnicate'; commands: demo, run, inspect, ops, bench");
}

TEST(Cli, AFlagOfAnotherSubcommandIsRefused) {
  expectOneLineError(runCli("inspect --random 3 x.pte"), "inspect does not take --random");
}

TEST(Cli, AMissingFileIsOneLine) {
  expectOneLineError(runCli("run /nonexistent/model.pte --random 0"), "/nonexistent/model.pte");
  expectOneLineError(runCli("inspect /nonexistent/model.pte"), "/nonexistent/model.pte");
}

TEST(Cli, ACorruptProgramIsOneLine) {
  const std::string path = writeTemp("corrupt.pte", std::string(64, '\x7f'));
  expectOneLineError(runCli("inspect " + path), "corrupt.pte");
}

TEST(Cli, RunsAddWithJsonInputsAndPrintsJsonOutputs) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  const std::string inputs = writeTemp(
      "add_inputs.json", R"([{"dtype": "Float", "sizes": [1], "data": [1.5]}, {"dtype": "Float", "sizes": [1], "data": [2]}])");
  Result r = runCli("run " + add + " --inputs " + inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["outputs"].size(), 1u);
  EXPECT_EQ(j["outputs"][0]["dtype"], "Float");
  EXPECT_EQ(j["outputs"][0]["sizes"], nlohmann::json::array({1}));
  EXPECT_DOUBLE_EQ(j["outputs"][0]["data"][0].get<double>(), 3.5);
}

TEST(Cli, RunWithRandomInputsPrintsTextAndAProfile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  Result r = runCli("run " + add + " --random 7 --profile");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("output 0: "));
  EXPECT_THAT(r.out, HasSubstr("aten::add"));  // the profiler's table
}

TEST(Cli, RunWritesTheProfilesChromeTrace) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  const std::string trace_path = tempPath("trace.json");
  Result r = runCli("run " + add + " --random 7 --profile --trace " + trace_path);
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream file(trace_path);
  const nlohmann::json trace = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(file), {}));
  ASSERT_FALSE(trace["traceEvents"].empty());
  EXPECT_EQ(trace["traceEvents"][0]["name"], "aten::add.out");
  expectOneLineError(runCli("run " + add + " --random 7 --trace " + trace_path), "--trace needs --profile");
}

TEST(Cli, RunRefusesInputsOfTheWrongDtypeOrShape) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  const std::string wrong_dtype = writeTemp(
      "wrong_dtype.json", R"([{"dtype": "Long", "sizes": [1], "data": [1]}, {"dtype": "Float", "sizes": [1], "data": [2]}])");
  expectOneLineError(runCli("run " + add + " --inputs " + wrong_dtype), "input 0: \"dtype\" is \"Long\" but the method takes Float");
  const std::string wrong_count = writeTemp("wrong_count.json", R"([{"dtype": "Float", "sizes": [2], "data": [1]}])");
  expectOneLineError(runCli("run " + add + " --inputs " + wrong_count), "must hold a JSON list of 2 value(s)");
  const std::string wrong_data = writeTemp(
      "wrong_data.json", R"([{"dtype": "Float", "sizes": [2], "data": [1]}, {"dtype": "Float", "sizes": [1], "data": [2]}])");
  expectOneLineError(runCli("run " + add + " --inputs " + wrong_data), "\"data\" must be a list of 2 numbers");
  expectOneLineError(runCli("run " + add), "takes 2 input(s); give --inputs FILE.json or --random SEED");
}

TEST(Cli, InspectShowsInputsOperatorsAndPlannedMemory) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  Result r = runCli("inspect " + add);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("method 'forward'"));
  EXPECT_THAT(r.out, HasSubstr("0: Float[1]"));
  EXPECT_THAT(r.out, HasSubstr("aten::add.out"));
  EXPECT_THAT(r.out, HasSubstr("\n  dtypes: Float ("));
  EXPECT_THAT(r.out, HasSubstr("planned memory: "));
  EXPECT_THAT(r.out, HasSubstr("runnable here: yes"));
}

TEST(Cli, InspectMarksAMissingBackendAndRunNamesIt) {
  SY_REFERENCE_PROGRAM_OR_SKIP(qnn, "stories260k_qnn.pte");
  Result inspect = runCli("inspect " + qnn);
  ASSERT_EQ(inspect.status, 0) << inspect.err;
  EXPECT_THAT(inspect.out, HasSubstr("QnnBackend"));
  EXPECT_THAT(inspect.out, HasSubstr("<- backend not registered"));
  expectOneLineError(runCli("run " + qnn + " --method kv_forward --random 0"),
                     "method 'kv_forward' needs backend 'QnnBackend' (delegate 0), which is not registered",
                     /*status=*/3);  // Switchyard lacks what the program needs
  expectOneLineError(runCli("run " + qnn), "has no method 'forward'; its methods: kv_forward, prefill_forward");
}

TEST(Cli, InspectMarksMissingOperators) {
  SY_REFERENCE_PROGRAM_OR_SKIP(cadence, "cadence_quantized_conv.pte");
  Result r = runCli("inspect " + cadence);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("cadence::"));
  EXPECT_THAT(r.out, HasSubstr("<- not registered"));
}

TEST(Cli, RunsAddRootWithJsonInputs) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add_root, "add_root.pte");
  const std::string inputs = writeTemp(
      "add_root_inputs.json", R"([{"dtype": "Float", "sizes": [1], "data": [2.5]}, {"dtype": "Float", "sizes": [1], "data": [4]}])");
  Result r = runCli("run " + add_root + " --inputs " + inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out)["outputs"][0]["data"][0].get<double>(), 6.5);
}

TEST(Cli, RunOfTheKeywordSpottingProgramNamesEveryMissingOperatorInOneLine) {
  SY_REFERENCE_PROGRAM_OR_SKIP(kws, "keyword_spotting_cortex_m.pte");
  Result inspect = runCli("inspect " + kws);
  ASSERT_EQ(inspect.status, 0) << inspect.err;
  EXPECT_THAT(inspect.out, HasSubstr("runnable here: no, 7 operator(s) or backend(s) not registered"));
  expectOneLineError(runCli("run " + kws + " --random 0"),
                     "needs 7 operators that Switchyard does not have: cortex_m::quantize_per_tensor.out, "
                     "cortex_m::quantized_depthwise_conv2d.out, cortex_m::quantized_conv2d.out, cortex_m::pad.out, "
                     "cortex_m::quantized_avg_pool2d.out, cortex_m::quantized_linear.out, "
                     "cortex_m::dequantize_per_tensor.out",
                     /*status=*/3);  // Switchyard lacks what the program needs
}

TEST(Cli, RunsTheXorTrainingStepOnlyWithItsDataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(xor_program, "xor_training.pte");
  const std::string data = ::sy::testing::referenceProgram("xor.ptd");
  const std::string inputs =
      writeTemp("xor_inputs.json", R"([{"dtype": "Float", "sizes": [1, 2], "data": [1, 0]}, {"dtype": "Long", "sizes": [1], "data": [1]}])");
  expectOneLineError(runCli("run " + xor_program + " --inputs " + inputs), "external tensor 'net.linear.weight'");
  Result r = runCli("run " + xor_program + " --data " + data + " --inputs " + inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["outputs"].size(), 10u);  // loss, prediction, four gradients, four parameters
  EXPECT_EQ(j["outputs"][0]["sizes"], nlohmann::json::array());
  EXPECT_GT(j["outputs"][0]["data"][0].get<double>(), 0.0);  // a cross-entropy loss
  EXPECT_EQ(j["outputs"][1]["dtype"], "Long");
  EXPECT_EQ(j["outputs"][2]["sizes"], nlohmann::json::array({10, 2}));
}

}  // namespace
