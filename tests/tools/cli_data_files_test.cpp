// `switchyard inspect` on what a program reads besides its instructions: the program's named data
// (a line per key) and .ptd data files (a line per entry).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "program/program_test_support.h"
#include "switchyard/program/testing/data_file_builder.h"
#include "tools/cli_test_support.h"

namespace {

using ::testing::HasSubstr;
using namespace sy::testing::cli;

TEST(CliDataFiles, InspectListsAProgramsNamedData) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/djl-executorch-engine__lin129.pte");
  const Result r = runCli("inspect " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\nnamed data: 2 keys, 33280 bytes\n"
                               "  79ecd561afb8dfd3b2e68da7b144ddea395854ffdd7632674ebf0d8da8a2b4c9: 33024 bytes\n"
                               "  51325b961e34db11a4b8b5ddae4217455e37cc3210b336e471e6fc60c78f45fa: 256 bytes\n"));
}

TEST(CliDataFiles, InspectListsTheEntriesOfADataFile) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor.ptd");
  const Result r = runCli("inspect " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("data file " + path + " (ExecuTorch 1.x (named data), format version 0), 4 entries, 208 bytes\n"
                               "  net.linear.weight: Float[10, 2], 80 bytes\n"
                               "  net.linear.bias: Float[10], 40 bytes\n"));
  expectOneLineError(runCli("inspect " + path + " --graph"),
                     "is a data file (.ptd): inspect lists its entries, and takes none of --format, --method and --graph");
}

TEST(CliDataFiles, InspectNamesTheLayoutOfAnExecuTorch0_6DataFile) {
  sy::testing::DataFileBuilder b;
  b.tensor("w", sy::ScalarType::Float, {3}, std::vector<uint8_t>(12, 0)).blob("key", {1, 2});
  const std::vector<uint8_t> bytes = b.finish(sy::testing::DataFileBuilder::Layout::V0_6);
  const std::string path = tempPath("old_layout.ptd");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const Result r = runCli("inspect " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("data file " + path + " (ExecuTorch 0.6 (a tensors table), format version 0), 2 entries, 14 "
                               "bytes\n  w: Float[3], 12 bytes\n  key: 2 bytes\n"));
}

}  // namespace
