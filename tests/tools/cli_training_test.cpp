// `switchyard run` on a training program names the gradients and parameters among its outputs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "program/program_test_support.h"
#include "tools/cli_test_support.h"

namespace {

using ::testing::HasSubstr;
using namespace sy::testing::cli;

TEST(CliTraining, RunNamesTheGradientsAndParametersOfATrainingProgram) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data, "xor.ptd");
  const std::string inputs = writeTemp(
      "xor_inputs.json", R"([{"dtype": "Float", "sizes": [1, 2], "data": [1, 0]}, {"dtype": "Long", "sizes": [1], "data": [1]}])");
  const Result r = runCli("run " + path + " --data " + data + " --inputs " + inputs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\noutput 1: tensor([1], dtype=Long)\noutput 2 (gradient of net.linear.weight): tensor([["));
  EXPECT_THAT(r.out, HasSubstr("\noutput 9 (parameter net.linear2.bias): tensor(["));
  const Result j = runCli("run " + path + " --data " + data + " --inputs " + inputs + " --format json");
  ASSERT_EQ(j.status, 0) << j.err;
  const nlohmann::json parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["training"]["gradients"]["net.linear.weight"], 2);
  EXPECT_EQ(parsed["training"]["parameters"]["net.linear2.bias"], 9);
  EXPECT_EQ(parsed["outputs"].size(), 10u);
}

}  // namespace
