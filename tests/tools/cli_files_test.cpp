// `switchyard` given paths that are not the files it wants: directories, FIFOs, devices, paths it
// cannot write, and flags out of range. Each is one line on stderr and exit status 1, never an
// abort or a hang.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"
#include "program/program_test_support.h"

namespace {

using namespace sy::testing::cli;

// A fresh directory of this test process's own.
std::string freshDirectoryForCli(const std::string& name) {
  const std::string dir = tempPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(CliFiles, ADirectoryGivenAsAProgramIsOneLine) {
  const std::string dir = freshDirectoryForCli("program_dir");
  expectOneLineError(runCli("run " + dir + " --random 0"), "program '" + dir + "': is a directory, not a file");
  expectOneLineError(runCli("inspect " + dir), "program '" + dir + "': is a directory, not a file");
}

TEST(CliFiles, ADirectoryGivenAsInputsOrDataIsOneLine) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  const std::string dir = freshDirectoryForCli("inputs_dir");
  expectOneLineError(runCli("run " + add + " --inputs " + dir), "inputs file '" + dir + "': is a directory");
  expectOneLineError(runCli("run " + add + " --random 0 --data " + dir), "data file '" + dir + "': is a directory");
}

TEST(CliFiles, AFifoIsRefusedAtOnceRatherThanWaitedOn) {
  const std::string fifo = freshDirectoryForCli("fifo") + "/model.pte";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expectOneLineError(runCli("run " + fifo + " --random 0", /*seconds=*/20),
                     "program '" + fifo + "': is a FIFO, not a file (only regular files are read)");
  expectOneLineError(runCli("inspect " + fifo, /*seconds=*/20), "is a FIFO, not a file");
}

TEST(CliFiles, ADeviceGivenAsInputsIsOneLine) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  expectOneLineError(runCli("run " + add + " --inputs /dev/zero", /*seconds=*/20),
                     "inputs file '/dev/zero': is a character device, not a file");
}

TEST(CliFiles, ADemoSavePathThatCannotBeWrittenIsOneLine) {
  expectOneLineError(runCli("demo --calls 10 --save /nonexistent/dir/x.pte"),
                     "--save: cannot open '/nonexistent/dir/x.pte' for writing");
}

TEST(CliFiles, ANegativeRandomSeedSaysTheSeedMustBeNonNegative) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  expectOneLineError(runCli("run " + add + " --random=-2"), "--random takes a non-negative seed, not -2");
  expectOneLineError(runCli("run " + add + " --random -1"), "--random takes a non-negative seed, not -1");
}

}  // namespace
