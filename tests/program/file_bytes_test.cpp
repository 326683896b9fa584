// Reading the files a user names (program/file_bytes.h): programs, data files and the command
// line's JSON all go through readFileBytes, so a directory, a FIFO, a device or an unreadable file
// is an absl::Status naming the path and what it is, never an exception, an abort or a hang.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/program/data_file.h"
#include "switchyard/program/file_bytes.h"
#include "switchyard/program/program.h"

namespace sy {
namespace {

using ::testing::HasSubstr;

// A fresh directory of this test process's own under the test temporary directory.
std::string freshDirectoryForFileTests(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/switchyard_files_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ReadFileBytes, ReadsARegularFileWhole) {
  const std::string path = freshDirectoryForFileTests("regular") + "/bytes.bin";
  std::ofstream(path, std::ios::binary) << std::string("abc\0def", 7);
  absl::StatusOr<FileBytes> file = readFileBytes(path, "program");
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->text(), std::string("abc\0def", 7));
  EXPECT_EQ(file->bytes[7], 0);  // one byte past the end, so never a null array
}

TEST(ReadFileBytes, RefusesADirectoryNamingIt) {
  const std::string dir = freshDirectoryForFileTests("dir");
  absl::StatusOr<FileBytes> file = readFileBytes(dir, "program");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(file.status().message(),
            "program '" + dir + "': is a directory, not a file (only regular files are read)");
}

TEST(ReadFileBytes, RefusesAFifoWithoutWaitingForAWriter) {
  const std::string fifo = freshDirectoryForFileTests("fifo") + "/pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<FileBytes> file = readFileBytes(fifo, "data file");
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr("data file '" + fifo + "': is a FIFO, not a file"));
}

TEST(ReadFileBytes, RefusesADevice) {
  absl::StatusOr<FileBytes> file = readFileBytes("/dev/zero", "inputs file");
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr("inputs file '/dev/zero': is a character device, not a file"));
}

TEST(ReadFileBytes, AMissingFileIsNotFoundWithTheSystemsReason) {
  absl::StatusOr<FileBytes> file = readFileBytes("/nonexistent/model.pte", "program");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(file.status().message(), "program '/nonexistent/model.pte': cannot open the file: No such file or directory");
}

TEST(ReadFileBytes, AnUnreadableFileIsPermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every file";
  const std::string path = freshDirectoryForFileTests("unreadable") + "/secret.pte";
  std::ofstream(path) << "x";
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  absl::StatusOr<FileBytes> file = readFileBytes(path, "program");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(file.status().message(), HasSubstr("Permission denied"));
}

TEST(ReadFileBytes, ProgramAndDataFileLoadsReturnTheErrorForADirectory) {
  const std::string dir = freshDirectoryForFileTests("loads");
  absl::StatusOr<Program> program = Program::load(dir);
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(program.status().message(), HasSubstr("program '" + dir + "': is a directory"));
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(dir);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("data file '" + dir + "': is a directory"));
}

}  // namespace
}  // namespace sy
