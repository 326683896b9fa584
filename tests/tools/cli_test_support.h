// Running the `switchyard` command line from tests as a user runs it: a separate process, its
// stdout, stderr and exit status.
//
//   sy::testing::cli::Result r = sy::testing::cli::runCli("ops aten::acos");
//   EXPECT_EQ(r.status, 0);
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sy::testing::cli {

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

// The temporary paths this process handed out, removed (files and folders) when it exits, so a test
// run leaves nothing behind in the temporary folder.
class TempPaths {
 public:
  static TempPaths& instance() {
    static TempPaths paths;
    return paths;
  }
  const std::string& add(std::string path) {
    paths_.push_back(std::move(path));
    return paths_.back();
  }
  ~TempPaths() {
    std::error_code ignored;
    for (const std::string& path : paths_) std::filesystem::remove_all(path, ignored);
  }

 private:
  std::deque<std::string> paths_;
};

// A temporary file or folder name of this test process's own (ctest runs the tests in parallel
// processes), removed when the process exits.
inline std::string tempPath(const std::string& name) {
  return TempPaths::instance().add(::testing::TempDir() + "/switchyard_cli_" + std::to_string(getpid()) + "_" + name);
}

// Runs `switchyard ARGS`; stderr is captured through a temporary file. With `seconds`, a run that
// takes longer is killed (coreutils' timeout) and comes back with status 124.
inline Result runCli(const std::string& args, int seconds = 0) {
  const std::string err_path = tempPath("stderr.txt");
  const std::string timeout = seconds > 0 ? "timeout " + std::to_string(seconds) + " " : "";
  const std::string command = timeout + std::string(SWITCHYARD_CLI_PATH) + " " + args + " 2>" + err_path;
  Result r;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_path);
  r.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  return r;
}

inline std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = tempPath(name);
  std::ofstream(path) << text;
  return path;
}

// Errors are one line on stderr, naming the command, and the exit status of their kind: 1 the
// input is at fault, 3 Switchyard lacks what the program needs, 4 a bug (tools/switchyard/main.cpp).
inline void expectOneLineError(const Result& r, const std::string& substring, int status = 1) {
  EXPECT_EQ(r.status, status);
  EXPECT_THAT(r.err, ::testing::StartsWith("switchyard: "));
  EXPECT_THAT(r.err, ::testing::HasSubstr(substring));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace sy::testing::cli
