// `switchyard run --etdump FILE --debug-outputs DIR`: the run as ExecuTorch's ETDump, with the
// delegates' own steps, and every intermediate output for numerical debugging.
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "program/program_test_support.h"
#include "switchyard/program/schema/etdump_generated.h"
#include "tools/cli_test_support.h"

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace sy::testing::cli;

// The profile events of the file's first run, as "name" or "#debug handle" or "'step name'", with
// their instruction ids.
std::vector<std::string> profileEventsIn(const std::string& path) {
  const std::vector<uint8_t> bytes = sy::testing::readFile(path);
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  EXPECT_TRUE(sy::etdump::VerifySizePrefixedETDumpBuffer(verifier)) << path;
  std::vector<std::string> out;
  for (const sy::etdump::Event* e : *sy::etdump::GetSizePrefixedETDump(bytes.data())->run_data()->Get(0)->events()) {
    const sy::etdump::ProfileEvent* p = e->profile_event();
    if (p == nullptr) continue;
    std::string what = p->name() != nullptr ? p->name()->str()
                       : p->delegate_debug_id_str() != nullptr ? "'" + p->delegate_debug_id_str()->str() + "'"
                                                                : "#" + std::to_string(p->delegate_debug_id_int());
    out.push_back(what + "@" + std::to_string(p->instruction_id()));
  }
  return out;
}

TEST(CliETDump, RunWritesAnETDumpOfEveryInstruction) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "module_linear.pte");
  const std::string etdump = tempPath("module_linear.etdp");
  const Result r = runCli("run " + path + " --random 0 --etdump " + etdump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("output 0: tensor("));
  EXPECT_THAT(profileEventsIn(etdump), ElementsAre("OPERATOR_CALL@0", "OPERATOR_CALL@1", "Method::execute@-1"));
}

TEST(CliETDump, TheXnnpackDelegateReportsItsSteps) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/djl-executorch-engine__conv.pte");
  const std::string etdump = tempPath("conv.etdp");
  const Result r = runCli("run " + path + " --random 0 --etdump " + etdump);
  ASSERT_EQ(r.status, 0) << r.err;
  // A transpose on the host (its node's debug handle), the convolution in XNNPACK, a transpose back.
  EXPECT_THAT(profileEventsIn(etdump), ElementsAre("#65535@0", "'XNNPACK runtime 0 (node 1)'@0", "#65535@0",
                                                   "DELEGATE_CALL@0", "Method::execute@-1"));
}

TEST(CliETDump, DebugOutputsWritesEveryIntermediateOutput) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "module_linear.pte");
  const std::string dir = tempPath("module_linear_debug");
  const Result r = runCli("run " + path + " --random 0 --debug-outputs " + dir + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(profileEventsIn(dir + "/etdump.etdp").size(), 3u);
  EXPECT_EQ(sy::testing::readFile(dir + "/debug_buffer.bin").size(), 48u);  // three Float[2, 2], 16-byte aligned
  std::ifstream in(dir + "/intermediates.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& list = j["intermediates"];
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0]["operator"], "aten::mul.out");
  EXPECT_EQ(list[1]["operator"], "aten::add.out");
  EXPECT_EQ(list[2]["output"], 0);
  EXPECT_EQ(list[2]["tensor"], nlohmann::json::parse(r.out)["outputs"][0]);  // the output, as run prints it
  EXPECT_EQ(list[1]["tensor"], list[2]["tensor"]);
  EXPECT_EQ(j["dropped"], 0);
}

TEST(CliETDump, AnETDumpThatCannotBeWrittenIsOneLine) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "module_linear.pte");
  expectOneLineError(runCli("run " + path + " --random 0 --etdump /nonexistent/dir/run.etdp"),
                     "cannot open '/nonexistent/dir/run.etdp' to write the ETDump");
}

}  // namespace
